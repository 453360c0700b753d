"""Perft: the number of legal action sequences to a fixed depth from fixed positions.

Written down once from the engine and checked, so any change in action generation or in the
automatic steps (collecting a trick, scoring and dealing the next deal) shows, like the
Royal Casino and Rummy perfts.  The positions are explicit, so the counts do not depend on
the shuffling.
"""

from __future__ import annotations

import pytest

from cardtable.games.royal_mastheads import GAME, RoyalMastheadsState

OPENING = (
    "royal-mastheads; options -; scope unit; seed 1; deal 1; dealer P1; scores -; turned QH; "
    "hands 9S AH 3H 6H 9H QH 4D 6D 9D 10D 2C 4C JC / 5S JS QS KS 8H 10H KH 3D 5D 6C 10C QC KC"
    " / AS 4S 7S 10S 7H JH AD 7D JD QD AC 3C 9C / 2S 3S 6S 8S 2H 4H 5H 2D 8D KD 5C 7C 8C; "
    "pot -; tricks -; trick -"
)
FIRST_LEAD = (
    "royal-mastheads; options -; scope unit; seed 2; deal 1; dealer P3; scores -; turned 10C; "
    "hands 2S 5S 7S 10S KS JD 7C 9C JC QC KC / AS 2H 10H QH KH AD 3D 4D 7D 3C 4C / "
    "3S 6S 9S 3H 5H 6H JH 8D 10D QD 5C / JS AH 7H 9H 2D 5D 6D 9D KD 2C 8C; "
    "pot 8S QS 4S 8H 4H 6C 10C AC; tricks -; trick -"
)
RUSSIAN_MIDDLE = (
    "royal-mastheads; options ruleset:russian; scope unit; seed 3; deal 1; dealer P2; "
    "scores -; turned 2S; hands 8S 6H 9H 10H 2D 3D 6D JC / 2S 7S 10S 4H 5H 9D 3C KC / "
    "3S 5S JS 2H JH 7D QC / AS 4S KS KH AD 4D 8C 9C; pot 9S 6C 5D QS QH AC JD 7C; "
    "tricks P3:10C 4C 2C 5C, P3:AH 3H 7H 8H, P3:KD 10D 8D QD; trick 6S"
)
ENDGAME = (
    "royal-mastheads; options -; scope unit; seed 4; deal 1; dealer P3; scores -; turned KS; "
    "hands 7D JD KD 8C / QS 3H 5H AC / AS AH 2H QH / KH 5D 6C JC; "
    "pot 10H 4D 8S QC JH 9D 9S 2S; tricks P3:7S 6S 5S KS, P2:6H 8H 4H 9H, P3:5C KC 7C 4C, "
    "P1:10S 4S JS 3S, P1:10C 2C 9C 3C, P4:2D 10D 6D QD, P4:8D AD 3D 7H; trick -"
)
NEXT_DEAL = (  # the last trick of deal 1 of 2: scoring and dealing deal 2 come in between
    "royal-mastheads; options deals:2; scope match; seed 5; deal 1; dealer P3; scores -; "
    "turned 6S; hands 7D / 5D / JD / -; pot 5C 3H 8C 2H 3C 2C 7C KD; "
    "tricks P3:9C 6C AC QC, P2:2S 5S AS 6S, P1:8D 3D AD QD, P1:JS 3S 10S 9S, P1:KS QS JH 4S, "
    "P1:6D 4D 2D 8H, P1:JC 9D 10D 4C, P4:AH 5H 4H 10H, P4:8S 7S 6H QH, P4:KC KH 9H 7H; trick 10C"
)


def perft(state: RoyalMastheadsState, depth: int) -> int:
    """Legal action sequences of length ``depth`` (a finished game counts once)."""
    if depth == 0 or GAME.to_act(state) is None:
        return 1
    return sum(perft(GAME.apply(state, a)[0], depth - 1) for a in GAME.legal_actions(state))


@pytest.mark.parametrize(
    ("position", "counts"),
    [
        (OPENING, (13, 156, 2028, 24336)),
        (FIRST_LEAD, (11, 53, 177, 623, 6230)),
        (RUSSIAN_MIDDLE, (3, 3, 9, 63, 185, 320)),
        (ENDGAME, (4, 9, 22, 80, 240, 510, 1233, 3087)),
        (NEXT_DEAL, (1, 1, 1, 13, 156)),
    ],
    ids=["pot-opening", "first-lead", "russian-middle", "endgame", "into-the-next-deal"],
)
def test_perft_counts(position: str, counts: tuple[int, ...]) -> None:
    state = GAME.parse_position(position)
    assert GAME.format_position(state) == position
    assert GAME.invariant_failures(state) == []
    assert tuple(perft(state, d) for d in range(1, len(counts) + 1)) == counts
