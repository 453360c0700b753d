#!/usr/bin/env python3
"""How sharply a search profile's root focuses: visits and values at the root, measured.

Plays ``--games`` seeded games of GAME with ``medium`` in every seat and, at each decision
of seat 0 with more than one legal action, searches that seat's view once with each
profile named (``hard``, ``expert``), ``--sims`` simulations in one tree (``hard`` its own
budget when ``--sims`` is 0).  For each profile it prints, over those positions: the mean
share of the visits the most visited action got, the mean *effective number* of actions
(``1 / sum(share**2)`` over the root's visit shares) against the mean legal count, and the
mean spread of the root's values (the best mean reward minus the worst).  A profile whose
rewards spread over a narrow band explores almost uniformly at UCB1's constant: its visit
shares approach ``1 / legal``.

    python lab/root_spread.py royal-mastheads --games 3 --profiles hard expert

Not part of the unit suite: a measurement behind the notes (notes/bots-experiments.md).
The search's UCB1 constant is fixed (:data:`cardtable.bots.ismcts.EXPLORATION`); the
profiles with a constant of their own that this script once compared were dropped with
that option, after they played no better (the notes, "exploration").
"""

from __future__ import annotations

import argparse
import random
import sys
from statistics import mean

from cardtable.bots import make_bot
from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.core.kit import SearchProfile
from cardtable.core.rng import derive_rng
from cardtable.games import get_game


def profile_of(kit: SearchProfile, name: str) -> SearchProfile:
    """The profile that ``name`` (``hard`` or ``expert``) stands for."""
    if name not in ("hard", "expert"):
        raise ValueError(f"unknown profile {name!r}: hard or expert")
    return kit.expert if name == "expert" and kit.expert is not None else kit


def main() -> int:
    """Print each profile's root figures over the same positions."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sims", type=int, default=0, help="simulations a search (0: hard's)")
    p.add_argument("--profiles", nargs="+", default=["hard", "expert"])
    args = p.parse_args()
    game = get_game(args.game)
    kit = game.search_profile()
    try:
        chosen = [(name, profile_of(kit, name)) for name in args.profiles]
    except ValueError as e:
        p.error(str(e))
    sims = args.sims or kit.hard_simulations
    medium = make_bot("medium", game)
    top: dict[str, list[float]] = {n: [] for n in args.profiles}
    effective: dict[str, list[float]] = {n: [] for n in args.profiles}
    spread: dict[str, list[float]] = {n: [] for n in args.profiles}
    legal_counts: list[int] = []
    for g in range(args.games):
        seed = args.seed * 1000 + g
        state = game.new_game(game.info.default_players, seed=seed, scope="unit")
        version = 0
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state)
            view = game.view(state, seat)
            if seat == 0 and len(legal) > 1:
                legal_counts.append(len(legal))
                for name, profile in chosen:
                    result = search(
                        SearchAdapter(game, profile),
                        view,
                        legal,
                        random.Random(seed * 100 + version),
                        sims,
                    )
                    visits = [s.visits for s in result.stats]
                    total = sum(visits)
                    shares = [v / total for v in visits]
                    top[name].append(max(shares))
                    effective[name].append(1.0 / sum(s * s for s in shares))
                    values = [s.value for s in result.stats]
                    spread[name].append(max(values) - min(values))
            action = medium.choose(view, legal, derive_rng(seed, "bot", seat, version))
            state, _ = game.apply(state, action)
            version += 1
    print(
        f"{game.info.name}: {len(legal_counts)} positions of seat 0, {sims} simulations a "
        f"search, mean legal actions {mean(legal_counts):.1f}"
    )
    for name in args.profiles:
        print(
            f"  {name:<14} top action {mean(top[name]):.1%} of visits, effective actions "
            f"{mean(effective[name]):.1f}, value spread {mean(spread[name]):.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
