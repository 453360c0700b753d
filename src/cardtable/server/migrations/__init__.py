"""Alembic migrations of the server's database (run by :func:`cardtable.server.store.migrate`)."""
