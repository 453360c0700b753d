#!/usr/bin/env python3
"""Check a level's time contract: the compute per move of `hard` or `expert`, measured.

Plays ``--games`` seeded games of GAME (the level in seat 0, ``medium`` elsewhere, one
unit each, the wall-clock safety cap off so the budgets alone bind) and times every move
of the level: the share of moves it solved, the simulations and solver nodes it spent,
and the mean, 95th percentile and largest time per move (wall clock and CPU time of
this process, which a loaded machine inflates less), with the load average.

    python scripts/level_timing.py royal-casino --level hard --games 4

`hard` must stay within 0.5 s a move and `expert` within 2 s (docs/bots.md), on the
reference machine when idle; under load the times are indicative only.  Not part of the
unit suite (it measures time, which a test never asserts).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from cardtable.bots import make_bot
from cardtable.bots.levels import EXPERT_SECONDS, HARD_SECONDS, ISMCTSBot, wall_clock_cap
from cardtable.core.rng import derive_rng
from cardtable.games import get_game


def main() -> int:
    """Print the per-move figures of one level in one game."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game")
    p.add_argument("--level", default="hard", choices=("hard", "expert"))
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--players", type=int, default=0, help="default: the game's")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    game = get_game(args.game)
    players = args.players or game.info.default_players
    bot = make_bot(args.level, game)
    assert isinstance(bot, ISMCTSBot)
    other = make_bot("medium", game)
    times: list[float] = []
    cpu: list[float] = []
    sims = nodes = solved = 0
    with wall_clock_cap(False):
        for g in range(args.games):
            state = game.new_game(players, seed=args.seed * 1000 + g, scope="unit")
            version = 0
            while (seat := game.to_act(state)) is not None:
                legal = game.legal_actions(state)
                view = game.view(state, seat)
                rng = derive_rng(args.seed * 1000 + g, "bot", seat, version)
                if seat == 0 and len(legal) > 1:
                    t0, c0 = time.perf_counter(), time.process_time()
                    result = bot.analyse(view, legal, rng)
                    times.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                    action = result.best()
                    if bot.last_solved is not None:
                        solved += 1
                        nodes += bot.last_solved.nodes
                    else:
                        sims += result.simulations
                else:
                    action = other.choose(view, legal, rng)
                state, _ = game.apply(state, action)
                version += 1
    if not times:
        print("no moves with a choice")
        return 1
    times.sort()
    cpu.sort()
    limit = HARD_SECONDS if args.level == "hard" else EXPERT_SECONDS
    load = os.getloadavg()[0]
    print(
        f"{args.game} {args.level}: {len(times)} moves, {solved} solved "
        f"({nodes} nodes), {sims} simulations searched; seconds per move: "
        f"mean {sum(times) / len(times):.3f}, p95 {times[int(0.95 * (len(times) - 1))]:.3f}, "
        f"max {times[-1]:.3f} (contract {limit} s); CPU seconds per move: mean "
        f"{sum(cpu) / len(cpu):.3f}, p95 {cpu[int(0.95 * (len(cpu) - 1))]:.3f}, max {cpu[-1]:.3f}; "
        f"load average {load:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
