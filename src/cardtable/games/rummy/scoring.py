"""Scoring (R9, R10): penalty values, round scores and the game's winner.

>>> hand_penalty(mask_of_cards("QS 7D AH"))
60
>>> hand_penalty(mask_of_cards("JK QS AS"))
70
>>> round_scores((0, 45, 15), closer=0, doubled=True)
(25, -90, -30)
>>> round_scores((10, 45, 15), closer=-1, doubled=False)
(-10, -45, -15)
"""

from __future__ import annotations

from cardtable.games.rummy.state import JOKER0, parse_phys

__all__ = [
    "CLOSER_BONUS",
    "PENALTY",
    "hand_penalty",
    "mask_of_cards",
    "rank_winners",
    "round_scores",
]

CLOSER_BONUS = 25
"""R9.3: the closer's plus points."""


def _penalty(card: int) -> int:
    if card >= JOKER0:
        return 15  # R8.6
    face = card % 52
    if face == 11:  # QS
        return 40
    rank = face % 13 + 1
    if rank == 1:
        return 15
    if rank >= 10:
        return 10
    return 5


PENALTY: tuple[int, ...] = tuple(_penalty(c) for c in range(108))
"""R9.2 penalty value of every physical card id."""


def hand_penalty(hand: int) -> int:
    """Sum of the penalty values of the cards of a hand mask (R9.2, R9.4)."""
    total = 0
    while hand:
        low = hand & -hand
        total += PENALTY[low.bit_length() - 1]
        hand ^= low
    return total


def mask_of_cards(text: str) -> int:
    """A physical-card mask from text such as ``QS QS' JK``."""
    m = 0
    for word in text.split():
        m |= 1 << parse_phys(word)
    return m


def round_scores(penalties: tuple[int, ...], closer: int, doubled: bool) -> tuple[int, ...]:
    """Signed round scores: the closer +25, the others −penalty (×2 if doubled, R9.5);
    blocked (``closer`` = -1): everyone −penalty (R7.4)."""
    factor = 2 if doubled else 1
    return tuple(
        CLOSER_BONUS if seat == closer else -p * factor for seat, p in enumerate(penalties)
    )


def rank_winners(
    totals: tuple[int, ...], closes: tuple[int, ...], penalties: tuple[int, ...]
) -> tuple[int, ...]:
    """The winning seats: highest total, then more rounds closed, then smaller total
    penalty; whoever is still level shares the win (R10.2, R10.4)."""
    best = max((totals[s], closes[s], -penalties[s]) for s in range(len(totals)))
    return tuple(s for s in range(len(totals)) if (totals[s], closes[s], -penalties[s]) == best)
