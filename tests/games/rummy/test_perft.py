"""Perft-style counts: legal action sequences to a small depth from three fixed deals.

The numbers were computed once by this engine and are asserted to catch changes in move
generation (and, by their time, slowdowns)."""

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
            [2, 68, 450, 2082, 19631],
            marks=pytest.mark.slow,
        ),
    ],
)
def test_perft(players: int, options: dict[str, object], seed: int, counts: list[int]) -> None:
    state = GAME.new_game(players, options, seed, "unit")
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts
