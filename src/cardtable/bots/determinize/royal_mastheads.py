"""Royal Mastheads determinization from a seat's :class:`View`.

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

from cardtable.core.game import Scope
from cardtable.games.royal_mastheads.state import (
    BIT,
    OPTIONS,
    SUIT,
    DealInfo,
    Phase,
    State,
    Trick,
    config_of,
    pot_owner,
)
from cardtable.games.royal_mastheads.view import View

__all__ = ["determinize", "unseen_cards", "voids"]

_PHASES = {"pot": Phase.POT, "play": Phase.PLAY, "over": Phase.OVER}
POT = 4
"""The place index of the hidden pot slots."""


def voids(view: View) -> list[int]:
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


def unseen_cards(view: View) -> list[int]:
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


def determinize(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view`` (hidden cards dealt by ``rng``)."""
    seat = view.seat
    phase = _PHASES[view.phase]
    cards = unseen_cards(view)
    rng.shuffle(cards)
    void = voids(view)
    others = [s for s in range(4) if s != seat]
    capacity = [0, 0, 0, 0, 0]
    for s in others:
        capacity[s] = view.hand_sizes[s]
    pot_len = sum(view.pot_counts)
    over = phase is Phase.OVER
    hidden_slots = [] if over else [i for i in range(pot_len) if pot_owner(view.dealer, i) != seat]
    capacity[POT] = len(hidden_slots)
    allowed = [[s for s in others if not void[s] >> SUIT[c] & 1] + [POT] for c in cards]
    where = _assign(cards, allowed, capacity, rng)
    if where is None:
        raise ValueError("no deal is consistent with this view")
    hands = [0, 0, 0, 0]
    if seat is not None:
        for c in view.hand:
            hands[seat] |= BIT[c]
    pot_cards: list[int] = []
    for c, p in zip(cards, where, strict=True):
        if p == POT:
            pot_cards.append(c)
        elif p >= 0:
            hands[p] |= BIT[c]
    if over and view.pot is not None:
        pot = tuple(view.pot)
    else:
        pot_list = [-1] * pot_len
        own = iter(view.own_pot)
        hidden = iter(pot_cards)
        for i in range(pot_len):
            pot_list[i] = next(own) if pot_owner(view.dealer, i) == seat else next(hidden)
        pot = tuple(pot_list)
    cfg = config_of(OPTIONS.parse_words(view.options))
    history = tuple((r[0], r[1], r[2], r[3]) for r in view.history)
    totals = (view.totals[0], view.totals[1], view.totals[2], view.totals[3])
    scope: Scope = "unit" if view.deals == 1 and cfg.deals != 1 else "match"
    info = DealInfo(
        cfg, rng.randrange(1 << 30), scope, view.deal, view.dealer, view.turned, history, totals
    )
    tricks = tuple(Trick(lead, win, (cs[0], cs[1], cs[2], cs[3])) for lead, win, cs in view.tricks)
    return State(
        info,
        phase,
        (hands[0], hands[1], hands[2], hands[3]),
        pot,
        tuple(view.trick),
        view.leader,
        tricks,
    )
