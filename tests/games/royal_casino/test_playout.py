"""The fast random playout plays exactly the contract loop's game."""

from __future__ import annotations

import random

import pytest

from cardtable.games.royal_casino import GAME, RoyalCasinoState
from cardtable.games.royal_casino.playout import random_playout


def contract_loop(state: RoyalCasinoState, rng: random.Random) -> tuple[RoyalCasinoState, int]:
    n = 0
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
        n += 1
    return state, n


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("scope", ["unit", "match"])
def test_playout_equals_the_contract_loop(players: int, scope: str) -> None:
    for seed in range(40 if scope == "unit" else 6):
        start = GAME.new_game(players, seed=seed, scope="unit" if scope == "unit" else "match")
        fast, n_fast = random_playout(start, random.Random(seed))
        slow, n_slow = contract_loop(start, random.Random(seed))
        assert n_fast == n_slow
        assert fast == slow


@pytest.mark.parametrize(
    "options",
    [{"lastPlaySweepCounts": False}, {"sameValueBuildsCoexist": False}, {"direction": "CW"}],
)
def test_playout_equals_the_contract_loop_under_options(options: dict[str, object]) -> None:
    for seed in range(20):
        start = GAME.new_game(2 + seed % 3, options, seed=seed, scope="unit")
        assert random_playout(start, random.Random(seed)) == contract_loop(
            start, random.Random(seed)
        )


def test_playout_from_a_mid_hand_position_with_builds() -> None:
    start = GAME.parse_position(
        "royal-casino 2p; scope=unit; seed=32; hand=1; dealer=P2; turn=P2; scores=0 0; "
        "hands=10D 5C / 10C 8C AC; stock=8H 6S 7H JD 5H 2H 9H 3C 8S JH 10H 7D JS 3S 6D KC 9S "
        "AS QH 4S 4H 2S QD QC 2C 8D 9C 3H 4D 5S AH KH; loose=QS JC 10S 9D 6C; "
        "builds=[10 S P1: 6H 4C] [10 S P1: 5D 3D 2D]; piles=KS KD 7S 7C AD / -; "
        "sweeps=0 0; last=P1"
    )
    for seed in range(30):
        assert random_playout(start, random.Random(seed)) == contract_loop(
            start, random.Random(seed)
        )


class CountingRandom(random.Random):
    """A generator subclass: the playout must draw through its ``randrange``."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws = 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.draws += 1
        return super().randrange(start, stop, step)


def test_playout_with_a_generator_subclass_draws_once_per_move() -> None:
    start = GAME.new_game(2, seed=3, scope="unit")
    rng = CountingRandom(3)
    end, n = random_playout(start, rng)
    assert rng.draws == n
    assert (end, n) == contract_loop(start, random.Random(3))
