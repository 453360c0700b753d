"""Royal Mastheads determinization from a seat's :class:`RoyalMastheadsView`.

Unseen cards are all 52 minus the own hand, the own pot cards and every card played (in
completed tricks and the current trick).  They fill the other hands (sizes from the view)
and the other seats' pot cards (counts from the view).  Voids are respected: a seat that
did not follow the suit led holds no card of that suit any more (M-10), so such cards go
only to other hands or to the pot (pot cards were chosen before play, so a void says
nothing about them).

The scope (one deal or a set) is read from ``view.deals``: a single deal shows 1.

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> s = GAME.new_game(4, seed=5)
>>> v = GAME.view(s, 1)
>>> GAME.view(determinize(v, random.Random(2)), 1) == v
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtable.core.game import Scope
from cardtable.games.royal_mastheads.state import (
    BIT,
    OPTIONS,
    SUIT,
    DealInfo,
    Phase,
    RoyalMastheadsState,
    Trick,
    config_of,
    pot_owner,
)
from cardtable.games.royal_mastheads.view import RoyalMastheadsView

__all__ = ["MastheadsSampler", "determinize", "unseen_cards", "voids"]

_PHASES = {"pot": Phase.POT, "play": Phase.PLAY, "over": Phase.OVER}
POT = 4
"""The place index of the hidden pot slots."""


def voids(view: RoyalMastheadsView) -> list[int]:
    """For each seat, a 4-bit mask of the suits it has shown it no longer holds."""
    out = [0, 0, 0, 0]
    tricks = [(lead, cards) for lead, _w, cards in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for lead, cards in tricks:
        led = SUIT[cards[0]]
        for i in range(1, len(cards)):
            if SUIT[cards[i]] != led:
                out[(lead + i) & 3] |= 1 << led
    return out


def unseen_cards(view: RoyalMastheadsView) -> list[int]:
    """The cards ``view``'s seat has not seen, in card order."""
    seen = 0
    for c in view.hand:
        seen |= BIT[c]
    for c in view.own_pot:
        seen |= BIT[c]
    for _lead, _w, cards in view.tricks:
        for c in cards:
            seen |= BIT[c]
    for c in view.trick:
        seen |= BIT[c]
    return [c for c in range(52) if not seen >> c & 1]


def _assign(
    cards: list[int], allowed: list[list[int]], capacity: list[int], rng: random.Random
) -> list[int] | None:
    """Each card a place among ``allowed[i]`` with capacities respected (random), or None."""
    n = len(cards)
    for _attempt in range(20):
        cap = list(capacity)
        where = [-1] * n
        order = sorted(range(n), key=lambda i: (len(allowed[i]), rng.random()))
        ok = True
        for i in order:
            places = [p for p in allowed[i] if cap[p] > 0]
            if not places:
                ok = False
                break
            total = sum(cap[p] for p in places)
            r = rng.randrange(total)
            for p in places:
                r -= cap[p]
                if r < 0:
                    break
            where[i] = p
            cap[p] -= 1
        if ok:
            return where
    return _match(n, allowed, capacity)


def _match(n: int, allowed: list[list[int]], capacity: list[int]) -> list[int] | None:
    """A deterministic assignment by augmenting paths (the rare fallback)."""
    slots = [(p, k) for p in range(len(capacity)) for k in range(capacity[p])]
    slot_of_place: dict[int, list[int]] = {}
    for j, (p, _k) in enumerate(slots):
        slot_of_place.setdefault(p, []).append(j)
    owner = [-1] * len(slots)

    def augment(i: int, seen: set[int]) -> bool:
        for p in allowed[i]:
            for j in slot_of_place.get(p, []):
                if j in seen:
                    continue
                seen.add(j)
                if owner[j] < 0 or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(n):
        if not augment(i, set()):
            return None
    where = [-1] * n
    for j, i in enumerate(owner):
        if i >= 0:
            where[i] = slots[j][0]
    return where


def _place_constrained(
    prep: MastheadsSampler, cap: list[int], rnd: Callable[[], float]
) -> list[tuple[int, int]] | None:
    """Place the void-constrained cards first (most constrained first, each place weighted
    by its free room), updating ``cap``; ``None`` after repeated dead ends."""
    base = list(cap)
    for _attempt in range(20):
        cap[:] = base
        order = sorted(prep.constrained, key=lambda ca: (len(ca[1]), rnd()))
        out: list[tuple[int, int]] = []
        for c, allowed in order:
            total = 0
            for p in allowed:
                total += cap[p]
            if not total:
                break
            r = int(rnd() * total)
            for p in allowed:
                r -= cap[p]
                if r < 0:
                    break
            cap[p] -= 1
            out.append((c, p))
        else:
            # the free cards must fit what is left (they may go anywhere)
            return out
    cap[:] = base
    return None


class MastheadsSampler:
    """Deals determinizations of one view: everything about the view that does not depend
    on the random deal is worked out once, on creation (a search keeps one for its loop)."""

    __slots__ = (
        "allowed",
        "capacity",
        "cards",
        "constrained",
        "free",
        "free_cards",
        "info",
        "own",
        "phase",
        "pot_len",
        "pot_template",
        "seat",
        "tricks",
        "view",
    )

    def __init__(self, view: RoyalMastheadsView) -> None:
        self.view = view
        seat = self.seat = view.seat
        self.phase = _PHASES[view.phase]
        self.cards = unseen_cards(view)
        void = voids(view)
        others = [s for s in range(4) if s != seat]
        capacity = [0, 0, 0, 0, 0]
        for s in others:
            capacity[s] = view.hand_sizes[s]
        pot_len = self.pot_len = sum(view.pot_counts)
        over = self.phase is Phase.OVER
        hidden_slots = (
            [] if over else [i for i in range(pot_len) if pot_owner(view.dealer, i) != seat]
        )
        capacity[POT] = len(hidden_slots)
        self.capacity = capacity
        self.allowed = [
            [s for s in others if not void[s] >> SUIT[c] & 1] + [POT] for c in self.cards
        ]
        full = len(others) + 1
        self.free = all(len(a) == full for a in self.allowed)
        self.constrained = [
            (c, a) for c, a in zip(self.cards, self.allowed, strict=True) if len(a) < full
        ]
        self.free_cards = [
            c for c, a in zip(self.cards, self.allowed, strict=True) if len(a) == full
        ]
        own = 0
        if seat is not None:
            for c in view.hand:
                own |= BIT[c]
        self.own = own
        if over and view.pot is not None:
            self.pot_template: list[int] | None = None
        else:
            own_pot = iter(view.own_pot)
            self.pot_template = [
                next(own_pot) if pot_owner(view.dealer, i) == seat else -1 for i in range(pot_len)
            ]
        cfg = config_of(OPTIONS.parse_words(view.options))
        history = tuple((r[0], r[1], r[2], r[3]) for r in view.history)
        totals = (view.totals[0], view.totals[1], view.totals[2], view.totals[3])
        scope: Scope = "unit" if view.deals == 1 and cfg.deals != 1 else "match"
        # The seed only deals the next deal; the view does not show it, so any will do.
        self.info = DealInfo(cfg, 0, scope, view.deal, view.dealer, view.turned, history, totals)
        self.tricks = tuple(
            Trick(lead, win, (cs[0], cs[1], cs[2], cs[3])) for lead, win, cs in view.tricks
        )

    def __call__(self, rng: random.Random) -> RoyalMastheadsState:
        """A full state consistent with the view (hidden cards dealt by ``rng``)."""
        rnd = rng.random
        cap = list(self.capacity)
        hands = [0, 0, 0, 0]
        if self.seat is not None:
            hands[self.seat] = self.own
        placed = _place_constrained(self, cap, rnd) if self.constrained else []
        if placed is None:
            where = _assign(self.cards, self.allowed, self.capacity, rng)
            if where is None:
                raise ValueError("no deal is consistent with this view")
            placed = list(zip(self.cards, where, strict=True))
            free: list[int] = []
            cap = [0, 0, 0, 0, 0]
        else:
            free = sorted(self.free_cards, key=lambda _c: rnd())
        pot_cards: list[int] = []
        for c, p in placed:
            if p == POT:
                pot_cards.append(c)
            else:
                hands[p] |= BIT[c]
        pos = 0
        for p in range(4):
            n = cap[p]
            if n:
                m = 0
                for c in free[pos : pos + n]:
                    m |= BIT[c]
                hands[p] |= m
                pos += n
        pot_cards.extend(free[pos:])
        view = self.view
        if self.pot_template is None:
            pot = tuple(view.pot or ())
        else:
            hidden = iter(pot_cards)
            pot = tuple(c if c >= 0 else next(hidden) for c in self.pot_template)
        return tuple.__new__(
            RoyalMastheadsState,
            (
                self.info,
                self.phase,
                (hands[0], hands[1], hands[2], hands[3]),
                pot,
                view.trick,
                view.leader,
                self.tricks,
            ),
        )


def determinize(view: RoyalMastheadsView, rng: random.Random) -> RoyalMastheadsState:
    """A full state consistent with ``view`` (hidden cards dealt by ``rng``)."""
    return MastheadsSampler(view)(rng)
