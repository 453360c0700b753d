"""PettingZoo's and Gymnasium's own API tests, for every registered game."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test.api_test import api_test
from pettingzoo.test.parallel_test import parallel_api_test
from pettingzoo.test.seed_test import parallel_seed_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from cardtable.games import REGISTRY
from cardtable.rl import ILLEGAL_PENALTY, aec_env, gym_env

GAMES = REGISTRY.names()


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test(name: str) -> None:
    api_test(aec_env(name), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test(name: str) -> None:
    seed_test(lambda: aec_env(name), num_cycles=100)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_parallel_api_test(name: str) -> None:
    parallel_api_test(turn_based_aec_to_parallel(aec_env(name)), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_parallel_seed_test(name: str) -> None:
    parallel_seed_test(lambda: turn_based_aec_to_parallel(aec_env(name)), num_cycles=100)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env(name: str) -> None:
    check_env(gym_env(name, opponents="random", render_mode="ansi"))


@pytest.mark.parametrize("name", GAMES)
def test_masked_aec_episode_ends_with_opposite_rewards(name: str) -> None:
    env = aec_env(name)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs is not None
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    assert not env.agents
    assert sorted(set(totals.values())) in ([-1.0, 1.0], [0.0])


@pytest.mark.parametrize("name", GAMES)
def test_gym_illegal_id_is_penalised_and_ends_the_episode(name: str) -> None:
    env = gym_env(name, opponents="random")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (ILLEGAL_PENALTY, True, False)
    assert info["illegal_action"] is True
    assert not info["action_mask"].any()


def test_aec_illegal_id_is_penalised_and_ends_the_game() -> None:
    env = aec_env("casino")
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == ILLEGAL_PENALTY
    assert env.infos[agent]["illegal_action"] is True
