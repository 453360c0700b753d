"""The authoritative in-process table that every front end drives."""

from cardtable.tables.table import (
    NotYourTurnError,
    SeatSpec,
    StaleVersionError,
    Table,
    TableUpdate,
    parse_seat_specs,
)

__all__ = [
    "NotYourTurnError",
    "SeatSpec",
    "StaleVersionError",
    "Table",
    "TableUpdate",
    "parse_seat_specs",
]
