"""One seat numbering for people and texts: ``P1`` … ``Pn``.

Inside the engine, in JSON and in every API a seat is a 0-based ``int`` (seat 0 is the
first seat, like OpenSpiel's player ids).  Everywhere a person or a text format sees a
seat — positions, action and event texts, terminal views, CLI output — it is written
``P1`` … ``Pn`` (1-based, as players count).  These helpers are the one place that
converts between the two.

>>> seat_name(0), side_name((1, 3))
('P1', 'P2+P4')
>>> parse_seat("p3", 4)
2
>>> parse_seat("P0", 4)
Traceback (most recent call last):
...
cardtable.core.errors.InvalidNotationError: seats are P1..P4 (counted from 1); got 'P0'
"""

from __future__ import annotations

from collections.abc import Iterable

from cardtable.core.errors import InvalidNotationError

__all__ = ["parse_seat", "seat_name", "side_name"]


def seat_name(seat: int) -> str:
    """The text of a 0-based seat: ``P1`` for seat 0."""
    return f"P{seat + 1}"


def side_name(seats: Iterable[int]) -> str:
    """The text of a side (its seats joined by ``+``): ``P1`` or ``P1+P3``."""
    return "+".join(seat_name(s) for s in seats)


def parse_seat(text: str, players: int) -> int:
    """The 0-based seat of ``P1`` … ``Pn`` (any case); anything else is an
    :class:`~cardtable.core.errors.InvalidNotationError` that names the valid range."""
    word = text.strip()
    digits = word[1:] if word[:1] in ("P", "p") else ""
    if not digits.isdigit() or not 1 <= int(digits) <= players:
        raise InvalidNotationError(f"seats are P1..P{players} (counted from 1); got {word!r}")
    return int(digits) - 1
