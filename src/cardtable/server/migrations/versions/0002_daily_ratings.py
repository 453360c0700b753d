"""The daily challenge (attempts, their deals, the server's seed key) and rating history.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the daily challenge's tables and the rating history."""
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_history_player_game", "rating_history", ["player_id", "game"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "daily_deals",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column(
            "table_id", sa.String(40), sa.ForeignKey("tables.id"), nullable=False, unique=True
        ),
        sa.Column("score", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    """Drop them."""
    for name in ("daily_deals", "daily_attempts", "server_secrets", "rating_history"):
        op.drop_table(name)
