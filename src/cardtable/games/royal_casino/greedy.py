"""A greedy Royal Casino bot: a one-move lookahead over the seat's view.

It values what a move captures (cards toward most cards, spades, 10♦, 2♠, aces, a
sweep), keeps its own builds safe (a build whose value an opponent may hold is worth
less), and avoids leaving the table open to a sweep.  Everything it uses comes from the
view: its own hand, the table, the builds, the captured piles and the hand sizes.

>>> import random
>>> from cardtable.games.royal_casino import GAME
>>> s = GAME.parse_position("royal-casino 2p; hands=10S 3H / 4C; loose=10H 10C 8D 6S")
>>> bot = RoyalCasinoGreedyBot()
>>> GAME.format_action(bot.choose(GAME.view(s, 0), GAME.legal_actions(s), random.Random(1)))
'capture 10S: 10H 10C'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from cardtable.cards import FULL_DECK
from cardtable.games.royal_casino.rules import partition
from cardtable.games.royal_casino.state import (
    ACE_BITS,
    CAPV,
    RANK_MASK,
    SPADES,
    TEN_OF_DIAMONDS,
    TWO_OF_SPADES,
    VAL,
    Kind,
    RoyalCasinoAction,
)
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = ["RoyalCasinoGreedyBot", "card_worth", "score_move"]


def card_worth(mask: int) -> float:
    """What captured cards are worth toward the hand's points (C9.1), roughly."""
    worth = 0.12 * mask.bit_count() + 0.08 * (mask & SPADES).bit_count()
    worth += 2.0 * bool(mask & TEN_OF_DIAMONDS) + 1.0 * bool(mask & TWO_OF_SPADES)
    return worth + 1.0 * (mask & ACE_BITS).bit_count()


def _chance_opponents_hold(unseen: int, opp_cards: int, value: int) -> float:
    """The chance the opponents hold at least one card capturing ``value``."""
    rank = 1 if value == 14 else value
    k = (unseen & RANK_MASK[rank - 1]).bit_count()
    n = unseen.bit_count()
    if k == 0 or opp_cards <= 0 or n == 0:
        return 0.0
    h = min(opp_cards, n)
    return 1.0 - comb(n - k, h) / comb(n, h)


def _sweepable_values(loose: int, build_values: list[int]) -> list[int]:
    """Capture values that would take the whole table (loose cards and every build)."""
    out = []
    for v in range(2, 15):
        if any(b != v for b in build_values):
            continue
        if loose and partition(loose, v) is None:
            continue
        if loose or build_values:
            out.append(v)
    return out


def score_move(view: RoyalCasinoView, move: RoyalCasinoAction) -> float:
    """A one-move estimate of a move's value for the seat of the view."""
    assert view.hand is not None and view.seat is not None
    seat = view.seat
    known = view.hand | view.loose
    for b in view.builds:
        known |= b.mask
    for p in view.piles:
        known |= p
    unseen = FULL_DECK & ~known
    opponents = [i for i in range(view.players) if i != seat]
    if view.players == 4:
        opponents = [i for i in opponents if i % 2 != seat % 2]
    opp = sum(view.hand_sizes[i] for i in opponents)
    loose = view.loose
    # the builds left on the table after the move, as (value, owner)
    builds = [(b.value, b.owner) for b in view.builds]
    score = 0.0
    kind = move.kind
    if kind == Kind.CAPTURE:
        taken = (1 << move.card) | move.loose
        for i, b in enumerate(view.builds):
            if move.builds >> i & 1:
                taken |= b.mask
        builds = [x for i, x in enumerate(builds) if not move.builds >> i & 1]
        loose &= ~move.loose
        score += card_worth(taken) + 0.3
        if not loose and not builds and view.options["sweeps"] == "ON":
            score += 1.0
    elif kind == Kind.TRAIL:
        loose |= 1 << move.card
        score -= card_worth(1 << move.card) * 0.6
    else:
        # A build is a capture postponed: worth its cards if it survives to our next turn.
        cards = (1 << move.card) | move.loose
        if kind != Kind.BUILD:
            cards |= view.builds[move.builds.bit_length() - 1].mask
        loose &= ~move.loose
        risk = _chance_opponents_hold(unseen, opp, move.value)
        score += card_worth(cards) * ((1.0 - risk) * 0.8 - risk * 0.5)
        builds = [x for i, x in enumerate(builds) if not move.builds >> i & 1]
        builds.append((move.value, seat))
        # Spending a card on a build keeps it from a capture this turn.
        score -= 0.05 * CAPV[move.card] / 14 + 0.01 * VAL[move.card]
    # Leaving the table open to a sweep gives the opponents a point.
    if view.options["sweeps"] == "ON" and (loose or builds):
        values = _sweepable_values(loose, [v for v, _ in builds])
        owned = {v for v, owner in builds if owner == seat}
        threat = max(
            (_chance_opponents_hold(unseen, opp, v) for v in values if v not in owned),
            default=0.0,
        )
        score -= threat * (1.0 + 0.3 * card_worth(loose))
    return score


class RoyalCasinoGreedyBot:
    """Takes the most valuable capture, protects its builds, avoids leaving sweeps."""

    name = "greedy"

    def choose(
        self, view: RoyalCasinoView, legal: Sequence[RoyalCasinoAction], rng: random.Random
    ) -> RoyalCasinoAction:
        """The move with the best one-move score (ties broken at random)."""
        best: list[RoyalCasinoAction] = []
        best_score = float("-inf")
        for move in legal:
            s = score_move(view, move)
            if s > best_score + 1e-9:
                best_score = s
                best = [move]
            elif abs(s - best_score) <= 1e-9:
                best.append(move)
        return best[rng.randrange(len(best))]
