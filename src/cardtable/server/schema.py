"""The database tables (SQLAlchemy Core).  Alembic migrations under ``migrations/`` create them.

A table's record is its row in ``tables`` (game, players, seed, options, scope, seats,
start, result) plus its lines in ``table_actions``; ``tables.version`` is the number of
actions and the optimistic lock of the process that owns the table's writes.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = ["METADATA", "players", "ratings", "table_actions", "table_players", "tables"]

METADATA = MetaData()

tables = Table(
    "tables",
    METADATA,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("scope", String(8), nullable=False),
    Column("options", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("start", Text, nullable=True),
    Column("meta", Text, nullable=False),
    Column("status", String(12), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

table_actions = Table(
    "table_actions",
    METADATA,
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
)

players = Table(
    "players",
    METADATA,
    Column("id", String(24), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("name", String(80), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

table_players = Table(
    "table_players",
    METADATA,
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(24), ForeignKey("players.id"), nullable=False, index=True),
)

ratings = Table(
    "ratings",
    METADATA,
    Column("player_id", String(40), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)
