#!/usr/bin/env python3
"""Does the endgame solver play the end of a unit better than the search it replaces?

From ``--positions`` seeded games of GAME played by ``medium`` up to the first position
where the game's solver applies for the seat to act, the rest of the unit is played twice
from the same true state: once with that seat as ``hard`` (which solves there, exactly or
on sampled worlds) and once as ``hard`` without its solver (ISMCTS with the same
simulations); the other seats stay ``medium``, with the same seeds.  It prints the mean
gain in the seat's final margin (its side's points minus the mean of the others') with a
standard error, and how often the solver ended better, equal or worse.

    python lab/endgame_duel.py royal-casino --positions 60
    python lab/endgame_duel.py royal-casino --positions 150 --seed 2 --baseline exact

``--baseline exact`` measures what the sampled worlds (PIMC) add: the other seat plays as
``hard`` too, solving where its solver is exact and searching where it would sample
worlds, and the duel starts at the first position the solver samples.

Cheap next to an arena run (only the last cards are played by search bots).  Not part of
the unit suite.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

from cardtable.bots import make_bot
from cardtable.bots.levels import ISMCTSBot, hard_simulations, wall_clock_cap
from cardtable.core.kit import SolveMode
from cardtable.core.registry import AnyGame
from cardtable.core.rng import derive_rng
from cardtable.games import get_game


def margin(game: AnyGame, state: Any, seat: int) -> float:
    """The seat's side's points minus the mean of the other sides' (unit scope)."""
    points = game.search_profile().points(state)
    sides = game.sides(game.players(state))
    own = next(s for s in sides if seat in s)
    others = [points[s[0]] for s in sides if s is not own]
    return points[own[0]] - sum(others) / len(others)


def finish(game: AnyGame, state: Any, seat: int, bot: Any, other: Any, seed: int) -> float:
    """Play to the end with ``bot`` in ``seat`` and ``other`` elsewhere; the seat's margin."""
    version = 0
    while (to_act := game.to_act(state)) is not None:
        legal = game.legal_actions(state)
        rng = derive_rng(seed, "duel", to_act, version)
        player = bot if to_act == seat else other
        action = (
            legal[0] if len(legal) == 1 else player.choose(game.view(state, to_act), legal, rng)
        )
        state, _ = game.apply(state, action)
        version += 1
    return margin(game, state, seat)


class ExactOnly:
    """``hard`` that solves only where its solver is exact, and searches (``search``)
    where it would solve sampled worlds."""

    def __init__(self, game: AnyGame, hard: Any, search: Any) -> None:
        self.name = "hard-exact-only"
        self.mode = game.search_profile().solver
        self.hard = hard
        self.search = search

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        """The search's move where the solver would sample worlds, else ``hard``'s."""
        assert self.mode is not None
        sampled = self.mode.mode(view) == SolveMode.SAMPLED
        return (self.search if sampled else self.hard).choose(view, legal, rng)


def main() -> int:
    """Print the duel's figures for one game."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game")
    p.add_argument("--positions", type=int, default=60)
    p.add_argument("--players", type=int, default=0, help="default: the game's")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--baseline",
        choices=("search", "exact"),
        default="search",
        help="the other arm: hard without its solver, or solving only where it is exact",
    )
    args = p.parse_args()
    game = get_game(args.game)
    solver = game.search_profile().solver
    if solver is None:
        print(f"{args.game} has no solver")
        return 1
    players = args.players or game.info.default_players
    medium = make_bot("medium", game)
    with_solver = make_bot("hard", game)
    without: Any = ISMCTSBot(game, hard_simulations(game), name="hard-no-solver")
    start = SolveMode.SAMPLED if args.baseline == "exact" else None
    if args.baseline == "exact":
        without = ExactOnly(game, with_solver, without)
    gains: list[float] = []
    better = equal = worse = 0
    with wall_clock_cap(False):
        for i in range(args.positions):
            seed = args.seed * 100_000 + i
            state = game.new_game(players, seed=seed, scope="unit")
            version = 0
            while (seat := game.to_act(state)) is not None:
                mode = solver.mode(game.view(state, seat))
                if mode != SolveMode.NONE and (start is None or mode == start):
                    break
                legal = game.legal_actions(state)
                rng = derive_rng(seed, "bot", seat, version)
                state, _ = game.apply(state, medium.choose(game.view(state, seat), legal, rng))
                version += 1
            if seat is None:
                continue
            a = finish(game, state, seat, with_solver, medium, seed)
            b = finish(game, state, seat, without, medium, seed)
            gains.append(a - b)
            better += a > b
            equal += a == b
            worse += a < b
    n = len(gains)
    mean = sum(gains) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
    print(
        f"{args.game} ({players} players): {n} endgames; solver minus search, final margin "
        f"{mean:+.2f} ± {sd / math.sqrt(n):.2f} (s.e.); solver better {better}, equal "
        f"{equal}, worse {worse}; load average {os.getloadavg()[0]:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
