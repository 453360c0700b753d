"""Alembic environment: migrations run on the connection or URL the caller configures."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from cardtable.server.schema import METADATA


def run_migrations() -> None:
    """Run the migrations on the configured connection (or a new one from the URL)."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=METADATA)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=METADATA)
        with context.begin_transaction():
            context.run_migrations()


if hasattr(context, "config"):  # only when Alembic runs this file (not when it is imported)
    run_migrations()
