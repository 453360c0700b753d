#!/usr/bin/env python3
"""Pilot a candidate ``expert`` against a search opponent in the arena.

Registers a candidate ``expert`` for ``GAME`` (``--sims`` simulations split into
``--trees`` independent trees, their root statistics merged as the level merges them,
with the reward of ``--variant``; no endgame solver) and plays it against ``--opp`` (in
Royal Mastheads one against three) on ``--deals`` duplicate deals from ``--seed`` (the
arena's own planning and statistics; the count is fixed before the run).  Each finished
game is appended to ``OUT.jsonl`` as it ends, so a stopped pilot keeps its deals
(``--from-deal`` resumes it, appending: a deal's games depend only on its seed); the
summary of the deals this run played goes to ``OUT``.

    nice -n 19 python scripts/expert_pilot.py royal-mastheads --variant lin300 \\
        --deals 20 --seed 1000 --sims 12000 --opp ismcts:3000 --out pilot-lin300.json
    nice -n 19 python scripts/expert_pilot.py rummy --trees 4 --sims 6400 --opp hard \\
        --deals 50 --seed 1020 --out pilot-rummy-4trees.json

Variants: ``base`` (the game's ``hard`` reward), ``lin150`` and ``lin300`` (the point
margin alone, ``tanh(margin / 150)`` or ``/ 300``).  Never pilot on the strength rows'
seeds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from cardtable.arena import ArenaConfig, GameResult, plan, run_local, summarise
from cardtable.bots.base import register_bot
from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.bots.levels import merge_results
from cardtable.core.registry import AnyGame

VARIANTS: dict[str, tuple[float, float] | None] = {
    "base": None,
    "lin150": (150.0, 1.0),
    "lin300": (300.0, 1.0),
}
"""Each variant's reward as (scale, final margin); ``None``: the game's own profile."""


class PilotExpert:
    """A candidate ``expert``: ``sims`` simulations in ``trees`` independent trees."""

    def __init__(self, game: AnyGame, variant: str, sims: int, trees: int = 2) -> None:
        self.name = f"x-{variant}-{trees}"
        profile = game.search_profile()
        reward = VARIANTS[variant]
        if reward is not None:
            profile = dataclasses.replace(profile, scale=reward[0], final_margin=reward[1])
        self.adapter = SearchAdapter(game, profile)
        self.sims = sims
        self.trees = trees

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """The most visited action of the merged trees (seeded as the levels seed them)."""
        if len(legal) == 1:
            return legal[0]
        seed = rng.randrange(1 << 62)
        seeds = [random.Random(seed + i).randrange(1 << 62) for i in range(self.trees)]
        share = self.sims // self.trees
        results = [search(self.adapter, view, legal, random.Random(s), share) for s in seeds]
        return merge_results(results).best()


def main() -> int:
    """Play the pilot and print the candidate's duplicate-match figures."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game", help="the game's name, e.g. rummy or royal-mastheads")
    p.add_argument("--variant", choices=sorted(VARIANTS), default="base")
    p.add_argument("--trees", type=int, default=2, help="independent trees (the level: 2)")
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--sims", type=int, default=48_000)
    p.add_argument("--opp", default="hard")
    p.add_argument("--out", required=True)
    p.add_argument(
        "--from-deal", type=int, default=0, help="resume: skip the deals before this one"
    )
    args = p.parse_args()
    name = f"x-{args.variant}-{args.trees}"
    register_bot(name, args.game, lambda g: PilotExpert(g, args.variant, args.sims, args.trees))
    cfg = ArenaConfig(args.game, (name, args.opp), args.deals, args.seed)
    start = time.time()
    # A resumed pilot appends to the games it kept; a new one starts the file afresh.
    with open(args.out + ".jsonl", "a" if args.from_deal else "w") as log:

        def keep(r: GameResult) -> None:
            row = {"deal": r.deal, "rot": r.rotation, "ent": r.entrant_of_seat, "scores": r.scores}
            log.write(json.dumps(row) + "\n")
            log.flush()

        jobs = [j for j in plan(cfg) if j.deal >= args.from_deal]
        results = run_local(jobs, 1, keep)
    summary = summarise(cfg, results)
    out = summary.to_json()
    out["wall_seconds"] = round(time.time() - start)
    out["load_average_at_end"] = os.getloadavg()[0]
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    e = summary.entrants[0]
    print(
        f"{name} vs {args.opp}: {e.match_wins} of {e.matches} duplicate matches "
        f"({e.match_win_rate:.1%}, {e.match_ci95}); mean points {e.mean_points:.1f} / "
        f"{summary.entrants[1].mean_points:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
