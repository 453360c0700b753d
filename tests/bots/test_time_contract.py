"""The levels' time contract is kept by budgets that bind: simulations, solver nodes and
a wall-clock safety cap (counted as work done here; a test never asserts a timing)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

from cardtable.bots import make_bot
from cardtable.bots.levels import (
    EXPERT_FACTOR,
    EXPERT_SECONDS,
    HARD_SECONDS,
    ISMCTSBot,
    expert_simulations,
    hard_nodes,
    hard_simulations,
    wall_clock_cap,
    wall_clock_cap_on,
)
from cardtable.bots.pimc import solve_view
from cardtable.games import get_game
from tests.bots.helpers import SEARCH_GAMES, random_position, random_view
from tests.games.royal_casino.test_endgame_solver import endgame


def fake_clock(step: float) -> Callable[[], float]:
    """A clock that moves ``step`` seconds each time it is read."""
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_a_kit_without_an_expert_budget_gets_the_factor_times_hards(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get_game(name)
    own = expert_simulations(game)
    # A hard budget of own + 1 makes the fallback differ from the kit's own expert
    # budget even where that budget happens to be the factor times hard's.
    plain = dataclasses.replace(
        game.search_profile(), expert_simulations=0, hard_simulations=own + 1
    )
    monkeypatch.setattr(game, "search_profile", lambda: plain)
    assert expert_simulations(game) == EXPERT_FACTOR * (own + 1) != own


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_levels_state_their_budgets(name: str) -> None:
    game = get_game(name)
    hard, expert = make_bot("hard", game), make_bot("expert", game)
    assert isinstance(hard, ISMCTSBot) and isinstance(expert, ISMCTSBot)
    assert hard.cap_seconds == HARD_SECONDS and expert.cap_seconds == EXPERT_SECONDS
    assert hard.simulations == hard_simulations(game)
    assert expert.simulations == expert_simulations(game)
    assert expert.simulations >= EXPERT_FACTOR * hard_simulations(game)
    assert hard.solver_nodes == hard_nodes(game)
    assert expert.solver_nodes == EXPERT_FACTOR * hard_nodes(game)


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_the_simulation_budget_binds(name: str) -> None:
    game = get_game(name)
    state, seat = random_position(game, 5)
    bot = ISMCTSBot(game, simulations=40, cap_seconds=HARD_SECONDS)
    with wall_clock_cap(False):  # on a loaded machine the cap may bind first
        result = bot.analyse(game.view(state, seat), game.legal_actions(state), random.Random(1))
    assert result.simulations == 40
    assert sum(s.visits for s in result.stats) == 40


def test_the_wall_clock_cap_binds_in_live_play_and_not_in_the_arena() -> None:
    game = get_game("royal-casino")
    view, legal = random_view(game, 3, players=2)
    bot = ISMCTSBot(game, simulations=2000, cap_seconds=0.5, clock=fake_clock(0.1))
    assert wall_clock_cap_on()
    capped = bot.analyse(view, legal, random.Random(1))
    assert 1 <= capped.simulations < 200  # four clock reads of 0.1 s, 16 simulations apart
    with wall_clock_cap(False):
        assert bot.analyse(view, legal, random.Random(1)).simulations == 2000


def test_the_solver_node_budget_binds() -> None:
    game = get_game("royal-casino")
    state = endgame(2, 11, 8)
    view, legal = game.view(state, state.turn), game.legal_actions(state)
    bot = ISMCTSBot(game, simulations=60, solver_nodes=hard_nodes(game))
    with wall_clock_cap(False):
        result = bot.analyse(view, legal, random.Random(2))
    assert bot.last_solved is not None and bot.last_solved.exact
    assert 0 < bot.last_solved.nodes <= hard_nodes(game)
    assert result.stats[0].action in legal
    # Out of nodes: the search gets all its simulations.
    starved = ISMCTSBot(game, simulations=60, solver_nodes=5)
    with wall_clock_cap(False):
        result = starved.analyse(view, legal, random.Random(2))
    assert starved.last_solved is None
    assert result.simulations == 60


@pytest.mark.parametrize("workers", [1, 2])
def test_a_move_the_solver_does_not_cover_gets_the_whole_search(workers: int) -> None:
    # Until commit 1456244 such a move (every move before the end of a Royal Casino hand)
    # was searched with half the level's simulations, as if a solve had run out.
    game = get_game("royal-casino")
    state = game.new_game(2, seed=3, scope="unit")
    seat = game.to_act(state)
    assert seat is not None
    view, legal = game.view(state, seat), game.legal_actions(state)
    bot = ISMCTSBot(game, simulations=40, workers=workers, solver_nodes=hard_nodes(game))
    with wall_clock_cap(False):
        result = bot.analyse(view, legal, random.Random(4))
    assert bot.last_solved is None
    assert result.simulations == 40
    assert sum(s.visits for s in result.stats) == 40


def test_pimc_solves_sampled_worlds_within_its_nodes() -> None:
    game = get_game("royal-casino")
    state = endgame(4, 7, 8)
    view, legal = game.view(state, state.turn), game.legal_actions(state)
    solved = solve_view(game, view, legal, random.Random(3), 10**6, worlds=5)
    assert solved is not None and not solved.exact
    assert solved.result.simulations == 5
    assert {s.action for s in solved.result.stats} == set(legal)
    assert all(s.visits == 5 for s in solved.result.stats)
    small = solve_view(game, view, legal, random.Random(3), solved.nodes // 2, worlds=5)
    assert small is not None and small.nodes <= solved.nodes // 2 + 1
    assert small.result.simulations < 5
    assert solve_view(game, view, legal, random.Random(3), 0) is None


def test_an_exact_solve_breaks_ties_by_searching_the_best_moves_alone() -> None:
    game = get_game("royal-casino")
    state = endgame(2, 9, 6)  # two best moves of equal value, two worse ones
    view, legal = game.view(state, state.turn), game.legal_actions(state)
    bot = ISMCTSBot(game, simulations=50, solver_nodes=hard_nodes(game))
    with wall_clock_cap(False):
        result = bot.analyse(view, legal, random.Random(4))
    assert bot.last_solved is not None and bot.last_solved.exact
    values = [s.value for s in result.stats]
    assert values[0] == values[1] > values[2] == values[3]
    solved = {s.action for s in bot.last_solved.result.stats[:2]}
    assert {s.action for s in result.stats[:2]} == solved
    assert bot.choose(view, legal, random.Random(4)) in solved
