"""Royal Mastheads determinization from a seat's :class:`RoyalMastheadsView`.

Unseen cards are all 52 minus the own hand, the own pot cards and every card played (in
completed tricks and the current trick).  They fill the other hands (sizes from the view)
and the other seats' pot cards (counts from the view).  Voids are respected: a seat that
did not follow the suit led holds no card of that suit any more (M-10), so such cards go
only to other hands or to the pot (pot cards were chosen before play, so a void says
nothing about them).

The scope (one deal or a set) is read from ``view.deals``: a single deal shows 1.

Given ``pot_weights`` (52 positive weights, one a card), the other seats' hidden pot cards
are drawn first, by weight without replacement (a card that no other hand may hold goes
there first), and the rest of the unseen cards are dealt uniformly to the hands, voids
respected: an inference about what players choose to hide (see
:mod:`~cardtable.games.royal_mastheads.pot_inference`).  Without them every unseen card is
as likely to be in the pot as in a hand.

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> s = GAME.new_game(4, seed=5)
>>> v = GAME.view(s, 1)
>>> GAME.view(determinize(v, random.Random(2)), 1) == v
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

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
    constrained: list[tuple[int, list[int]]], cap: list[int], rnd: Callable[[], float]
) -> list[tuple[int, int]] | None:
    """Place the void-constrained cards first (most constrained first, each place weighted
    by its free room), updating ``cap``; ``None`` after repeated dead ends."""
    base = list(cap)
    for _attempt in range(20):
        cap[:] = base
        order = sorted(constrained, key=lambda ca: (len(ca[1]), rnd()))
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


def _fill_hands(hands: list[int], cap: list[int], free: list[int]) -> int:
    """Deal ``free`` in order to the hands' free room ``cap[0..3]``; how many were dealt."""
    pos = 0
    for p in range(4):
        n = cap[p]
        if n:
            m = 0
            for c in free[pos : pos + n]:
                m |= BIT[c]
            hands[p] |= m
            pos += n
    return pos


class MastheadsSampler:
    """Deals determinizations of one view: everything about the view that does not depend
    on the random deal is worked out once, on creation (a search keeps one for its loop)."""

    __slots__ = (
        "allowed",
        "capacity",
        "cards",
        "constrained",
        "forced_pot",
        "free",
        "free_cards",
        "hand_allowed",
        "info",
        "own",
        "phase",
        "pot_len",
        "pot_pool",
        "pot_template",
        "seat",
        "tricks",
        "view",
    )

    def __init__(
        self, view: RoyalMastheadsView, pot_weights: Sequence[float] | None = None
    ) -> None:
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
        # With pot weights: the cards only the pot may hold, the others with their weight,
        # and each card's possible hands (its places without the pot).
        self.forced_pot: list[int] = []
        self.pot_pool: list[tuple[int, float]] | None = None
        self.hand_allowed: dict[int, list[int]] = {}
        if pot_weights is not None and capacity[POT]:
            pool: list[tuple[int, float]] = []
            for c, a in zip(self.cards, self.allowed, strict=True):
                if len(a) == 1:
                    self.forced_pot.append(c)
                else:
                    pool.append((c, float(pot_weights[c])))
                    self.hand_allowed[c] = a[:-1]
            self.pot_pool = pool
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
        if self.pot_pool is not None and cap[POT]:
            dealt = self._pot_first(rnd)
            if dealt is not None:
                return self._state(dealt[0], dealt[1])
        placed = _place_constrained(self.constrained, cap, rnd) if self.constrained else []
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
        pos = _fill_hands(hands, cap, free)
        pot_cards.extend(free[pos:])
        return self._state(hands, pot_cards)

    def _pot_first(self, rnd: Callable[[], float]) -> tuple[list[int], list[int]] | None:
        """Hands and hidden pot cards with the pot drawn first, by weight (``None`` when
        the rest did not fit the hands' voids in a few tries)."""
        pool_base = self.pot_pool
        assert pool_base is not None
        need = self.capacity[POT] - len(self.forced_pot)
        if need < 0 or need > len(pool_base):
            return None
        others = 0
        for s in range(4):
            if s != self.seat:
                others += 1
        for _attempt in range(8):
            pool = list(pool_base)
            total = 0.0
            for _c, w in pool:
                total += w
            pot_cards = list(self.forced_pot)
            for _k in range(need):
                r = rnd() * total
                i = 0
                last = len(pool) - 1
                while i < last:
                    r -= pool[i][1]
                    if r < 0:
                        break
                    i += 1
                pot_cards.append(pool[i][0])
                total -= pool[i][1]
                pool[i] = pool[last]
                pool.pop()
            cap = list(self.capacity)
            cap[POT] = 0
            constrained: list[tuple[int, list[int]]] = []
            free: list[int] = []
            for c, _w in pool:
                allowed = self.hand_allowed[c]
                if len(allowed) < others:
                    constrained.append((c, allowed))
                else:
                    free.append(c)
            placed = _place_constrained(constrained, cap, rnd) if constrained else []
            if placed is None:
                continue
            hands = [0, 0, 0, 0]
            if self.seat is not None:
                hands[self.seat] = self.own
            for c, p in placed:
                hands[p] |= BIT[c]
            free.sort(key=lambda _c: rnd())
            _fill_hands(hands, cap, free)
            return hands, pot_cards
        return None

    def _state(self, hands: list[int], pot_cards: list[int]) -> RoyalMastheadsState:
        """The state with these hands and these cards in the other seats' pot slots."""
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
