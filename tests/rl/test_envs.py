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


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("royal-casino", 3, {}),
        ("royal-casino", 4, {"partnerBuildInteraction": "FORBIDDEN"}),
        ("rummy", 3, {"jokers": True, "jokerSwap": True, "discardPickup": "anyWithAbove"}),
    ],
)
def test_pettingzoo_api_test_other_tables(
    name: str, players: int, options: dict[str, object]
) -> None:
    api_test(aec_env(name, players=players, options=options), num_cycles=200)


def test_gym_opponents_one_per_seat_and_same_seed_same_game() -> None:
    def play(seed: int) -> list[float]:
        env = gym_env("casino", seat=1, opponents=["greedy", "random"], players=3)
        obs, info = env.reset(seed=seed)
        trace = [float(obs.sum())]
        done = False
        while not done:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            trace += [float(obs.sum()), reward]
        return trace

    first = play(11)
    assert first == play(11)
    assert first != play(12)
    assert first[-1] in (-1.0, 0.0, 1.0)


def test_gym_rejects_a_wrong_opponent_list() -> None:
    with pytest.raises(ValueError, match="2 opponent names"):
        gym_env("casino", players=3, opponents=["random"])


def test_match_scope_plays_several_units() -> None:
    env = gym_env("mastheads", opponents="random", options={"deals": 2}, scope="match")
    _, info = env.reset(seed=4)
    done, steps = False, 0
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
    assert steps == 2 * 13  # per deal the learner puts two cards in the pot, plays 11 tricks


def test_unknown_game_and_render_mode_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        aec_env("casino", render_mode="rgb_array")
    env = aec_env("rummy", render_mode="ansi")
    text = env.render()
    assert isinstance(text, str) and "Rummy" in text


@pytest.mark.parametrize("name", GAMES)
def test_infostate_option_passes_the_api_tests_and_fills_every_info(name: str) -> None:
    api_test(aec_env(name, infostate=True), num_cycles=100)
    env = aec_env(name, infostate=True)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        infostate = info["infostate"]
        assert infostate.shape == (env.infostate_size,) and infostate.dtype == np.float32
        # the information state starts with the current observation
        assert obs is not None
        assert np.array_equal(infostate[: obs["observation"].size], obs["observation"])
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    single = gym_env(name, opponents="random", infostate=True)
    check_env(single)
    obs, info = single.reset(seed=1)
    assert np.array_equal(info["infostate"][: obs.size], obs)
    assert "infostate" not in gym_env(name, opponents="random").reset(seed=1)[1]
