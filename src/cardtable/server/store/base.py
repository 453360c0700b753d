"""The database under the store: the engine, the migrations and the server's secrets."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, insert, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from cardtable.server.schema import server_secrets

__all__ = ["MIGRATIONS", "StoreBase", "make_engine", "migrate", "utc_now"]

MIGRATIONS = Path(__file__).parent.parent / "migrations"
"""The Alembic scripts of the schema (``cardtable/server/migrations``)."""


def utc_now() -> datetime:
    """The current time in UTC, as every row stores it."""
    return datetime.now(UTC)


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL mode and a busy timeout."""
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)


class StoreBase:
    """The database a store works on: its URL and engine, migrated on opening."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = make_engine(url)
        migrate(self.engine)

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    def secret(self, name: str, fresh: str) -> str:
        """The stored secret ``name``; ``fresh`` is stored first if there is none yet.

        Two processes starting together may both try: the primary key lets one win and
        both read the winner's value.
        """
        with contextlib.suppress(IntegrityError), self.engine.begin() as conn:
            found = conn.execute(
                select(server_secrets.c.value).where(server_secrets.c.name == name)
            ).first()
            if found is not None:
                return str(found.value)
            conn.execute(insert(server_secrets).values(name=name, value=fresh))
        with self.engine.connect() as conn:
            value = conn.execute(
                select(server_secrets.c.value).where(server_secrets.c.name == name)
            ).scalar_one()
            return str(value)
