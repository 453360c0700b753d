"""What one seat may know (R4.9): a :class:`RummyView`, its JSON and terminal text.

Public: every meld, hand sizes, the stock size, the turnover count, the whole discard pile in
order, the card taken from the pile this turn and open obligations (both were face up), after
a turnover the order of the new stock, per seat the cards everyone saw enter that hand
and still in it (``known_in_hand``: taken from the discard pile, drawn from a public stock, a
joker freed by a swap) and the cards it passed up this round (``passed``).  Private: the
rest of the other hands and a face-down stock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from cardtable.core.game import Event
from cardtable.core.options import Options
from cardtable.games.rummy.events import DrewStock
from cardtable.games.rummy.melds import meld_meanings
from cardtable.games.rummy.rules import slot_text
from cardtable.games.rummy.state import (
    JOKER0,
    OPTIONS,
    RUN,
    Meld,
    Phase,
    RummyState,
    card_text,
)

__all__ = [
    "MeldView",
    "RummyView",
    "redact",
    "render_view",
    "shuffle_hidden",
    "view",
    "view_to_json",
]


@dataclass(frozen=True, slots=True)
class MeldView:
    """A meld as everyone sees it: number (1-based), owner seat, kind and cards."""

    number: int
    owner: int
    kind: str
    cards: tuple[str, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


@dataclass(frozen=True, slots=True)
class RummyView:
    """One seat's knowledge of a Rummy position (``seat`` None: a spectator).

    ``known_in_hand`` is public and the same for every reader: per seat (the reader's own
    included), the cards everyone saw enter that hand this round and still in it.
    ``passed`` is public too: per seat, the cards it passed up this round (the top of the
    discard pile when it drew from the stock instead).  ``scope`` says whether the game is
    one round (``"unit"``) or a whole match.
    """

    seat: int | None
    players: int
    phase: str
    to_act: int | None
    dealer: int
    round: int
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, ...]
    known_in_hand: tuple[tuple[str, ...], ...]
    passed: tuple[tuple[str, ...], ...]
    stock_size: int
    stock: tuple[str, ...] | None
    discard: tuple[str, ...]
    melds: tuple[MeldView, ...]
    taken: str | None
    obligations: tuple[str, ...]
    melds_this_turn: int
    turn: int
    turnovers: int
    scores: tuple[int, ...]
    closes: tuple[int, ...]
    last_closer: int
    last_scores: tuple[int, ...]
    shown_hands: tuple[tuple[str, ...], ...] | None
    options: str
    scope: str
    """``"unit"`` when the game is one round, ``"match"`` when it is a whole match (public:
    it decides whether the end of this round ends the game)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


_TEXT = tuple(card_text(c) for c in range(JOKER0 + 4))
_ORDER = tuple((c >= JOKER0, c % 52 if c < JOKER0 else 0, c) for c in range(JOKER0 + 4))


_SORTED: dict[int, tuple[str, ...]] = {}
"""Memo of :func:`_sorted_cards` (hands recur from view to view; cleared when large)."""


def _sorted_cards(mask: int) -> tuple[str, ...]:
    """Card texts of a mask: by suit and rank, second-pack copies after, jokers last."""
    got = _SORTED.get(mask)
    if got is not None:
        return got
    ids = []
    m = mask
    while m:
        low = m & -m
        ids.append(low.bit_length() - 1)
        m ^= low
    ids.sort(key=_ORDER.__getitem__)
    got = tuple([_TEXT[c] for c in ids])
    if len(_SORTED) > 100_000:
        _SORTED.clear()
    _SORTED[mask] = got
    return got


@lru_cache(maxsize=256)
def _options_text(options: Options) -> str:
    return OPTIONS.format_non_default(options)


_PHASE_NAME = {p: p.name for p in Phase}
_LAST_OPTIONS: list[tuple[Options, str]] = []
"""The options last written as words, and their words (most views repeat them)."""
_LAST_MELDS: list[tuple[tuple[Meld, ...], tuple[MeldView, ...]]] = []
"""The table's melds last shown, and how (a state shares its melds with the states before
it until a meld changes)."""


def _melds(melds: tuple[Meld, ...]) -> tuple[MeldView, ...]:
    last = _LAST_MELDS[0] if _LAST_MELDS else None
    if last is not None and last[0] is melds:
        return last[1]
    shown = tuple(
        [
            MeldView(
                i + 1,
                m.owner,
                "run" if m.kind == RUN else "set",
                tuple(slot_text(c, x) for c, x in zip(m.cards, meld_meanings(m), strict=True)),
            )
            for i, m in enumerate(melds)
        ]
    )
    _LAST_MELDS[:] = [(melds, shown)]
    return shown


def _words(options: Options) -> str:
    last = _LAST_OPTIONS[0] if _LAST_OPTIONS else None
    if last is not None and last[0] is options:
        return last[1]
    text = _options_text(options)
    _LAST_OPTIONS[:] = [(options, text)]
    return text


def view(state: RummyState, seat: int | None) -> RummyView:
    """The view of ``seat``."""
    phase = state.phase
    over = phase == Phase.OVER
    n = state.cfg.players
    known = state.known
    hands = state.hands
    return RummyView(
        seat=seat,
        players=n,
        phase=_PHASE_NAME[phase],
        to_act=None if over else state.current,
        dealer=state.dealer,
        round=state.round_no + (0 if over else 1),
        hand=None if seat is None else _sorted_cards(hands[seat]),
        hand_sizes=tuple([h.bit_count() for h in hands]),
        known_in_hand=tuple([_sorted_cards(h & known) if h & known else () for h in hands]),
        passed=tuple([_sorted_cards(m) if m else () for m in state.passed]),
        stock_size=len(state.stock),
        stock=tuple([_TEXT[c] for c in state.stock]) if state.stock_public else None,
        discard=tuple([_TEXT[c] for c in state.discard]),
        melds=_melds(state.melds),
        taken=_TEXT[state.taken] if state.taken >= 0 else None,
        obligations=_sorted_cards(state.obligations),
        melds_this_turn=state.melds_this_turn,
        turn=state.turn_no,
        turnovers=state.turnovers,
        scores=state.scores,
        closes=state.closes,
        last_closer=state.last_closer,
        last_scores=state.last_scores,
        shown_hands=tuple([_sorted_cards(h) for h in hands]) if over else None,
        options=_words(state.cfg.options),
        scope=state.scope,
    )


def redact(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it: a private stock draw hides its card from others."""
    if isinstance(event, DrewStock) and not event.public and event.seat != seat:
        return DrewStock(event.seat, None, False)
    return event


def view_to_json(view: RummyView) -> dict[str, Any]:
    """A view as a JSON object."""
    return {
        "game": "rummy",
        "seat": view.seat,
        "players": view.players,
        "phase": view.phase,
        "to_act": view.to_act,
        "dealer": view.dealer,
        "round": view.round,
        "hand": None if view.hand is None else list(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "known_in_hand": [list(k) for k in view.known_in_hand],
        "passed": [list(k) for k in view.passed],
        "stock_size": view.stock_size,
        "stock": None if view.stock is None else list(view.stock),
        "discard": list(view.discard),
        "melds": [
            {"number": m.number, "owner": m.owner, "kind": m.kind, "cards": list(m.cards)}
            for m in view.melds
        ],
        "taken": view.taken,
        "obligations": list(view.obligations),
        "melds_this_turn": view.melds_this_turn,
        "turn": view.turn,
        "turnovers": view.turnovers,
        "scores": list(view.scores),
        "closes": list(view.closes),
        "last_closer": view.last_closer,
        "last_scores": list(view.last_scores),
        "shown_hands": None if view.shown_hands is None else [list(h) for h in view.shown_hands],
        "options": view.options,
        "scope": view.scope,
    }


_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _pretty(card: str) -> str:
    """A card with its suit symbol (``7H'`` → ``7♥'``); a joker stays ``JK``."""
    face = card.rstrip("'")
    if face[-1:] in _SYMBOL and face != "JK":
        return face[:-1] + _SYMBOL[face[-1]] + card[len(face) :]
    return card


def _cards(cards: tuple[str, ...] | list[str]) -> str:
    return " ".join(_pretty(c) for c in cards) or "-"


def _count(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def render_view(view: RummyView) -> str:
    """The view as terminal text: scores, table, discard pile, stock and the own hand."""
    me = view.seat
    lines = [
        f"Rummy — round {view.round}, dealer P{view.dealer + 1}"
        + (f"  [{view.options}]" if view.options else "")
    ]
    lines.append(
        "scores: "
        + "  ".join(
            f"P{i + 1}{'*' if i == me else ''} {s:+d} ({_count(view.hand_sizes[i], 'card')})"
            for i, s in enumerate(view.scores)
        )
    )
    if view.melds:
        lines.append("table:")
        for m in view.melds:
            lines.append(f"  M{m.number} (P{m.owner + 1}, {m.kind}): {_cards(m.cards)}")
    else:
        lines.append("table: (no melds)")
    top = _pretty(view.discard[-1]) if view.discard else "-"
    pile = f"discard: top {top} ({_count(len(view.discard), 'card')}: {_cards(view.discard)})"
    lines.append(pile)
    stock = f"stock: {_count(view.stock_size, 'card')}"
    if view.stock is not None:
        stock += f" (known order, top first: {_cards(view.stock)})"
    if view.turnovers:
        stock += f", turned over {view.turnovers}×"
    lines.append(stock)
    if view.shown_hands is not None:
        for i, h in enumerate(view.shown_hands):
            lines.append(f"P{i + 1} holds: {_cards(h)}")
        if view.last_scores:
            who = "blocked" if view.last_closer < 0 else f"P{view.last_closer + 1} went out"
            lines.append(f"last round ({who}): " + " ".join(f"{s:+d}" for s in view.last_scores))
        lines.append("game over")
        return "\n".join(lines)
    if view.last_scores:
        who = "blocked" if view.last_closer < 0 else f"P{view.last_closer + 1} went out"
        lines.append(f"last round ({who}): " + " ".join(f"{s:+d}" for s in view.last_scores))
    for i, known in enumerate(view.known_in_hand):
        if known and i != me:
            unseen = view.hand_sizes[i] - len(known)
            lines.append(
                f"P{i + 1} holds: {_cards(known)}" + (f" + {unseen} unseen" if unseen else "")
            )
    if view.hand is not None:
        mine = f"your hand (P{(me or 0) + 1}): {_cards(view.hand)}"
        if me is not None and view.known_in_hand[me]:
            mine += f"  (seen by all: {_cards(view.known_in_hand[me])})"
        lines.append(mine)
    turn = f"to act: P{(view.to_act or 0) + 1} ({view.phase.lower()}"
    if view.taken:
        turn += f", took {_pretty(view.taken)}"
    if view.obligations:
        turn += f", must meld or lay off {_cards(view.obligations)}"
    lines.append(turn + ")")
    return "\n".join(lines)


def shuffle_hidden(state: RummyState, seat: int | None, rng: random.Random) -> RummyState:
    """Permute every card hidden from ``seat`` among the hidden places, keeping sizes.

    Hidden places: the other hands (minus their publicly known cards, which everyone saw)
    while the round runs, and the stock unless its order is public.
    """
    over = state.phase == Phase.OVER
    known = state.known
    pool: list[int] = []
    sizes: list[int] = []
    hand_seats = [] if over else [i for i in range(state.cfg.players) if i != seat]
    for i in hand_seats:
        cards = [c for c in range(108) if (state.hands[i] & ~known) >> c & 1]
        pool.extend(cards)
        sizes.append(len(cards))
    stock_hidden = not state.stock_public
    if stock_hidden:
        pool.extend(state.stock)
    rng.shuffle(pool)
    hands = list(state.hands)
    k = 0
    for i, size in zip(hand_seats, sizes, strict=True):
        m = state.hands[i] & known
        for c in pool[k : k + size]:
            m |= 1 << c
        hands[i] = m
        k += size
    stock = tuple(pool[k:]) if stock_hidden else state.stock
    return state._replace(hands=tuple(hands), stock=stock)
