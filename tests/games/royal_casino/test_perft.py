"""Perft: the number of legal move sequences to a fixed depth from fixed positions.

Written down once from the engine and checked, so any change in move generation shows
(python-chess's perft, STYLE.md).  The positions are explicit, so the counts do not
depend on the shuffling.
"""

from __future__ import annotations

import pytest

from cardtable.games.royal_casino import GAME, RoyalCasinoState

OPENING_2P = (
    "royal-casino 2p; scope=match; seed=1; hand=1; dealer=P2; turn=P1; scores=0 0; "
    "hands=KS 7S 3D 2H / KC JC 10D 3S; stock=JH QS AH 2S 10H KD QH 5D 4H 7C AS 9C 8D 6C 3C "
    "AD 2C 5H 9H QD 5S 7H JS 9D KH 3H 6S 4S 7D 4D 5C 10C 10S 8C 6D 9S 8H AC 4C JD; "
    "loose=QC 8S 6H 2D; builds=-; piles=- / -; sweeps=0 0; last=-"
)
BUILDS_2P = (
    "royal-casino 2p; scope=unit; seed=32; hand=1; dealer=P2; turn=P2; scores=0 0; "
    "hands=10D 5C / 10C 8C AC; stock=8H 6S 7H JD 5H 2H 9H 3C 8S JH 10H 7D JS 3S 6D KC 9S AS "
    "QH 4S 4H 2S QD QC 2C 8D 9C 3H 4D 5S AH KH; loose=QS JC 10S 9D 6C; "
    "builds=[10 S P1: 6H 4C] [10 S P1: 5D 3D 2D]; piles=KS KD 7S 7C AD / -; sweeps=0 0; last=P1"
)
BUILDS_3P = (
    "royal-casino 3p; scope=unit; seed=17; hand=1; dealer=P2; turn=P2; scores=0 0 0; "
    "hands=10S 4S 3S / KH QS 8S 4C / 9H 6S 3D; stock=-; loose=KD QD 8D 5S; "
    "builds=[6 S P3: 3H 3C] [4 S P1: 2H 2D]; piles=QH QC 9D 9C 8H 8C 6H 4H AC / "
    "KS KC JS JC 10H 10C 9S 5H 4D 2S 2C AS AD / JH JD 10D 7S 7H 7D 7C 6D 6C 5D 5C AH; "
    "sweeps=0 0 0; last=P2"
)
BUILDS_4P = (
    "royal-casino 4p; scope=unit; seed=3; hand=1; dealer=P3; turn=P3; scores=0 0; "
    "hands=QS / 6C / KD 10H / 3D; stock=KS 2D 4H AC 7C JS 5S 5D 8C 9S 5H 10S 7S AD 3H 8D 4C "
    "9C JC QC 2C AS KH 8S 8H 2S 6D QH 10D QD AH KC; loose=9H 7D 6H 4S 3C; "
    "builds=[13 S P3: 9D 4D] [13 S P3: 6S 5C 2H]; piles=- / JH JD 10C 7H 3S; sweeps=0 0; last=P4"
)


def perft(state: RoyalCasinoState, depth: int) -> int:
    """Legal move sequences of length ``depth`` (a finished game counts once)."""
    if depth == 0 or GAME.to_act(state) is None:
        return 1
    return sum(perft(GAME.apply(state, m)[0], depth - 1) for m in GAME.legal_actions(state))


@pytest.mark.parametrize(
    ("position", "counts"),
    [
        (OPENING_2P, (6, 60, 298, 1680)),
        (BUILDS_2P, (13, 21, 45)),
        (BUILDS_3P, (14, 15, 25)),
        (BUILDS_4P, (20, 20, 29)),
    ],
    ids=["opening-2p", "builds-2p", "builds-3p", "builds-4p"],
)
def test_perft_counts(position: str, counts: tuple[int, ...]) -> None:
    state = GAME.parse_position(position)
    assert GAME.invariant_failures(state) == []
    assert tuple(perft(state, d) for d in range(1, len(counts) + 1)) == counts
