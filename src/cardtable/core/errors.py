"""Typed errors: every message is one line a person can act on.

>>> e = IllegalActionError("C6.1", "you own a build, so you may not trail")
>>> str(e)
'C6.1: you own a build, so you may not trail'
>>> isinstance(e, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "AmbiguousActionError",
    "CardtableError",
    "IllegalActionError",
    "InvalidNotationError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "UnknownGameError",
]


class CardtableError(Exception):
    """Base of every error cardtable raises on bad input."""


class InvalidNotationError(CardtableError, ValueError):
    """Text that is not an action (or card) in the game's notation."""


class AmbiguousActionError(InvalidNotationError):
    """Text that names more than one legal action."""


class IllegalActionError(CardtableError, ValueError):
    """A well-formed action that the rules forbid in this state.

    ``rule`` is the id of the rule that forbids it (``C6.1``, ``R4.5``, ``M-10``) or ``""``.
    """

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{rule}: {reason}" if rule else reason)


class InvalidOptionError(CardtableError, ValueError):
    """An unknown option, or a value the option does not allow."""


class InvalidPositionError(CardtableError, ValueError):
    """Text that is not a valid position of the game."""


class InvalidRecordError(CardtableError, ValueError):
    """A game record that cannot be read or does not replay."""


class UnknownGameError(CardtableError, KeyError):
    """A game name that is not registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"
