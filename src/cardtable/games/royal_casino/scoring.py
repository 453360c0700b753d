"""Scoring a hand (C9) and deciding the game (C7.3–C7.4, C10).

>>> from cardtable.cards import parse_mask
>>> # CT40 (c): three players with sweeps 3/1/0: the leader nets 2.
>>> net_sweeps((3, 1, 0))
(2, 0, 0)
>>> net_sweeps((2, 2, 1))
(0, 0, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from cardtable.core.options import Options
from cardtable.games.royal_casino.state import (
    ACE_BITS,
    SPADES,
    TEN_OF_DIAMONDS,
    TWO_OF_SPADES,
)

__all__ = [
    "ACE_ORDER",
    "GameDecision",
    "HandScore",
    "decide_game",
    "net_sweeps",
    "requirement_met",
    "score_hand",
]

ACE_ORDER = (0, 39, 13, 26)
"""Aces in the precedence order ♠ ♣ ♥ ♦ (C9.4)."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """The points of one side for one hand, item by item (C9.1)."""

    cards: int
    spades: int
    most_cards: int
    most_spades: int
    big_casino: int
    little_casino: int
    aces: int
    sweeps: int
    """Net sweep points scored (after cancellation and the 18+ rule)."""
    swept: int
    """Sweeps made in the hand, before cancellation (C7.3)."""

    @property
    def total(self) -> int:
        """The hand points."""
        return (
            self.most_cards
            + self.most_spades
            + self.big_casino
            + self.little_casino
            + self.aces
            + self.sweeps
        )

    @property
    def total_without_sweeps(self) -> int:
        """The hand points leaving sweeps out."""
        return self.total - self.sweeps

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


def net_sweeps(sweeps: Sequence[int]) -> tuple[int, ...]:
    """Sweeps after cancellation (C7.3): only a strictly highest count scores, less the
    second-highest count.  With two sides this is ``max(0, own - other)``."""
    if len(sweeps) < 2:
        return tuple(sweeps)
    ordered = sorted(sweeps, reverse=True)
    top, second = ordered[0], ordered[1]
    return tuple(s - second if s == top and top > second else 0 for s in sweeps)


def _strict_leader(counts: Sequence[int]) -> int:
    """The index with a strictly highest count, or -1 on a tie (C9.2)."""
    best = max(counts)
    leaders = [i for i, c in enumerate(counts) if c == best]
    return leaders[0] if len(leaders) == 1 else -1


def score_hand(
    piles: Sequence[int],
    sweeps: Sequence[int],
    options: Options,
    no_sweep_sides: Sequence[bool] = (),
) -> tuple[HandScore, ...]:
    """Score a hand from each side's captured cards and sweeps.

    ``no_sweep_sides`` marks sides that score no sweeps (at 18–20, C7.4); their sweeps
    still cancel.  With ``sweeps=OFF`` nobody scores sweeps.
    """
    n = len(piles)
    cards = [p.bit_count() for p in piles]
    spades = [(p & SPADES).bit_count() for p in piles]
    card_leader = _strict_leader(cards)
    spade_leader = _strict_leader(spades)
    nets = net_sweeps(sweeps) if options["sweeps"] == "ON" else (0,) * n
    out = []
    for i, pile in enumerate(piles):
        barred = bool(no_sweep_sides) and no_sweep_sides[i]
        out.append(
            HandScore(
                cards=cards[i],
                spades=spades[i],
                most_cards=3 if i == card_leader else 0,
                most_spades=1 if i == spade_leader else 0,
                big_casino=2 if pile & TEN_OF_DIAMONDS else 0,
                little_casino=1 if pile & TWO_OF_SPADES else 0,
                aces=(pile & ACE_BITS).bit_count(),
                sweeps=0 if barred else nets[i],
                swept=sweeps[i],
            )
        )
    return tuple(out)


def requirement_met(start: int, score: HandScore, options: Options) -> bool:
    """Did a side that started the hand at 18, 19 or 20 meet its requirement (C10.2)?"""
    if start == 18:
        return score.most_cards > 0
    if start == 19:
        return score.big_casino > 0
    if start == 20:
        if options["rule20"] == "LITTLE_CASINO":
            return score.little_casino > 0
        return score.most_spades > 0
    return False


def _precedence(start: int, options: Options) -> int:
    """Where a side's required item stands in the C9.4 order (lower is earlier)."""
    if start == 18:
        return 0  # most cards
    if start == 20 and options["rule20"] == "MOST_SPADES":
        return 1  # most spades
    if start == 19:
        return 2  # 10♦
    return 3  # 2♠


@dataclass(frozen=True, slots=True)
class GameDecision:
    """The scores after a hand and, if the game ended, its winners (C10.4)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    playoff: bool
    """True when the next hand is a play-off hand (C10.4 step 5)."""
    automatic: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


def is_restricted(start: int, playoff: bool) -> bool:
    """A side is restricted when it starts a normal hand at 18, 19 or 20 (C10.2)."""
    return not playoff and 18 <= start <= 20


def decide_game(
    starts: Sequence[int], hand: Sequence[HandScore], options: Options, playoff: bool
) -> GameDecision:
    """Apply the hand's points to the match scores and decide the game (C10.4)."""
    n = len(starts)
    if playoff:
        scores = tuple(s + h.total for s, h in zip(starts, hand, strict=True))
        leader = _strict_leader(scores)
        if leader >= 0:
            return GameDecision(scores, (leader,), False)
        return GameDecision(scores, (), True)
    restricted = [is_restricted(s, playoff) for s in starts]
    # Step 1: W, the restricted sides that met their requirement.
    met = [i for i in range(n) if restricted[i] and requirement_met(starts[i], hand[i], options)]
    # Step 2: of several, the side whose required item comes first in the C9.4 order wins;
    # only the winner is credited its hand points, every other side is updated as in step 3.
    winner = min(met, key=lambda i: _precedence(starts[i], options)) if met else -1
    new_scores = []
    for i in range(n):
        if not restricted[i] or i == winner:
            new_scores.append(starts[i] + hand[i].total)
        elif options["nearTargetMiss"] == "CAP_AT_20":
            new_scores.append(min(20, starts[i] + hand[i].total_without_sweeps))
        else:
            new_scores.append(starts[i])  # FREEZE: restricted sides stay where they are (C10.3)
    scores = tuple(new_scores)
    if met:
        return GameDecision(scores, (winner,), False, automatic=True)
    over = [i for i in range(n) if scores[i] >= 21]
    if not over:
        return GameDecision(scores, (), False)
    best = max(scores[i] for i in over)
    leaders = [i for i in over if scores[i] == best]
    if len(leaders) == 1:
        return GameDecision(scores, (leaders[0],), False)
    return GameDecision(scores, (), True)
