#!/usr/bin/env python3
"""How well a cheap policy predicts a search level's moves: the signal an inference from
play would have (policy-based inference, Rebstock et al. 2019, weighs each sampled world
by how likely the others' moves so far were in it).

Plays ``--deals`` seeded games of GAME with ``--level`` in every seat and, at each
decision with more than one legal action, asks ``--model`` (a bot of the same game, by
default ``greedy``) what it would play from the same view.  For each kind of decision
(Royal Mastheads: ``pot``, ``lead``, ``follow``) it prints how often the model's choice is
the level's, against the chance of a uniform guess (the mean of ``1 / legal``), and the
model ``p = (1 - e) [model's choice] + e / legal`` with the ``e`` that fits best (maximum
likelihood on a grid), as the mean information a decision gives about the seat's cards
relative to a uniform guess, in bits (``log2(p / (1 / legal))``, averaged): 0 means the
model tells an inference nothing, and each bit halves the weight of a world where the
move would not have been chosen.

    python lab/policy_agreement.py royal-mastheads --deals 20 --workers 2

Not part of the unit suite: a measurement for pilots (lab/notes/bots-experiments.md).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable.bots import make_bot
from cardtable.core.rng import derive_rng
from cardtable.games import get_game

Record = tuple[str, int, bool]
"""One decision: its kind, the number of legal actions, whether the model agreed."""


def kind_of(game_name: str, view: Any) -> str:
    """The kind of a decision, for the game's figures (``play`` where not told apart)."""
    if game_name == "royal-mastheads":
        if view.phase == "pot":
            return "pot"
        return "follow" if view.trick else "lead"
    return "play"


def play_deal(game_name: str, level: str, model: str, seed: int) -> list[Record]:
    """The decisions of one game with ``level`` in every seat, and the model's agreement."""
    game = get_game(game_name)
    bot = make_bot(level, game)
    guess = make_bot(model, game)
    state = game.new_game(game.info.default_players, seed=seed, scope="unit")
    out: list[Record] = []
    version = 0
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state)
        view = game.view(state, seat)
        action = bot.choose(view, legal, derive_rng(seed, "bot", seat, version))
        if len(legal) > 1:
            predicted = guess.choose(view, legal, derive_rng(seed, "model", seat, version))
            out.append((kind_of(game_name, view), len(legal), predicted == action))
        state, _ = game.apply(state, action)
        version += 1
    return out


def fit(records: list[Record]) -> tuple[float, float]:
    """The best ``e`` on a grid of 0.02 and the mean bits a decision gives with it.

    Three of four agreements among 4 legal actions: the best e is 1/3, where the world of
    an agreed move is 3 times likelier than uniform and a disagreed one 1/3 as likely,
    (3 log2 3 - log2 3) / 4 = 0.79 bits a decision.

    >>> e, bits = fit([("x", 4, True)] * 3 + [("x", 4, False)])
    >>> round(e, 2), round(bits, 2)
    (0.34, 0.79)
    """
    best = (1.0, 0.0)
    for i in range(1, 51):
        e = i / 50
        total = 0.0
        for _kind, n, agreed in records:
            p = (1 - e) * agreed + e / n
            total += math.log2(p * n)
        mean = total / len(records)
        if mean > best[1]:
            best = (e, mean)
    return best


def main() -> int:
    """Print the model's agreement with the level, by kind of decision."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game")
    p.add_argument("--level", default="hard")
    p.add_argument("--model", default="greedy")
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--seed", type=int, default=7000)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    seeds = [args.seed + i for i in range(args.deals)]
    by_kind: dict[str, list[Record]] = defaultdict(list)
    with ProcessPoolExecutor(args.workers) as pool:
        jobs = [pool.submit(play_deal, args.game, args.level, args.model, s) for s in seeds]
        for done, job in enumerate(jobs, 1):
            for r in job.result():
                by_kind[r[0]].append(r)
            print(f"  {done} of {len(jobs)} games", file=sys.stderr)
    print(
        f"{args.game}: {args.model} predicting {args.level}, {args.deals} games from "
        f"seed {args.seed}"
    )
    for kind in sorted(by_kind):
        recs = by_kind[kind]
        agree = sum(r[2] for r in recs) / len(recs)
        chance = sum(1 / r[1] for r in recs) / len(recs)
        e, bits = fit(recs)
        print(
            f"  {kind:<7} {len(recs):5} decisions, {agree:.1%} agreed (a uniform guess "
            f"{chance:.1%}); best e {e:.2f}, {bits:.2f} bits a decision"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
