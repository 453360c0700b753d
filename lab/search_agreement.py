#!/usr/bin/env python3
"""How often `hard` and `expert` choose what one much larger search chooses.

The arena rows with `expert` are short (its moves cost four times `hard`'s), so they
cannot show whether the larger budget helps. This asks it move by move instead: from
mid-game positions of GAME (random play from seeded deals), it runs one search with
``--big`` simulations, a `hard`-sized search, and an `expert`-style search (``--trees``
independent searches of the `hard` budget, root statistics summed, as `expert` does),
and counts how often each picks the big search's move.

    python lab/search_agreement.py royal-casino --positions 20

Not part of the unit suite (minutes of search).
"""

from __future__ import annotations

import argparse
import random
import sys

from cardtable.bots.ismcts import adapter_for, search
from cardtable.bots.levels import hard_simulations, merge_results
from cardtable.games import get_game


def main() -> int:
    """Print per-position agreement and the totals."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game")
    p.add_argument("--positions", type=int, default=20, help="positions to try")
    p.add_argument("--big", type=int, default=0, help="reference budget (default 4x hard)")
    p.add_argument("--trees", type=int, default=4, help="expert's independent searches")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    game = get_game(args.game)
    adapter = adapter_for(game)
    hard = hard_simulations(game)
    big = args.big or hard * args.trees
    tried = hard_agrees = expert_agrees = 0
    for i in range(args.positions * 3):
        if tried == args.positions:
            break
        rng = random.Random(args.seed * 1000 + i)
        state = game.new_game(game.info.default_players, seed=args.seed * 1000 + i, scope="unit")
        for _ in range(rng.randrange(4, 30)):
            if game.to_act(state) is None:
                break
            legal = game.legal_actions(state)
            state, _ = game.apply(state, legal[rng.randrange(len(legal))])
        seat = game.to_act(state)
        if seat is None:
            continue
        legal = game.legal_actions(state)
        if len(legal) < 3:
            continue
        view = game.view(state, seat)
        ref = search(adapter, view, legal, random.Random(rng.random()), big).best()
        h = search(adapter, view, legal, random.Random(rng.random()), hard).best()
        trees = [
            search(adapter, view, legal, random.Random(rng.random()), hard)
            for _ in range(args.trees)
        ]
        e = merge_results(trees).best()
        tried += 1
        hard_agrees += h == ref
        expert_agrees += e == ref
        print(f"position {tried}: {len(legal)} moves; hard {h == ref}; expert {e == ref}")
    print(
        f"{game.info.name}: of {tried} positions, the {big}-simulation search's move was "
        f"chosen by hard ({hard}) in {hard_agrees} and by expert ({args.trees} x {hard}) "
        f"in {expert_agrees}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
