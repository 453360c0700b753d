"""The game contract, errors, seeded randomness, options, records, seat names and the
registry."""

from cardtable.core.errors import (
    AmbiguousActionError,
    CardtableError,
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    UnknownGameError,
)
from cardtable.core.game import Event, Game, GameInfo, Outcome
from cardtable.core.options import Options, OptionSchema, OptionSpec
from cardtable.core.record import Record, Replay, replay
from cardtable.core.registry import Registry
from cardtable.core.rng import derive_rng
from cardtable.core.seats import parse_seat, seat_name, side_name

__all__ = [
    "AmbiguousActionError",
    "CardtableError",
    "Event",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "OptionSchema",
    "OptionSpec",
    "Options",
    "Outcome",
    "Record",
    "Registry",
    "Replay",
    "UnknownGameError",
    "derive_rng",
    "parse_seat",
    "replay",
    "seat_name",
    "side_name",
]
