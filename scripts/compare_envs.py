"""Our environments' steps/s against PettingZoo's own ``gin_rummy_v4``, in the same run.

PettingZoo 1.27 no longer ships ``gin_rummy_v4`` (1.26 did, on top of ``rlcard``), and it
cannot share a virtual environment with ours, so this script makes a throwaway one for it
on demand (``.venv-compare/`` at the repository root, or ``--venv``): ``pip install
'pettingzoo[classic]==1.26.*'``.  Then it alternates, ``--rounds`` times: ``gin_rummy_v4``
in that environment (a child process), then ``cardtable bench GAME --env`` for each of our
games here.

Both sides run the same loop, PettingZoo's own AEC loop as its tests and most learners
run it, on the environment as its maker hands it out (``gin_rummy_v4.env()`` with
PettingZoo's standard wrappers; ``cardtable.rl.aec_env(GAME)``): for each agent from
``env.agent_iter()``, ``env.last()`` — which observes the agent, its observation and
action mask built anew every step — then ``env.step`` with an id drawn uniformly from the
mask the same way (the mask's ``nonzero()``, Python's ``random.randrange``), or
``None`` for a finished agent; episodes one after another from new seeds, resets
included; timed in CPU seconds of its own process, so a machine busy with other work
slows both alike.  A step is one id on both sides: one ``gin_rummy_v4`` action, one of
our ids (a Rummy draw or discard, one part of a meld; see docs/rl.md).

It prints JSON: per round and game the steps/s of both and their ratio, and the median
ratio per game (the issue asks for at least 10).  For scale it also times the game
contract alone (``contract_ids_per_s``: ``to_act``, ``view``, ``legal_actions``, ``apply``,
the calls any environment must make, with no environment around them): the environment
can approach that figure but not pass it.  Run it from the repository root::

    python scripts/compare_envs.py --seconds 4 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Any

from cardtable.games import REGISTRY
from cardtable.rl.bench import run_env_bench

ROOT = Path(__file__).resolve().parent.parent
PETTINGZOO = "pettingzoo[classic]==1.26.*"
GAMES = (("royal-casino", 2), ("rummy", 2), ("royal-mastheads", 4))

GIN_LOOP = """
import json, random, sys, time
import numpy as np
from pettingzoo.classic import gin_rummy_v4
seconds = float(sys.argv[1])
env = gin_rummy_v4.env()
rng = random.Random(0)
steps = episodes = 0
start = time.process_time()
while time.process_time() - start < seconds:
    env.reset(seed=episodes)
    episodes += 1
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(legal.size)]))
        steps += 1
elapsed = time.process_time() - start
print(json.dumps({"steps": steps, "episodes": episodes, "seconds": elapsed,
                  "steps_per_s": steps / elapsed}))
"""


def compare_python(path: Path) -> Path:
    """The Python of the throwaway environment, made (and PettingZoo 1.26 installed) when
    it is missing."""
    python = path / "bin" / "python"
    if not python.exists():
        print(f"creating {path} with {PETTINGZOO} …", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(path)
    check = subprocess.run(
        [str(python), "-c", "from pettingzoo.classic import gin_rummy_v4"],
        capture_output=True,
    )
    if check.returncode != 0:
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", PETTINGZOO],
            check=True,
        )
    return python


def gin_rummy(python: Path, seconds: float) -> dict[str, Any]:
    """One timed run of ``gin_rummy_v4`` in the throwaway environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    out = subprocess.run(
        [str(python), "-c", GIN_LOOP, str(seconds)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd="/",
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def contract_floor(name: str, players: int, seconds: float, seed: int = 0) -> float:
    """Ids per CPU second of the calls any environment of the game must make, with no
    environment around them: ``to_act``, the acting seat's ``view``, ``legal_actions``, a
    random move and ``apply`` (a move counting as its number of ids).  The environment's
    figure cannot exceed it."""
    game = REGISTRY.get(name)
    enc = game.encoding()
    assert enc is not None
    rng = random.Random(seed)
    ids = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_game(players, seed=seed + episodes, scope="unit")
        episodes += 1
        while (seat := game.to_act(state)) is not None:
            view = game.view(state, seat)
            legal = game.legal_actions(state)
            move = legal[rng.randrange(len(legal))]
            ids += len(enc.action_ids(view, move))
            state, _ = game.apply(state, move)
    return ids / (time.process_time() - start)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Measure, print and return the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv-compare")
    args = parser.parse_args(argv)
    python = compare_python(args.venv)
    load_at_start = list(os.getloadavg())
    rounds: list[dict[str, Any]] = []
    for r in range(args.rounds):
        gin = gin_rummy(python, args.seconds)
        row: dict[str, Any] = {"gin_rummy_v4_steps_per_s": round(gin["steps_per_s"], 1)}
        for name, players in GAMES:
            ours = run_env_bench(name, players, 2 * args.seconds, seed=r)
            floor = contract_floor(name, players, args.seconds / 2, seed=r)
            row[name] = {
                "aec_steps_per_s": round(ours.aec_steps_per_s, 1),
                "gym_steps_per_s": round(ours.gym_steps_per_s, 1),
                "ratio_aec": round(ours.aec_steps_per_s / gin["steps_per_s"], 2),
                "contract_ids_per_s": round(floor, 1),
                "ratio_contract": round(floor / gin["steps_per_s"], 2),
            }
        rounds.append(row)
        print(json.dumps({"round": r, **row}), file=sys.stderr)
    report: dict[str, Any] = {
        "seconds": args.seconds,
        "rounds": rounds,
        "median_gin_rummy_v4_steps_per_s": statistics.median(
            row["gin_rummy_v4_steps_per_s"] for row in rounds
        ),
        "median_ratio_aec": {
            name: statistics.median(row[name]["ratio_aec"] for row in rounds) for name, _ in GAMES
        },
        "load_average_start": load_at_start,
        "load_average": list(os.getloadavg()),
    }
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
