"""Royal Mastheads' search profiles: ``hard``'s as it was, ``expert``'s for the point margin."""

from __future__ import annotations

import dataclasses
import math
import random

from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.bots.levels import EXPERT_FACTOR, expert_simulations, hard_simulations
from cardtable.games.royal_mastheads import GAME
from cardtable.games.royal_mastheads import search as kit


def test_hard_profile_is_unchanged() -> None:
    profile = GAME.search_profile()
    assert (profile.scale, profile.final_margin, profile.hard_simulations) == (60.0, 0.5, 12_000)
    assert profile.solver is None


def test_expert_profile_differs_only_in_its_reward() -> None:
    hard = GAME.search_profile()
    expert = hard.expert
    assert expert is not None and expert.expert is None
    assert (expert.scale, expert.final_margin) == (kit.EXPERT_SCALE, kit.EXPERT_FINAL_MARGIN)
    assert (expert.scale, expert.final_margin) != (hard.scale, hard.final_margin)
    assert expert.tail == kit.EXPERT_TAIL and hard.tail is None
    for name in ("points", "apply", "legal", "to_act", "rollout", "playout"):
        assert getattr(expert, name) == getattr(hard, name), name
    assert (expert.hard_simulations, expert.solver) == (hard.hard_simulations, hard.solver)


def test_expert_searches_four_times_hards_simulations() -> None:
    assert expert_simulations(GAME) == kit.EXPERT_SIMULATIONS == 48_000
    assert expert_simulations(GAME) == EXPERT_FACTOR * hard_simulations(GAME)


def _one_simulation(adapter: SearchAdapter, seed: int) -> tuple[float, float]:
    """The reward and the point margin of one simulation from the first decision of a
    one-deal game (the game ends inside the simulation)."""
    state = GAME.new_game(4, seed=seed, scope="unit")
    seat = GAME.to_act(state)
    assert seat is not None
    view = GAME.view(state, seat)
    result = search(adapter, view, GAME.legal_actions(state), random.Random(seed), 1)
    (stats,) = result.stats
    return stats.value, stats.points


def _expert_reward(margin: float) -> float:
    share, wide = kit.EXPERT_TAIL
    mix = (1 - share) * math.tanh(margin / kit.EXPERT_SCALE) + share * math.tanh(margin / wide)
    return 0.5 + 0.5 * mix


def test_expert_rewards_the_point_margin_alone_when_the_deal_ends_the_game() -> None:
    hard = GAME.search_profile()
    assert hard.expert is not None
    # expert deals its worlds by its own sampler (the play model): with hard's sampler
    # the two search the same simulation and only the reward differs
    expert = SearchAdapter(GAME, dataclasses.replace(hard.expert, sampler=None))
    own = SearchAdapter(GAME, hard.expert)
    differs = 0
    for seed in range(8):
        value, margin = _one_simulation(expert, seed)
        assert math.isclose(value, _expert_reward(margin))
        own_value, own_margin = _one_simulation(own, seed)
        assert math.isclose(own_value, _expert_reward(own_margin))
        hard_value, hard_margin = _one_simulation(SearchAdapter(GAME, hard), seed)
        assert hard_margin == margin  # the same simulation, rewarded differently
        differs += not math.isclose(hard_value, value)
    assert differs
