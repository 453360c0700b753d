"""The search's fast paths agree with playing through the contract."""

from __future__ import annotations

import random

import pytest

from cardtable.bots.fast_mastheads import playout, score_captures
from cardtable.games import get_game

GAME = get_game("royal-mastheads")


@pytest.mark.parametrize("ruleset", ["pagat", "russian"])
@pytest.mark.parametrize("seed", range(25))
def test_mastheads_scoring_matches_the_game(ruleset: str, seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(4, {"ruleset": ruleset}, seed=seed, scope="unit")
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    captured: list[list[int]] = [[], [], [], []]
    counts = [0, 0, 0, 0]
    for t in state.tricks:
        captured[t.winner].extend(t.cards)
        counts[t.winner] += 1
    assert score_captures(state, captured, counts, state.pot) == state.info.history[-1]


@pytest.mark.parametrize("seed", range(25))
def test_mastheads_forced_playout_matches_the_game(seed: int) -> None:
    """From the last trick every move is forced: the playout must score as the game."""
    rng = random.Random(seed)
    state = GAME.new_game(4, seed=seed, scope="unit")
    while len(state.tricks) < 10 or GAME.to_act(state) is None:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    got = playout(state, random.Random(0))
    while GAME.to_act(state) is not None:
        state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    assert got == state.info.history[-1]
