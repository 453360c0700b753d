"""Helpers for Royal Casino scenario tests: positions and LEGAL sets in the spec's words."""

from __future__ import annotations

from cardtable.games.royal_casino import GAME, RoyalCasinoState
from cardtable.games.royal_casino.events import Captured
from cardtable.games.royal_casino.state import RoyalCasinoAction


def pos(text: str) -> RoyalCasinoState:
    """A position; the header is added when missing."""
    if not text.startswith("royal-casino"):
        text = "royal-casino; " + text
    return GAME.parse_position(text)


def legal(state: RoyalCasinoState) -> set[str]:
    """The legal moves as canonical text."""
    return {GAME.format_action(m) for m in GAME.legal_actions(state)}


def spec_set(state: RoyalCasinoState, spec: str) -> set[str]:
    """A spec LEGAL list (``A; B; C``) parsed in ``state`` and formatted canonically."""
    return {GAME.format_action(GAME.parse_action(state, s)) for s in spec.split(";") if s.strip()}


def assert_legal(state: RoyalCasinoState, spec: str) -> None:
    """The legal moves are exactly the spec's list."""
    assert legal(state) == spec_set(state, spec)


def move(state: RoyalCasinoState, text: str) -> RoyalCasinoAction:
    """Parse a move in a state."""
    return GAME.parse_action(state, text)


def is_legal(state: RoyalCasinoState, text: str) -> bool:
    """True when the move is legal."""
    return GAME.parse_action(state, text) in GAME.legal_actions(state)


def play(state: RoyalCasinoState, text: str) -> tuple[RoyalCasinoState, tuple[object, ...]]:
    """Apply a move given as text."""
    return GAME.apply(state, GAME.parse_action(state, text))


def swept(events: tuple[object, ...]) -> bool:
    """True when the events contain a sweep."""
    return any(isinstance(e, Captured) and e.sweep for e in events)


def builds_of(text: str) -> tuple[object, ...]:
    """The builds of a ``builds=`` field text."""
    return tuple(pos(f"hands=KC / -; builds={text}").builds)
