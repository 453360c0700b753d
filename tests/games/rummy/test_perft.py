"""Perft-style counts: legal action sequences to a small depth from three fixed deals.

The numbers were computed once by this engine and are asserted to catch changes in move
generation (and, by their time, slowdowns).

Why the two-pack count at depth 5 is 19635 (not 19631, as a lowest-copy generator gives).  After
``DISCARD KC'`` and ``TAKE_DISCARD`` (of that ``KC'``), a hand holding both ``KC`` and ``KC'``
melds one king with ``QC`` and a joker.  Melding the lowest copy, ``KC``, would keep the
taken ``KC'``, which R4.5 forbids discarding; the generator melds the taken copy and keeps
``KC``, which may be discarded: one more discard after each of the two melds
(``JK=JC QC KC'``, ``QC KC' JK=AC``), below both first moves.  The other counts (one pack, no swaps)
do not depend on it."""

from __future__ import annotations

import pytest

from cardtable.games.rummy import GAME, RummyState


def perft(state: RummyState, depth: int) -> int:
    if depth == 0 or GAME.to_act(state) is None:
        return 1
    return sum(perft(GAME.apply(state, a)[0], depth - 1) for a in GAME.legal_actions(state))


@pytest.mark.parametrize(
    ("players", "options", "seed", "counts"),
    [
        (2, {}, 1, [2, 21, 42, 447, 930, 9544, 21040]),
        pytest.param(
            3,
            {"jokers": True, "wrapKA2": True},
            2,
            [2, 22, 50, 510, 1493, 19423],
            marks=pytest.mark.slow,
        ),
        pytest.param(
            4,
            {"discardPickup": "anyWithAbove", "decks": 2, "jokers": True},
            3,
            [2, 68, 450, 2082, 19635],
            marks=pytest.mark.slow,
        ),
    ],
)
def test_perft(players: int, options: dict[str, object], seed: int, counts: list[int]) -> None:
    state = GAME.new_game(players, options, seed, "unit")
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts
