"""Hints and levels: every level plays every searchable game; hints rank legal actions."""

from __future__ import annotations

import random

import pytest

from cardtable.bots import available_bots, make_bot
from cardtable.bots.hints import hint
from cardtable.bots.levels import ISMCTSBot, parse_budget
from cardtable.core.errors import InvalidOptionError
from cardtable.games import get_game
from cardtable.games.royal_casino.endgame import decode, solve
from cardtable.tables import Table
from tests.bots.helpers import SEARCH_GAMES, random_position
from tests.games.royal_casino.test_endgame_solver import before_the_last_deal, endgame


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_levels_are_registered(name: str) -> None:
    game = get_game(name)
    bots = available_bots(game)
    for level in ("easy", "medium", "hard", "expert", "ismcts:…"):
        assert level in bots
    assert isinstance(make_bot("hard", game), ISMCTSBot)
    assert make_bot("ismcts:250ms", game).millis == 250.0  # type: ignore[attr-defined]


def test_bad_budgets() -> None:
    with pytest.raises(InvalidOptionError):
        parse_budget("lots")
    with pytest.raises(InvalidOptionError):
        parse_budget("0")


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_hints_rank_legal_actions(name: str) -> None:
    game = get_game(name)
    state, seat = random_position(game, 77)
    legal = game.legal_actions(state)
    hs = hint(game, game.view(state, seat), legal, 60, random.Random(1))
    assert 1 <= len(hs) <= 3
    assert all(h.action in legal for h in hs)
    assert [h.visits for h in hs] == sorted((h.visits for h in hs), reverse=True)
    for h in hs:
        if h.visits:
            assert 0.0 <= h.win_prob <= 1.0
            assert set(h.to_json()) == {
                "action",
                "win_prob",
                "expected_points",
                "visits",
                "exact",
            }
            assert not h.exact  # a mid-game position: estimated


def test_hints_say_when_a_value_is_exact() -> None:
    game = get_game("royal-casino")
    state = endgame(2, 4, 4)  # a two-player final deal: perfect information
    legal = game.legal_actions(state)
    hs = hint(game, game.view(state, state.turn), legal, 60, random.Random(1))
    assert hs and all(h.exact for h in hs)
    assert all(h.to_json()["exact"] is True for h in hs)
    assert all(h.win_prob in (0.0, 0.5, 1.0) for h in hs)
    assert all(h.expected_points == round(h.expected_points) for h in hs)
    solved = solve(state)
    assert solved is not None
    assert hs[0].expected_points == decode(solved.values[0][1])[0]
    four = endgame(4, 4, 8)  # sampled worlds: solved, yet an estimate
    hs4 = hint(game, game.view(four, four.turn), game.legal_actions(four), 60, random.Random(1))
    assert hs4 and not any(h.exact for h in hs4)


def test_hard_solves_sampled_worlds_before_the_last_two_player_deal() -> None:
    """Two players, the last deal in the stock and 12 cards to play: ``hard`` plays the
    best mean value of up to 16 sampled worlds (PIMC), within its node budget; the hint
    says the values are estimates."""
    game = get_game("royal-casino")
    state = before_the_last_deal(3, 4)
    view, legal = game.view(state, state.turn), game.legal_actions(state)
    bot = make_bot("hard", game)
    assert isinstance(bot, ISMCTSBot)
    result = bot.analyse(view, legal, random.Random(2))
    solved = bot.last_solved
    assert solved is not None and not solved.exact
    assert 0 < solved.nodes <= bot.solver_nodes
    assert 1 <= result.simulations <= 16  # the worlds solved within the nodes
    assert all(s.visits == result.simulations for s in result.stats)
    assert [s.value for s in result.stats] == sorted((s.value for s in result.stats), reverse=True)
    assert {s.action for s in result.stats} == set(legal)
    hs = hint(game, view, legal, 60, random.Random(1))
    assert hs and not any(h.exact for h in hs)


@pytest.mark.parametrize("name", ["royal-casino", "royal-mastheads"])
def test_a_small_search_bot_finishes_a_game_at_a_table(name: str) -> None:
    game = get_game(name)
    n = game.info.default_players
    table = Table(game, n, 3, ["bot:ismcts:8", *["bot:easy"] * (n - 1)], scope="unit")
    table.run_bots()
    assert table.is_over


def _expert_choice_in_child(seed: int) -> str:
    game = get_game("royal-mastheads")
    state = game.new_game(4, seed=seed)
    bot = ISMCTSBot(game, simulations=30, workers=2)
    seat = game.to_act(state)
    action = bot.choose(game.view(state, seat), game.legal_actions(state), random.Random(seed))
    return game.format_action(action)


def test_parallel_search_is_the_same_in_a_pool_and_inside_a_worker() -> None:
    from concurrent.futures import ProcessPoolExecutor

    here = [_expert_choice_in_child(s) for s in (1, 2)]
    with ProcessPoolExecutor(1) as pool:
        there = list(pool.map(_expert_choice_in_child, (1, 2)))
    assert here == there


def test_expert_searches_a_fixed_number_of_trees_on_any_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The expert's trees never follow the core count: on a 1-core and a 16-core machine
    it searches EXPERT_TREES trees, and a move is the same on both."""
    from cardtable.bots import levels

    choices = []
    for cores in (1, 16):
        monkeypatch.setattr("os.cpu_count", lambda cores=cores: cores)
        expert = make_bot("expert", get_game("royal-mastheads"))
        assert isinstance(expert, ISMCTSBot)
        assert expert.workers == levels.EXPERT_TREES == 2
        choices.append(_expert_choice_in_child(7))
    assert choices[0] == choices[1]
