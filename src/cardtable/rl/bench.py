"""Environment steps per second: ``cardtable bench GAME --env``.

One step is one ``env.step`` of the PettingZoo AEC environment with an id drawn uniformly
from the mask, in the loop PettingZoo's own tests and most learners run (``env.last()``,
then ``env.step``); episodes are one unit each from a new seed, resets included.  The id
is drawn as cheaply as possible (the mask's ``nonzero()``, then Python's
``random.randrange``), so that the figure is the environment's cost, not the drawing's;
``scripts/compare_envs.py`` draws PettingZoo's ``gin_rummy_v4`` ids the same way.  The
Gymnasium environment (the other seats played by the ``random`` bot) is measured the same
way.  Time is the process's CPU time, so a busy machine slows the figures less.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardtable.core.options import Options
from cardtable.rl.aec import aec_env
from cardtable.rl.common import GameLike, game_of
from cardtable.rl.single import gym_env

__all__ = ["EnvBenchResult", "run_env_bench"]


@dataclass(frozen=True, slots=True)
class EnvBenchResult:
    """What an environment bench run measured."""

    game: str
    players: int
    aec_steps: int
    aec_episodes: int
    aec_seconds: float
    gym_steps: int
    gym_episodes: int
    gym_seconds: float

    @property
    def aec_steps_per_s(self) -> float:
        """AEC environment steps per CPU second."""
        return self.aec_steps / self.aec_seconds if self.aec_seconds > 0 else 0.0

    @property
    def gym_steps_per_s(self) -> float:
        """Gymnasium environment steps (the learner's) per CPU second."""
        return self.gym_steps / self.gym_seconds if self.gym_seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``bench --env --json`` prints."""
        return {
            "game": self.game,
            "players": self.players,
            "aec_steps_per_s": round(self.aec_steps_per_s, 1),
            "aec_steps": self.aec_steps,
            "aec_episodes": self.aec_episodes,
            "gym_steps_per_s": round(self.gym_steps_per_s, 1),
            "gym_steps": self.gym_steps,
            "gym_episodes": self.gym_episodes,
        }


def run_env_bench(
    game: GameLike,
    players: int,
    seconds: float,
    options: Options | None = None,
    seed: int = 0,
    on_progress: Callable[[float], None] | None = None,
) -> EnvBenchResult:
    """Step both environments with random masked ids for about ``seconds`` in all (half
    each) and count the steps."""
    g = game_of(game)
    rng = random.Random(seed)
    half = seconds / 2
    aec = aec_env(g, players, options)
    steps = episodes = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < half:
        aec.reset(seed=seed + episodes)
        episodes += 1
        for _agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            assert obs is not None
            legal = obs["action_mask"].nonzero()[0]
            aec.step(int(legal[rng.randrange(legal.size)]))
            steps += 1
        elapsed = time.process_time() - start
        if on_progress is not None:
            on_progress(elapsed)
    aec_result = (steps, episodes, elapsed)
    single = gym_env(g, opponents="random", players=players, options=options)
    steps = episodes = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < half:
        _, info = single.reset(seed=seed + episodes)
        episodes += 1
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            action = int(legal[rng.randrange(legal.size)])
            _, _, done, _, info = single.step(action)
            steps += 1
        elapsed = time.process_time() - start
        if on_progress is not None:
            on_progress(half + elapsed)
    return EnvBenchResult(g.info.name, players, *aec_result, steps, episodes, elapsed)
