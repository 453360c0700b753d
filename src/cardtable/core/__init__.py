"""The game contract, errors, seeded randomness, options, records and the registry."""

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
    "replay",
]
