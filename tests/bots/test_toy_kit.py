"""A game is one folder: the toy game of the CLI tests ("Take", ``tests/cli/toy.py``)
plays at every bot level with nothing registered for it outside its own module."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots import available_bots, make_bot
from cardtable.bots.levels import GreedyLevelBot, ISMCTSBot, hard_simulations, wall_clock_cap
from cardtable.core.kit import DEFAULT_HARD_SIMULATIONS
from tests.cli.toy import GAME as TOY
from tests.cli.toy import TakeGreedy, TakeState

LEVELS = ["random", "greedy", "easy", "medium", "hard", "expert", "ismcts:40"]


def _mid_game(seed: int, players: int) -> TakeState:
    rng = random.Random(seed)
    state = TOY.new_game(players, {"pile": 9}, seed=seed)
    for _ in range(rng.randrange(0, 8)):
        legal = TOY.legal_actions(state)
        nxt, _ = TOY.apply(state, legal[rng.randrange(len(legal))])
        if TOY.to_act(nxt) is None:
            break
        state = nxt
    return state


def test_every_level_is_available_for_the_toy() -> None:
    bots = available_bots(TOY)
    for level in ("random", "greedy", "easy", "medium", "hard", "expert", "ismcts:…"):
        assert level in bots
    assert isinstance(make_bot("greedy", TOY), TakeGreedy)
    assert not GreedyLevelBot(TOY, "medium", 0.0).fallback
    # no kit search profile of its own: the contract's generic one, with its default budget
    assert hard_simulations(TOY) == DEFAULT_HARD_SIMULATIONS
    hard = make_bot("hard", TOY)
    assert isinstance(hard, ISMCTSBot) and hard.simulations == DEFAULT_HARD_SIMULATIONS


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), det_seed=st.integers(0, 10**6), players=st.integers(2, 3))
def test_toy_resample_gives_the_same_view_back(seed: int, det_seed: int, players: int) -> None:
    state = _mid_game(seed, players)
    for seat in (*range(players), None):
        view = TOY.view(state, seat)
        d = TOY.resample_from_view(view, random.Random(det_seed))
        assert TOY.view(d, seat) == view
        assert TOY.legal_actions(d) == TOY.legal_actions(state)
        # the prepared sampler deals the same states for the same generator
        assert TOY.view_sampler(view)(random.Random(det_seed)) == d


@pytest.mark.parametrize("level", LEVELS)
def test_the_toy_plays_a_whole_game_at_every_level(level: str) -> None:
    """The level sits in seat 0 against ``random``; every move is legal, the game ends."""
    state = TOY.new_game(2, {"rounds": 2, "pile": 6}, seed=5)
    bots = [make_bot(level, TOY), make_bot("random", TOY)]
    rng = random.Random(3)
    moves = 0
    while (seat := TOY.to_act(state)) is not None:
        legal = TOY.legal_actions(state)
        action = bots[seat].choose(TOY.view(state, seat), legal, rng)
        assert action in legal
        state, _ = TOY.apply(state, action)
        moves += 1
    assert TOY.outcome(state) is not None and moves >= 4


@pytest.mark.parametrize("level", ["greedy", "medium", "hard"])
def test_the_toy_levels_take_the_winning_move(level: str) -> None:
    """With 5 counters left, taking 1 leaves a multiple of four: the greedy policy and the
    search both find it (the search from the generic profile: the last counter wins)."""
    state = TOY.new_game(2, {"rounds": 1, "pile": 5}, seed=1)
    view = TOY.view(state, 0)
    with wall_clock_cap(False):  # the search's full budget, however loaded the machine
        choice = make_bot(level, TOY).choose(view, TOY.legal_actions(state), random.Random(0))
    assert choice == 1
