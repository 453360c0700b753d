"""Rummy determinization from a seat's :class:`RummyView`.

The public part of the position (melds with their joker meanings, the discard pile in
order, scores, phase, the card taken from the pile this turn and open obligations, the
stock order once it is public, and each seat's ``known_in_hand``) is written as a position
and read by the game's own ``parse_position``, once per view (a :class:`RummySampler`).
Each determinization then deals the unseen cards: the seat's own hand is known, every
other seat's publicly known cards (taken from the discard pile, drawn from a public stock,
a joker freed by a swap — the taken card and obligations among them) stay in that hand,
and only the rest are shuffled into the other hands (sizes from the view, minus the known
cards) and the face-down stock.

The scope is the view's (a one-round game ends with the round inside a simulation, as
the arena plays it; a match deals the next round).  What the view does not carry, and
how it is filled in: ``penalties`` (tie-breaks only; zeros), who has ``placed`` cards
earlier in the round (taken as the owners of melds: lay-offs onto others' melds are not
attributed) and cards set aside (none).

What a seat did *not* do is read from the current view alone: a hand does not change
between its owner's turns, so a seat that has ended a turn this round holds no meld (it
would have laid it out), the seat that has just ended its turn holds no card that lays
off onto the table as it stands at the next draw, and at most one of its cards links
with no other (a greedy player throws those first).  Each determinization draws up to
:data:`INFERENCE_TRIES` deals and keeps the first that fits (else the one that breaks it
least), so the inference steers the deal and never makes it impossible.  What a seat
passed up (the top discard it left for the stock, the view's ``passed``) is read the same
way: by preference its hand makes no meld with any of those cards (:data:`PASSED_UP`).

>>> import random
>>> from cardtable.games import get_game
>>> game = get_game("rummy")
>>> s = game.new_game(2, seed=3)
>>> v = game.view(s, 1)
>>> game.view(determinize(v, random.Random(0)), 1) == v
True
"""

from __future__ import annotations

import random

from cardtable.games.rummy.notation import parse_position
from cardtable.games.rummy.playout import layoff_faces
from cardtable.games.rummy.state import (
    F52,
    JOKER0,
    OPTIONS,
    Phase,
    RummyState,
    card_text,
    make_config,
    parse_phys,
)
from cardtable.games.rummy.view import RummyView

__all__ = [
    "INFERENCE_TRIES",
    "PASSED_UP",
    "RummySampler",
    "determinize",
    "has_meld",
    "makes_meld",
    "position_text",
    "unlinked",
    "unseen_cards",
]

INFERENCE_TRIES = 20
"""How many deals a determinization draws at most to find one that fits what the other
seats did not do (the first that fits is kept, else the one that breaks fewest)."""

PASSED_UP = True
"""Whether a seat that has ended a turn is dealt, by preference, a hand that makes no meld
with any card it passed up this round (a greedy player takes a discard that completes
one).  The hand may have changed since (a draw, a discard), so this only steers."""

KEEPS_LINKED = True
"""Whether a seat that has ended a turn is dealt, by preference, a hand where at most one
card links with no other (a greedy player discards those first)."""

_ACES = 1 | 1 << 13 | 1 << 26 | 1 << 39
_RUN_STARTS = 0x7FF * _ACES


def has_meld(faces: int, wrap: bool) -> bool:
    """Whether the natural card ``faces`` (a 52-bit mask) hold a set or a run (R5).

    >>> has_meld(0b111, False), has_meld(1 | 1 << 13 | 1 << 26, False), has_meld(0b101, False)
    (True, True, False)
    >>> qka = 1 | 1 << 11 | 1 << 12
    >>> has_meld(qka, False), has_meld(1 | 1 << 1 | 1 << 12, False), has_meld(1 | 2 | 1 << 12, True)
    (True, False, True)
    """
    fm = faces
    if fm & fm >> 1 & fm >> 2 & _RUN_STARTS or fm & fm >> 12 & fm >> 11 & _ACES:
        return True
    if wrap and fm & fm >> 12 & fm >> 1 & _ACES:
        return True
    sa, sb, sc, sd = fm & 0x1FFF, fm >> 13 & 0x1FFF, fm >> 26 & 0x1FFF, fm >> 39
    return bool((sa & sb & (sc | sd)) | (sc & sd & (sa | sb)))


def makes_meld(faces: int, face: int, wrap: bool) -> bool:
    """Whether the natural card ``face`` (0-51) makes a set or a run (R5) with two or more
    of the natural card ``faces`` (a 52-bit mask): what a greedy player takes it for.

    >>> makes_meld(1 << 13 | 1 << 26, 0, False), makes_meld(0b110, 0, False)  # A A; 2 3
    (True, True)
    >>> qk = 1 << 11 | 1 << 12
    >>> makes_meld(qk, 0, False), makes_meld(1 << 12 | 1 << 1, 0, False)
    (True, False)
    >>> makes_meld(0b101, 0, False)
    False
    >>> makes_meld(1 << 12 | 1 << 1, 0, True)  # K A 2 only when runs may turn the corner
    True
    """
    suit, rank = divmod(face, 13)
    sa, sb, sc, sd = faces & 0x1FFF, faces >> 13 & 0x1FFF, faces >> 26 & 0x1FFF, faces >> 39
    if (sa >> rank & 1) + (sb >> rank & 1) + (sc >> rank & 1) + (sd >> rank & 1) - (
        faces >> face & 1
    ) >= 2:
        return True
    p = (faces >> 13 * suit & 0x1FFF) | 1 << rank
    p |= (p & 1) << 13  # the ace above the king
    if wrap:
        p |= (p & 2) << 13  # and the two above that ace
    for pos in (rank, rank + 13) if rank < 2 else (rank,):
        if not p >> pos & 1:
            continue
        for lo in (pos - 2, pos - 1, pos):
            if lo >= 0 and p >> lo & 7 == 7:
                return True
    return False


def unlinked(faces: int) -> int:
    """How many of the natural card ``faces`` link with no other: no card of their rank,
    none of their suit within two ranks (what a greedy player discards first).

    >>> unlinked(0b101 | 1 << 20), unlinked(1 | 1 << 13 | 1 << 30)
    (1, 1)
    """
    fm = faces
    sa, sb, sc, sd = fm & 0x1FFF, fm >> 13 & 0x1FFF, fm >> 26 & 0x1FFF, fm >> 39
    pairs = (sa & (sb | sc | sd)) | (sb & (sc | sd)) | (sc & sd)
    linked = fm & (pairs | pairs << 13 | pairs << 26 | pairs << 39)
    for shift in (0, 13, 26, 39):
        p = fm >> shift & 0x1FFF
        near = (p << 1 | p >> 1 | p << 2 | p >> 2) & 0x1FFF
        linked |= (p & near) << shift
    return (fm & ~linked).bit_count()


def _cards(words: tuple[str, ...] | None) -> str:
    return " ".join(words) if words else "-"


def _pinned(view: RummyView, seat: int) -> tuple[str, ...]:
    """The cards of another ``seat`` that everyone saw enter its hand (kept there)."""
    if view.phase == "OVER" or seat == view.seat:
        return ()
    return view.known_in_hand[seat]


def unseen_cards(view: RummyView) -> list[int]:
    """The physical cards ``view``'s seat has not seen (in card order)."""
    cfg = make_config(view.players, OPTIONS.parse_words(view.options))
    seen = 0
    known = (w for k in view.known_in_hand for w in k)
    for w in (*(view.hand or ()), *view.discard, *known, *(view.stock or ())):
        seen |= 1 << parse_phys(w)
    for m in view.melds:
        for w in m.cards:
            seen |= 1 << parse_phys(w.split("=")[0])
    return [c for c in range(108) if cfg.all_cards >> c & 1 and not seen >> c & 1]


def position_text(view: RummyView, others: dict[int, list[int]], stock: list[int]) -> str:
    """The position of ``view`` with ``others`` (unseen cards by seat) and the face-down
    ``stock`` filled in, as position text."""
    n = view.players
    seat = view.seat
    phase = view.phase
    current = view.to_act if view.to_act is not None else 0
    placed = sorted({m.owner for m in view.melds})
    known = "; ".join(f"P{i + 1} {' '.join(k)}" for i, k in enumerate(view.known_in_hand) if k)
    passed = "; ".join(f"P{i + 1} {' '.join(k)}" for i, k in enumerate(view.passed) if k)
    if view.last_scores:
        who = "blocked" if view.last_closer < 0 else f"P{view.last_closer + 1}"
        last = f"{who} " + " ".join(str(x) for x in view.last_scores)
    else:
        last = "-"
    over = phase == "OVER"
    round_no = view.round if over else view.round - 1
    lines = [
        "rummy",
        f"players: {n}",
        f"options: {view.options or '-'}",
        "seed: 0",
        f"scope: {view.scope}",
        f"round: {round_no}",
        f"dealer: P{view.dealer + 1}",
        f"phase: {phase} P{current + 1}",
        f"scores: {' '.join(str(x) for x in view.scores)}",
        f"closes: {' '.join(str(x) for x in view.closes)}",
        f"last: {last}",
        f"turn: {view.turn}",
        f"turnovers: {view.turnovers}",
        f"stock_public: {'yes' if view.stock is not None else 'no'}",
        f"taken: {view.taken or '-'}",
        f"obligations: {_cards(view.obligations)}",
        f"melds_this_turn: {view.melds_this_turn}",
        f"placed_this_turn: {'yes' if view.melds_this_turn else 'no'}",
        f"placed: {' '.join(f'P{i + 1}' for i in placed) or '-'}",
        f"known: {known or '-'}",
        f"passed: {passed or '-'}",
    ]
    for i in range(n):
        if over and view.shown_hands is not None:
            words = list(view.shown_hands[i])
        elif i == seat:
            words = list(view.hand or ())
        else:
            words = [*_pinned(view, i), *(card_text(c) for c in others.get(i, []))]
        lines.append(f"P{i + 1}: {' '.join(words) or '-'}")
    if view.stock is not None:
        lines.append(f"stock: {_cards(view.stock)}")
    else:
        lines.append(f"stock: {' '.join(card_text(c) for c in stock) or '-'}")
    lines.append(f"discard: {_cards(view.discard)}")
    for m in view.melds:
        lines.append(f"M{m.number}(P{m.owner + 1}): {' '.join(m.cards)}")
    return "\n".join(lines) + "\n"


class RummySampler:
    """Deals determinizations of one view: its position is read once, on creation, and
    each call redeals only the unseen cards (a search keeps one for its whole loop)."""

    __slots__ = ("base", "checked", "need", "no_layoff", "passed", "unseen", "view", "wrap")

    def __init__(self, view: RummyView) -> None:
        self.view = view
        unseen = unseen_cards(view)
        need = [0] * view.players
        if view.phase != "OVER":
            for i in range(view.players):
                if i != view.seat:
                    need[i] = view.hand_sizes[i] - len(_pinned(view, i))
        others: dict[int, list[int]] = {}
        pos = 0
        for i, k in enumerate(need):
            others[i] = unseen[pos : pos + k]
            pos += k
        stock = unseen[pos:]
        self.base = parse_position(position_text(view, others, stock))
        self.unseen = unseen
        self.need = need
        self.wrap = self.base.cfg.wrap
        # What the other seats did not do: a seat that has ended a turn this round holds
        # no meld (it would have laid it out), and the seat that has just ended its turn
        # holds no card that lays off onto the table as it now stands (in the draw phase
        # nothing has changed since).
        self.checked = [False] * view.players
        self.no_layoff = [0] * view.players
        seat = view.seat
        if INFERENCE_TRIES > 1 and view.phase != "OVER" and seat is not None:
            n = view.players
            first = (view.dealer + 1) % n
            for i in range(n):
                if i != seat and view.turn > (i - first) % n:
                    self.checked[i] = True
            prev = (seat - 1) % n
            if view.phase == "DRAW" and view.to_act == seat and self.checked[prev]:
                self.no_layoff[prev] = layoff_faces(self.base.melds, self.wrap)
        # What a seat passed up: the cards it let lie on the pile and drew from the stock
        # instead (a greedy player takes one that would complete a meld).
        self.passed: list[list[int]] = [[] for _ in range(view.players)]
        if PASSED_UP:
            for i, cards in enumerate(view.passed):
                if self.checked[i]:
                    for w in cards:
                        c = parse_phys(w)
                        if c < JOKER0:
                            self.passed[i].append(c % 52)

    def __call__(self, rng: random.Random) -> RummyState:
        """A full state consistent with the view (hidden cards dealt by ``rng``)."""
        base = self.base
        if base.phase == Phase.OVER:
            return base
        rnd = rng.random
        unseen = self.unseen
        tries = INFERENCE_TRIES if any(self.checked) else 1
        best_hands: list[int] = []
        best_cards: list[int] = []
        best_bad = -1
        for _ in range(max(tries, 1)):
            cards = sorted(unseen, key=lambda _c: rnd())
            hands = list(base.hands)
            pos = 0
            bad = 0
            for i, k in enumerate(self.need):
                if k > 0:
                    m = hands[i]
                    for c in unseen[pos : pos + k]:
                        m &= ~(1 << c)  # the provisional cards of the base position
                    for c in cards[pos : pos + k]:
                        m |= 1 << c
                    hands[i] = m
                    pos += k
                    if self.checked[i]:
                        faces = (m | m >> 52) & F52
                        if has_meld(faces, self.wrap) or faces & self.no_layoff[i]:
                            bad += 2
                        if KEEPS_LINKED:
                            loose = unlinked(faces)
                            if loose > 1:
                                bad += loose - 1
                        for face in self.passed[i]:
                            if makes_meld(faces, face, self.wrap):
                                bad += 1
            if best_bad < 0 or bad < best_bad:
                best_hands, best_cards, best_bad = hands, cards, bad
                if not bad:
                    break
        stock = base.stock if self.view.stock is not None else tuple(best_cards[pos:])
        return base._replace(hands=tuple(best_hands), stock=stock, seed=rng.randrange(1 << 30))


def determinize(view: RummyView, rng: random.Random) -> RummyState:
    """A full state consistent with ``view`` (hidden cards dealt by ``rng``)."""
    return RummySampler(view)(rng)
