"""The authoritative in-process table that every front end drives."""

from cardtable.tables.table import (
    BotTurn,
    NotYourTurnError,
    SeatSpec,
    StaleVersionError,
    Table,
    TableUpdate,
    bot_rng,
    parse_seat_specs,
)

__all__ = [
    "BotTurn",
    "NotYourTurnError",
    "SeatSpec",
    "StaleVersionError",
    "Table",
    "TableUpdate",
    "bot_rng",
    "parse_seat_specs",
]
