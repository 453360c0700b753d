"""What the other seats' plays so far say about their cards: worlds weighed by a model.

Policy-based inference (Rebstock, Solinas, Buro & Sturtevant 2019, for Skat): a world
(a determinization of the view) is the likelier the likelier the other seats' plays so
far would have been in it.  The model of a seat's play is ``greedy``'s
(:class:`~cardtable.games.royal_mastheads.greedy.MastheadsGreedyBot`) with a share ``e``
of uniform choice: a card played has probability ``(1 - e) [greedy's card] + e / legal``
given the hand the world gave that seat at that moment.  ``scripts/policy_agreement.py``
measured how often ``greedy`` foresees ``hard``: 58.3% of its follows (a uniform guess
34.7%, best ``e`` 0.64) and 35.8% of its leads (20.2%, ``e`` 0.80); docs/bots-experiments.md.

:class:`PlayInferenceSampler` draws a pool of worlds from the plain sampler (voids
respected) on its first call, weighs each by that likelihood and then deals worlds from
the pool by weight (importance resampling).  It is a search profile's ``sampler`` for
pilots; no level uses it.

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> from cardtable.games.royal_mastheads.greedy import MastheadsGreedyBot
>>> s = GAME.new_game(4, seed=3, scope="unit")
>>> bot = MastheadsGreedyBot()
>>> for _ in range(20):
...     view, legal = GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s)
...     s, _ = GAME.apply(s, bot.choose(view, legal, random.Random(0)))
>>> v = GAME.view(s, GAME.to_act(s))
>>> sampler = PlayInferenceSampler(v, pool=64)
>>> GAME.view(sampler(random.Random(0)), v.seat) == v
True
>>> len(sampler.weights), max(sampler.weights) == 1.0
(64, True)
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable

from cardtable.games.royal_mastheads.determinize import MastheadsSampler
from cardtable.games.royal_mastheads.greedy import MastheadsGreedyBot
from cardtable.games.royal_mastheads.state import BIT, SUIT, RoyalMastheadsState
from cardtable.games.royal_mastheads.view import RoyalMastheadsView

__all__ = [
    "FOLLOW_E",
    "LEAD_E",
    "POOL",
    "Play",
    "PlayInferenceSampler",
    "effective_size",
    "play_likelihood",
    "play_sampler",
    "plays_of",
    "tempered",
]

FOLLOW_E = 0.64
"""The model's share of uniform choice when a seat follows (fitted on ``hard``)."""
LEAD_E = 0.80
"""The same when a seat leads."""
POOL = 512
"""Worlds drawn and weighed once a view.  On 18 positions of partly greedy play (pure
build), 256 worlds took 0.016-0.046 CPU seconds to weigh and kept an effective sample size
of 34-175 after four tricks, 6-69 after ten; so twice that many, a small part of an
``expert`` move."""

_GREEDY = MastheadsGreedyBot()


Play = tuple[int, int, tuple[int, ...], int]
"""One card played in a deal: its seat, the card, the trick before it and the mask of the
cards played before it."""


def plays_of(view: RoyalMastheadsView) -> list[Play]:
    """Every card played this deal in order (see :data:`Play`).

    >>> from cardtable.games.royal_mastheads import GAME
    >>> plays_of(GAME.view(GAME.new_game(4, seed=1, scope="unit"), 0))
    []
    """
    out: list[Play] = []
    tricks = [(lead, cards) for lead, _w, cards in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    gone = 0
    for lead, cards in tricks:
        for i, card in enumerate(cards):
            out.append(((lead + i) & 3, card, tuple(cards[:i]), gone))
            gone |= BIT[card]
    return out


def play_likelihood(
    view: RoyalMastheadsView,
    world: RoyalMastheadsState,
    follow_e: float = FOLLOW_E,
    lead_e: float = LEAD_E,
    memo: dict[tuple[int, int], int] | None = None,
    plays: list[Play] | None = None,
) -> float:
    """How likely the other seats' plays so far were in ``world``, under the model.

    Each seat's hand before a play is its hand in ``world`` with the cards it played from
    then on; its legal cards follow the suit led if it can (M-10).  ``memo`` keeps
    ``greedy``'s choice by (play, legal cards) across the worlds of one view, and
    ``plays`` the view's plays, worked out once for them.
    """
    if plays is None:
        plays = plays_of(view)
    hands = list(world.hands)
    for seat, card, _before, _gone in plays:
        hands[seat] |= BIT[card]
    likelihood = 1.0
    for k, (seat, card, before, _gone) in enumerate(plays):
        hand = hands[seat]
        hands[seat] = hand & ~BIT[card]
        if seat == view.seat:
            continue
        cards = [c for c in range(52) if hand >> c & 1]
        if before:
            led = SUIT[before[0]]
            suited = [c for c in cards if SUIT[c] == led]
            legal = suited or cards
        else:
            legal = cards
        if len(legal) < 2:
            continue
        mask = 0
        for c in legal:
            mask |= BIT[c]
        key = (k, mask)
        choice = memo.get(key) if memo is not None else None
        if choice is None:
            choice = _GREEDY.choose(view._replace(trick=before), legal, random.Random(0))
            if memo is not None:
                memo[key] = choice
        e = lead_e if not before else follow_e
        likelihood *= (1.0 - e) * (choice == card) + e / len(legal)
    return likelihood


def effective_size(weights: list[float]) -> float:
    """``(sum w)^2 / sum w^2``: how many equally weighted worlds ``weights`` are worth.

    >>> effective_size([1.0, 1.0, 0.0])
    2.0
    """
    total = sum(weights)
    return total * total / sum(w * w for w in weights)


def tempered(logs: list[float], min_ess: float) -> list[float]:
    """Weights ``exp(beta * log)`` scaled to a largest of 1, with ``beta`` the largest in
    ``(0, 1]`` that keeps the pool's effective size at ``min_ess`` or more (found by
    bisection to 1/1024): a model that singles out a few worlds of the pool is believed
    only as far as the pool can follow it (adaptive tempering, as in tempered sequential
    Monte Carlo), so the search never bets on one sampled world.

    >>> tempered([0.0, -1.0], 0.0) == [1.0, math.exp(-1.0)]
    True
    >>> w = tempered([0.0] + [-50.0] * 99, 10.0)
    >>> round(effective_size(w), 1) >= 10.0
    True
    """
    top = max(logs)
    weights = [math.exp(g - top) for g in logs]
    if min_ess <= 0 or effective_size(weights) >= min_ess:
        return weights
    low, high = 0.0, 1.0
    for _step in range(10):
        mid = (low + high) / 2
        trial = [math.exp(mid * (g - top)) for g in logs]
        if effective_size(trial) >= min_ess:
            low = mid
        else:
            high = mid
    return [math.exp(low * (g - top)) for g in logs]


class PlayInferenceSampler:
    """Worlds of one view dealt by their likelihood under the model (module doc), or
    under another model when ``log_weigh`` (a world's log-likelihood) is given: then
    :func:`tempered` with ``min_ess``.

    ``weights`` are the pool's likelihoods scaled to a largest of 1 (empty until the first
    call); a view with no play of another seat yet weighs every world alike."""

    def __init__(
        self,
        view: RoyalMastheadsView,
        pool: int = POOL,
        follow_e: float = FOLLOW_E,
        lead_e: float = LEAD_E,
        pot_weights: list[float] | None = None,
        log_weigh: Callable[[RoyalMastheadsState], float] | None = None,
        min_ess: float = 0.0,
    ) -> None:
        self.view = view
        self.log_weigh = log_weigh
        self.min_ess = min_ess
        self.size = pool
        self.follow_e = follow_e
        self.lead_e = lead_e
        self.base = MastheadsSampler(view, pot_weights)
        self.worlds: list[RoyalMastheadsState] = []
        self.weights: list[float] = []
        self._cumulative: list[float] = []

    def _build(self, rng: random.Random) -> None:
        self.worlds = [self.base(rng) for _ in range(self.size)]
        if self.log_weigh is not None:
            self.weights = tempered([self.log_weigh(w) for w in self.worlds], self.min_ess)
        else:
            memo: dict[tuple[int, int], int] = {}
            plays = plays_of(self.view)  # the same for every world of the pool
            raw = [
                play_likelihood(self.view, w, self.follow_e, self.lead_e, memo, plays)
                for w in self.worlds
            ]
            top = max(raw)
            self.weights = [r / top for r in raw]
        total = 0.0
        for w in self.weights:
            total += w
            self._cumulative.append(total)

    def __call__(self, rng: random.Random) -> RoyalMastheadsState:
        """A world of the pool, drawn by weight (the pool is drawn on the first call)."""
        if not self.worlds:
            self._build(rng)
        r = rng.random() * self._cumulative[-1]
        i = bisect.bisect_right(self._cumulative, r)
        return self.worlds[min(i, len(self.worlds) - 1)]

    def effective_size(self) -> float:
        """The pool's effective sample size, ``(sum w)^2 / sum w^2`` (after the first call).

        >>> from cardtable.games.royal_mastheads import GAME
        >>> s = GAME.new_game(4, seed=1, scope="unit")
        >>> sampler = PlayInferenceSampler(GAME.view(s, GAME.to_act(s)), pool=8)
        >>> _ = sampler(random.Random(0))
        >>> sampler.effective_size()
        8.0
        """
        return effective_size(self.weights)


def play_sampler(view: RoyalMastheadsView) -> PlayInferenceSampler:
    """The view's sampler weighed by the model (a
    :class:`~cardtable.core.kit.SearchProfile` ``sampler``, for pilots)."""
    return PlayInferenceSampler(view)
