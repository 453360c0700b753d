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
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = [
    "METADATA",
    "daily_attempts",
    "daily_deals",
    "players",
    "rating_history",
    "ratings",
    "server_secrets",
    "table_actions",
    "table_players",
    "tables",
]

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

rating_history = Table(
    "rating_history",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(40), nullable=False),
    Column("game", String(40), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_rating_history_player_game", "player_id", "game"),
)
"""Every rating a player had, one row per rated game (the player page's chart)."""

server_secrets = Table(
    "server_secrets",
    METADATA,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)
"""Secrets generated once and shared by every process (the daily challenge's seed key)."""

daily_attempts = Table(
    "daily_attempts",
    METADATA,
    Column("day", Date, primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("player_id", String(24), ForeignKey("players.id"), primary_key=True),
    Column("deals", Integer, nullable=False),
    Column("score", Integer, nullable=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
)
"""One attempt per player, game and (UTC) day: the primary key is the one-attempt rule."""

daily_deals = Table(
    "daily_deals",
    METADATA,
    Column("day", Date, primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("player_id", String(24), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("table_id", String(40), ForeignKey("tables.id"), nullable=False, unique=True),
    Column("score", Integer, nullable=True),
)
"""The table of each deal of an attempt (one per deal: the key forbids a second)."""
