"""Royal Casino's search profiles: ``hard``'s as it was, ``expert``'s with a wider margin
scale and its own simulation budget."""

from __future__ import annotations

import math
import random

from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.bots.levels import EXPERT_FACTOR, expert_simulations, hard_simulations
from cardtable.games.royal_casino import GAME
from cardtable.games.royal_casino import search as kit


def test_hard_profile_is_unchanged() -> None:
    profile = GAME.search_profile()
    assert (profile.scale, profile.final_margin, profile.hard_simulations) == (3.0, 1.0, 600)
    assert profile.solver is kit.SOLVER


def test_expert_profile_differs_only_in_its_scale() -> None:
    hard = GAME.search_profile()
    expert = hard.expert
    assert expert is not None and expert.expert is None
    assert expert.scale == kit.EXPERT_SCALE != hard.scale
    for name in ("points", "apply", "legal", "to_act", "rollout", "playout", "final_margin"):
        assert getattr(expert, name) == getattr(hard, name), name
    assert (expert.hard_simulations, expert.solver) == (hard.hard_simulations, hard.solver)


def test_expert_searches_more_than_the_other_games_expert() -> None:
    assert expert_simulations(GAME) == kit.EXPERT_SIMULATIONS
    assert expert_simulations(GAME) == 2 * EXPERT_FACTOR * hard_simulations(GAME)


def _one_simulation(adapter: SearchAdapter, seed: int) -> tuple[float, float]:
    """The reward and the point margin of one simulation from a one-hand game's first
    decision (the game ends inside the simulation)."""
    state = GAME.new_game(2, seed=seed, scope="unit")
    seat = GAME.to_act(state)
    assert seat is not None
    view = GAME.view(state, seat)
    legal = GAME.legal_actions(state)
    result = search(adapter, view, legal[:1], random.Random(seed), 1)
    (stats,) = result.stats
    return stats.value, stats.points


def test_expert_rewards_the_margin_on_its_own_scale() -> None:
    hard = GAME.search_profile()
    assert hard.expert is not None
    differs = 0
    for seed in range(8):
        value, margin = _one_simulation(SearchAdapter(GAME, hard.expert), seed)
        assert math.isclose(value, 0.5 + 0.5 * math.tanh(margin / kit.EXPERT_SCALE))
        hard_value, hard_margin = _one_simulation(SearchAdapter(GAME, hard), seed)
        assert hard_margin == margin  # the same simulation, rewarded differently
        assert math.isclose(hard_value, 0.5 + 0.5 * math.tanh(margin / kit.SCALE))
        differs += not math.isclose(hard_value, value)
    assert differs
