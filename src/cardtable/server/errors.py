"""Errors sent back to a client: a machine-readable code and a reason for people."""

from __future__ import annotations

from cardtable.core.errors import CardtableError, IllegalActionError, InvalidNotationError
from cardtable.tables.table import NotYourTurnError, StaleVersionError

__all__ = ["ClientError", "error_of"]


class ClientError(Exception):
    """A message rejected with a machine-readable ``code`` and a reason for people;
    ``rule`` is the id of the game rule the reason cites (``C6.1``), or ``""``."""

    def __init__(self, code: str, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule


def error_of(e: CardtableError) -> ClientError:
    """The client-facing error for an error raised by the table or the game."""
    if isinstance(e, StaleVersionError):
        return ClientError("stale_version", str(e))
    if isinstance(e, NotYourTurnError):
        return ClientError("not_your_turn", str(e))
    if isinstance(e, InvalidNotationError):
        return ClientError("invalid_notation", str(e))
    if isinstance(e, IllegalActionError):
        return ClientError("illegal", str(e), e.rule)
    return ClientError("invalid", str(e))
