"""Royal Casino determinization from a seat's :class:`RoyalCasinoView`.

Unseen cards are all 52 minus the own hand, the loose cards, the builds and the captured
piles (every captured card was face up).  They go to the other hands (sizes from the view)
and the stock (shuffled).  One constraint is known about other hands: the owner of a build
holds a card of its guard rank (rule C6.2), so each owner is first given one such card.

>>> import random
>>> from cardtable.games.royal_casino import GAME
>>> s = GAME.new_game(2, seed=3)
>>> v = GAME.view(s, 0)
>>> GAME.view(determinize(v, random.Random(1)), 0) == v
True
"""

from __future__ import annotations

import random

from cardtable.cards import FULL_DECK
from cardtable.games.royal_casino.state import CAPV, Phase, RoyalCasinoState
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = ["RoyalCasinoSampler", "determinize", "unseen_cards"]


def unseen_cards(view: RoyalCasinoView) -> int:
    """The mask of the cards ``view``'s seat has not seen (other hands and the stock)."""
    seen = (view.hand or 0) | view.loose
    for b in view.builds:
        seen |= b.mask
    for p in view.piles:
        seen |= p
    return FULL_DECK & ~seen


class RoyalCasinoSampler:
    """Deals determinizations of one view: the unseen cards and the build guards are
    worked out once, on creation (a search keeps one for its whole loop)."""

    __slots__ = ("guards", "unseen", "view")

    def __init__(self, view: RoyalCasinoView) -> None:
        self.view = view
        unseen = unseen_cards(view)
        self.unseen = [c for c in range(52) if unseen >> c & 1]
        # C6.2: every build owner (other than the viewer) holds a card of the guard rank.
        guards: dict[int, set[int]] = {}
        for b in view.builds:
            if b.owner != view.seat:
                guards.setdefault(b.owner, set()).add(b.value)
        self.guards = [(owner, sorted(values)) for owner, values in guards.items()]

    def __call__(self, rng: random.Random) -> RoyalCasinoState:
        """A full state consistent with the view (hidden cards dealt by ``rng``)."""
        view = self.view
        seat = view.seat
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands = [0] * view.players
        if seat is not None and view.hand is not None:
            hands[seat] = view.hand
        need = list(view.hand_sizes)
        if seat is not None:
            need[seat] = 0
        for owner, values in self.guards:
            for value in values:
                if hands[owner] and any(
                    CAPV[c] == value for c in range(52) if hands[owner] >> c & 1
                ):
                    continue
                for i, c in enumerate(pool):
                    if CAPV[c] == value and need[owner] > 0:
                        hands[owner] |= 1 << c
                        need[owner] -= 1
                        del pool[i]
                        break
        pos = 0
        for s in range(view.players):
            for c in pool[pos : pos + need[s]]:
                hands[s] |= 1 << c
            pos += need[s]
        stock = tuple(pool[pos:])
        return RoyalCasinoState(
            players=view.players,
            options=view.options,
            scope=view.scope,
            seed=rng.randrange(1 << 30),
            hand_no=view.hand_no,
            dealer=view.dealer,
            turn=view.turn,
            phase=Phase.OVER if view.over else Phase.PLAY,
            hands=tuple(hands),
            stock=stock,
            loose=view.loose,
            builds=view.builds,
            piles=view.piles,
            sweeps=view.sweeps,
            last_capturer=view.last_capturer,
            scores=view.scores,
            playoff=view.playoff,
            winners=view.winners,
            last_hand_points=view.last_hand_points,
        )


def determinize(view: RoyalCasinoView, rng: random.Random) -> RoyalCasinoState:
    """A full state consistent with ``view`` (hidden cards dealt by ``rng``)."""
    return RoyalCasinoSampler(view)(rng)
