#!/usr/bin/env python3
"""cardtable's engines against OpenSpiel's C++ ones, measured side by side in one run.

    pip install -e '.[compare]'            # OpenSpiel (pyspiel) for the other side
    python scripts/compare_engines.py      # about two minutes
    python scripts/compare_engines.py --anchor /path/to/main/.venv/bin/python

Rounds are interleaved (each round runs every measurement once, for ``--seconds``), so a
machine whose load changes during the run slows both sides alike; the figure reported for
each measurement is its median over the rounds.  Measured:

- cardtable: ``cardtable bench``'s random playouts (:func:`run_bench`, in this process) of
  Royal Casino (2 players), Rummy (2) and Royal Mastheads (4), and the ISMCTS search
  (``ismcts:N``, :func:`run_bot_bench`) on Royal Mastheads' fixed mid-game positions;
- OpenSpiel: random games of ``gin_rummy`` and ``hearts`` played entirely in C++ by
  ``pyspiel.evaluate_bots`` with C++ uniform random bots (chance outcomes sampled in C++
  too), and the C++ ``ISMCTSBot`` with a random-rollout evaluator (N simulations a move)
  on hearts positions halfway through a random deal.  OpenSpiel's bots are built once per
  round, before the clock starts, and each game's ``new_initial_state`` is made outside
  the timing: only ``pyspiel.evaluate_bots`` (one whole game) and ``ISMCTSBot.step`` (one
  search) are timed, as cardtable's side times only its playouts and searches.
  OpenSpiel's actions/s is its games/s times the mean length of a random game (counted
  once, untimed), with chance outcomes counted as actions as OpenSpiel counts them (the
  stricter comparison: Royal Casino's count has only the players' actions).
- with ``--anchor PYTHON``: the same ``cardtable bench`` run by another installation (the
  interpreter of a virtualenv of the code to compare against, e.g. main), in a child
  process in each round, for the speed-up of the contract's ``legal_actions``, ``apply``
  and ``view`` calls and of the playouts.

Prints a table and, last, one JSON object of ratios (the targets of docs/performance.md).
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
from collections.abc import Callable
from functools import partial
from typing import Any

from cardtable.cli.bench import run_bench, run_bot_bench
from cardtable.games import get_game

_BENCH = ("-m", "cardtable.cli.main", "bench")
GAMES = (("royal-casino", 2), ("rummy", 2), ("royal-mastheads", 4))
"""The games benchmarked, with their number of players."""
CONTRACT_CALLS = ("legal_actions_us", "apply_us", "view_us")
"""The contract's calls timed by ``cardtable bench`` (median µs per call)."""
CONTRACT_TARGET = 1.0
"""The contract's calls are to be no slower than the anchor's (a speed-up of at least 1)."""


def _pyspiel() -> Any:
    """OpenSpiel's Python module (the ``compare`` extra)."""
    try:
        import pyspiel
    except ImportError:
        sys.exit("compare_engines: OpenSpiel is missing; install it: pip install -e '.[compare]'")
    return pyspiel


def _compiled() -> str:
    """Whether this process runs cardtable's compiled modules or the pure ones."""
    from cardtable import compiled_modules

    n = len(compiled_modules())
    return f"compiled ({n} modules)" if n else "pure Python"


# -- OpenSpiel ----------------------------------------------------------------------------------
def _random_games(pyspiel: Any, name: str, seconds: float, seed: int) -> dict[str, float]:
    """Random games of an OpenSpiel game played in C++ for about ``seconds``: games/s
    (``seed`` is the round number: each round plays other games).

    The C++ uniform random bots are built once, before the clock starts, and each game's
    ``new_initial_state`` is made outside the timing: only ``pyspiel.evaluate_bots`` (the
    whole game, chance outcomes included, played in C++) is timed."""
    seed *= 1_000_003
    game = pyspiel.load_game(name)
    players = game.num_players()
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]
    games = 0
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_initial_state()
        t0 = time.perf_counter()
        pyspiel.evaluate_bots(state, bots, seed + games)
        elapsed += time.perf_counter() - t0
        games += 1
    return {"games_per_s": games / elapsed}


def _mean_length(pyspiel: Any, name: str, games: int) -> tuple[float, float]:
    """The mean numbers of actions of random games (untimed): every action (chance
    outcomes, i.e. dealt and drawn cards, included) and the players' actions only."""
    game = pyspiel.load_game(name)
    rng = random.Random(1)
    total = chance = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            total += 1
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return total / games, (total - chance) / games


def _hearts_positions(pyspiel: Any, count: int) -> list[Any]:
    """Hearts states halfway through the tricks of random deals, a player to act."""
    game = pyspiel.load_game("hearts")
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        state = game.new_initial_state()
        line = []
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                line.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
        for s in line[len(line) // 2 :]:
            if len(s.legal_actions()) > 1:
                out.append(s)
                break
    return out


def _ismcts(
    pyspiel: Any, positions: list[Any], simulations: int, seconds: float, seed: int
) -> dict[str, float]:
    """OpenSpiel's C++ ISMCTS (random rollouts) on hearts positions: simulations/s
    (``seed`` is the round number).  The evaluator and the bot are built once, untimed;
    only ``bot.step`` (one search from a fresh tree) is timed."""
    seed *= 1000
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.ISMCTSBot(seed, evaluator, 2.0, simulations)
    sims = 0
    elapsed = 0.0
    i = 0
    while elapsed < seconds or not sims:
        state = positions[i % len(positions)]
        t0 = time.perf_counter()
        bot.step(state)
        elapsed += time.perf_counter() - t0
        sims += simulations
        i += 1
    return {"simulations_per_s": sims / elapsed}


# -- cardtable ----------------------------------------------------------------------------------
def _cardtable(name: str, players: int, seconds: float, seed: int) -> dict[str, float]:
    """``cardtable bench`` in this process: units/s, actions/s and the per-call medians."""
    r = run_bench(get_game(name), players, seconds, seed=seed)
    return {
        "units_per_s": r.units_per_s,
        "actions_per_s": r.actions_per_s,
        "legal_actions_us": r.legal_actions_us,
        "apply_us": r.apply_us,
        "view_us": r.view_us,
    }


def _cardtable_search(simulations: int, seconds: float) -> dict[str, float]:
    """``cardtable bench royal-mastheads --bot ismcts:N``: simulations/s."""
    r = run_bot_bench(get_game("royal-mastheads"), 4, f"ismcts:{simulations}", seconds)
    return {"simulations_per_s": r.simulations / r.seconds if r.seconds else 0.0}


def _cardtable_round(name: str, players: int, seconds: float, round_: int) -> dict[str, float]:
    return _cardtable(name, players, seconds, round_ * 7919)


def _search_round(simulations: int, seconds: float, round_: int) -> dict[str, float]:
    return _cardtable_search(simulations, seconds)


def _anchor_round(
    python: str, name: str, players: int, seconds: float, round_: int
) -> dict[str, float]:
    return _anchor(python, name, players, seconds)


def _anchor(python: str, name: str, players: int, seconds: float) -> dict[str, float]:
    """``cardtable bench --json`` run by another installation's interpreter."""
    out = subprocess.run(
        [python, *_BENCH, name, "-n", str(players), "-t", str(seconds), "--json"],
        check=True,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "CARDTABLE_PURE"},
    ).stdout
    data = json.loads(out)
    return {k: float(v) for k, v in data.items() if isinstance(v, int | float)}


# -- the run ------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    """Run the comparison; print the table and the JSON object of ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement and round")
    parser.add_argument(
        "--simulations", type=int, default=1000, help="ISMCTS simulations per move (both sides)"
    )
    parser.add_argument(
        "--anchor", metavar="PYTHON", help="another installation's python, for the speed-ups"
    )
    args = parser.parse_args(argv)
    pyspiel = _pyspiel()
    lengths = {name: _mean_length(pyspiel, name, 200) for name in ("gin_rummy", "hearts")}
    positions = _hearts_positions(pyspiel, 16)
    runs: dict[str, list[dict[str, float]]] = {}
    seconds, sims = args.seconds, args.simulations
    jobs: list[tuple[str, Callable[[int], dict[str, float]]]] = []
    for name, players in GAMES:
        jobs.append((name, partial(_cardtable_round, name, players, seconds)))
        if args.anchor:
            jobs.append(
                (f"anchor {name}", partial(_anchor_round, args.anchor, name, players, seconds))
            )
    jobs.append(("royal-mastheads ismcts", partial(_search_round, sims, seconds)))
    for os_name in ("gin_rummy", "hearts"):
        jobs.append((f"openspiel {os_name}", partial(_random_games, pyspiel, os_name, seconds)))
    jobs.append(("openspiel hearts ismcts", partial(_ismcts, pyspiel, positions, sims, seconds)))
    load_before = os.getloadavg()
    for r in range(args.rounds):
        for label, job in jobs:
            runs.setdefault(label, []).append(job(r))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    load_after = os.getloadavg()
    med = {
        label: {k: statistics.median(x[k] for x in rows) for k in rows[0]}
        for label, rows in runs.items()
    }
    for os_name in ("gin_rummy", "hearts"):
        m = med[f"openspiel {os_name}"]
        m["actions_per_s"] = m["games_per_s"] * lengths[os_name][0]
        m["player_actions_per_s"] = m["games_per_s"] * lengths[os_name][1]
    ratios = _ratios(med, bool(args.anchor))
    _print_table(med, ratios, lengths, args)
    print(
        f"cardtable: {_compiled()}; load average (1 min) {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after; {os.cpu_count()} cores",
        file=sys.stderr,
    )
    ratios["load_average"] = [round(load_before[0], 2), round(load_after[0], 2)]
    ratios["cardtable"] = _compiled()
    print(json.dumps(ratios))
    return 0


def _ratios(med: dict[str, dict[str, float]], anchored: bool) -> dict[str, Any]:
    """The ratios the targets are stated in (cardtable over OpenSpiel, new over anchor)."""
    gin = med["openspiel gin_rummy"]
    hearts = med["openspiel hearts"]
    out: dict[str, Any] = {
        "royal_casino_actions_vs_gin_rummy_actions": med["royal-casino"]["actions_per_s"]
        / gin["actions_per_s"],
        "rummy_rounds_vs_gin_rummy_games": med["rummy"]["units_per_s"] / gin["games_per_s"],
        "mastheads_deals_vs_hearts_games": med["royal-mastheads"]["units_per_s"]
        / hearts["games_per_s"],
        "mastheads_ismcts_vs_hearts_ismcts": med["royal-mastheads ismcts"]["simulations_per_s"]
        / med["openspiel hearts ismcts"]["simulations_per_s"],
    }
    if anchored:
        for name, _players in GAMES:
            new, old = med[name], med[f"anchor {name}"]
            out[f"{name}_speedup"] = {
                "units_per_s": new["units_per_s"] / old["units_per_s"],
                **{k: old[k] / new[k] for k in CONTRACT_CALLS},
            }
        out["contract_speedup_lowest"] = min(
            out[f"{name}_speedup"][k] for name, _players in GAMES for k in CONTRACT_CALLS
        )
    return {k: _round(v) for k, v in out.items()}


def _round(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items()}
    return round(value, 2)


def _print_table(
    med: dict[str, dict[str, float]],
    ratios: dict[str, Any],
    lengths: dict[str, tuple[float, float]],
    args: argparse.Namespace,
) -> None:
    gin, hearts = med["openspiel gin_rummy"], med["openspiel hearts"]
    ism, os_ism = med["royal-mastheads ismcts"], med["openspiel hearts ismcts"]
    rows = [
        (
            "Royal Casino",
            f"{med['royal-casino']['actions_per_s']:,.0f} actions/s",
            f"gin_rummy {gin['actions_per_s']:,.0f} actions/s",
            ratios["royal_casino_actions_vs_gin_rummy_actions"],
            3.0,
        ),
        (
            "Rummy",
            f"{med['rummy']['units_per_s']:,.0f} rounds/s",
            f"gin_rummy {gin['games_per_s']:,.0f} games/s",
            ratios["rummy_rounds_vs_gin_rummy_games"],
            10.0,
        ),
        (
            "Royal Mastheads",
            f"{med['royal-mastheads']['units_per_s']:,.0f} deals/s",
            f"hearts {hearts['games_per_s']:,.0f} games/s",
            ratios["mastheads_deals_vs_hearts_games"],
            1.0,
        ),
        (
            f"Royal Mastheads ISMCTS ({args.simulations}/move)",
            f"{ism['simulations_per_s']:,.0f} simulations/s",
            f"hearts ISMCTS {os_ism['simulations_per_s']:,.0f} simulations/s",
            ratios["mastheads_ismcts_vs_hearts_ismcts"],
            2.0,
        ),
    ]
    print(f"medians of {args.rounds} interleaved rounds of {args.seconds:g} s each")
    print("| | cardtable | OpenSpiel C++ | ratio | target |")
    print("|---|---|---|---|---|")
    for label, ours, theirs, ratio, target in rows:
        mark = "met" if ratio >= target else "not met"
        print(f"| {label} | {ours} | {theirs} | {ratio:.2f}× | ≥ {target}× ({mark}) |")
    gin_all, gin_players = lengths["gin_rummy"]
    print(
        f"OpenSpiel's actions count chance outcomes (cards dealt and drawn) as its own "
        f"action counts do: a random gin_rummy game is {gin_all:.1f} actions, "
        f"{gin_players:.1f} of them the players' ({gin['player_actions_per_s']:,.0f} player "
        f"actions/s; Royal Casino counts only the players' actions)."
    )
    if args.anchor:
        print()
        print("| game | units/s | legal_actions µs | apply µs | view µs | (anchor → this) |")
        print("|---|---|---|---|---|---|")
        for name, _players in GAMES:
            new, old = med[name], med[f"anchor {name}"]
            sp = ratios[f"{name}_speedup"]
            print(
                f"| {name} | {old['units_per_s']:,.0f} → {new['units_per_s']:,.0f} "
                f"({sp['units_per_s']:.2f}×) "
                + " ".join(f"| {old[k]:.2f} → {new[k]:.2f} ({sp[k]:.2f}×)" for k in CONTRACT_CALLS)
                + " | |"
            )
        lowest = ratios["contract_speedup_lowest"]
        mark = "met" if lowest >= CONTRACT_TARGET else "not met"
        print(
            f"The contract's calls against the anchor: the lowest speed-up is {lowest:.2f}× "
            f"(target ≥ {CONTRACT_TARGET:g}×: {mark})."
        )


if __name__ == "__main__":
    sys.exit(main())
