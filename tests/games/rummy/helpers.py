"""Helpers for the Rummy tests: positions from short texts, legal-action texts by kind."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from cardtable.core.game import Event
from cardtable.games.rummy import GAME, RummyState
from cardtable.games.rummy.events import (
    Discarded,
    DrewStock,
    LaidOff,
    Melded,
    RoundDealt,
    SwappedJoker,
    TookDiscard,
)
from cardtable.games.rummy.state import DISCARD, DRAW, LAYOFF, MELD, SWAP, TAKE

KINDS = {
    "draw": (DRAW, TAKE),
    "meld": (MELD,),
    "layoff": (LAYOFF,),
    "swap": (SWAP,),
    "discard": (DISCARD,),
}


def pos(
    text: str, options: str = "-", players: int = 2, phase: str = "PLAY P1", scope: str = "unit"
) -> RummyState:
    """A position from a few lines (hands, melds, discard, …) plus the usual header."""
    head = f"players: {players}\noptions: {options}\nphase: {phase}\nscope: {scope}\n"
    return GAME.parse_position(head + textwrap.dedent(text))


def legal(state: RummyState, kind: str | None = None) -> set[str]:
    """The legal actions (of one kind) as canonical texts."""
    kinds = KINDS[kind] if kind else None
    return {
        GAME.format_action(a) for a in GAME.legal_actions(state) if kinds is None or a.kind in kinds
    }


def play(state: RummyState, *texts: str) -> tuple[RummyState, list[Event]]:
    """Apply actions given as text; returns the final state and all events."""
    events: list[Event] = []
    for t in texts:
        state, evs = GAME.apply(state, GAME.parse_action(state, t))
        events.extend(evs)
    return state, events


def is_legal(state: RummyState, text: str) -> bool:
    """True when the typed action parses to a legal action."""
    return GAME.is_legal(state, GAME.parse_action(state, text))


def rule_of(state: RummyState, text: str) -> str:
    """The rule id that forbids a typed action (fails if it is legal)."""
    action = GAME.parse_action(state, text)
    assert not GAME.is_legal(state, action), text
    return GAME.explain_illegal(state, action).rule


def track_known(known: list[set[str]], events: Iterable[Event]) -> None:
    """Update, per seat, the cards a spectator saw enter that hand and not leave it, from
    the events as a spectator receives them (an oracle for ``known_in_hand`` that does not
    read the state)."""
    for event in events:
        e = GAME.redact(event, None)
        if isinstance(e, RoundDealt):
            for k in known:
                k.clear()
        elif isinstance(e, TookDiscard):
            known[e.seat].update(e.cards)
        elif isinstance(e, DrewStock) and e.card is not None:
            known[e.seat].add(e.card)  # only a public stock's card reaches a spectator
        elif isinstance(e, SwappedJoker):
            known[e.seat].discard(e.card)
            known[e.seat].add(e.joker)
        elif isinstance(e, Melded):
            known[e.seat].difference_update(w.partition("=")[0] for w in e.cards)
        elif isinstance(e, LaidOff):
            known[e.seat].discard(e.card.partition("=")[0])
        elif isinstance(e, Discarded):
            known[e.seat].discard(e.card)
