#!/usr/bin/env python3
"""Fit the Royal Mastheads play model (:mod:`cardtable.games.royal_mastheads.play_model`)
to a level's decisions, and measure how well it foresees decisions it was not fitted on.

The decisions are read from game records (``cardtable selfplay royal-mastheads --bots hard
--unit --records DIR``): every record is replayed and each decision of a seat with more
than one legal card becomes one observation (its kind, the seat's hand, the trick so far,
the cards gone, the card chosen).  The records are split by game: every ``--hold``-th
record (by name) is held out.  The weights are fitted by Newton's method on the
conditional logit's log-likelihood with an L2 penalty ``--l2`` on the fitting games, and
the script prints, for the fitting and the held-out games and each kind of decision, how
often the model's likeliest card was the one played, against a uniform guess, and the
mean information a decision gives in bits (``log2(p / (1 / legal))``: 0 tells an
inference nothing).  With ``--out`` the fitted weights are written as JSON, for pasting
into the module's :data:`WEIGHTS`.

    python scripts/fit_play_model.py RECORDS_DIR --out weights.json

Not part of the unit suite: a measurement for pilots (lab/notes/bots-experiments.md).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from cardtable.cards import mask_of
from cardtable.core.record import Record, replay
from cardtable.games import get_game
from cardtable.games.royal_mastheads.play_model import (
    FEATURES,
    MIN_ESS,
    Kind,
    Rules,
    features,
    legal_cards,
)
from cardtable.games.royal_mastheads.state import POT_BASE

Observation = tuple[str, Any, int]
"""One decision: its kind, its feature matrix (legal cards by features) and the row of
the card chosen."""


def decisions(record: Record) -> list[tuple[Rules, Kind, int, tuple[int, ...], int, int]]:
    """Every decision of a replayed record with its rules, kind, hand, trick so far, cards
    gone and card chosen (forced ones included)."""
    game = get_game("royal-mastheads")
    states = replay(record, game).states
    out: list[tuple[Rules, Kind, int, tuple[int, ...], int, int]] = []
    for state, line in zip(states, record.actions, strict=False):
        seat = game.to_act(state)
        if seat is None:
            continue
        view = game.view(state, seat)
        action = game.parse_action(state, line)
        ctx = Rules(view.trumps, view.masthead, view.ace_high, view.ace_points)
        hand = mask_of(view.hand)
        gone = mask_of([c for _l, _w, cards in view.tricks for c in cards]) | mask_of(view.trick)
        kind: Kind
        if view.phase == "pot":
            kind, card = "pot", action - POT_BASE
        else:
            kind, card = ("follow" if view.trick else "lead"), action
        out.append((ctx, kind, hand, tuple(view.trick), gone, card))
    return out


def observations(record: Record) -> list[Observation]:
    """The record's decisions with a choice, as feature matrices."""
    out: list[Observation] = []
    for ctx, kind, hand, trick, gone, card in decisions(record):
        legal = legal_cards(kind, hand, trick)
        if len(legal) < 2:
            continue
        x = np.zeros((len(legal), len(FEATURES)))
        for row, c in enumerate(legal):
            for i, v in features(ctx, kind, hand, trick, gone, c):
                x[row, i] = v
        out.append((kind, x, legal.index(card)))
    return out


def fit(obs: list[Observation], l2: float, steps: int = 30) -> Any:
    """The weights maximising the penalised log-likelihood (Newton's method)."""
    w = np.zeros(len(FEATURES))
    for _step in range(steps):
        grad = -l2 * w
        hess = -l2 * np.eye(len(FEATURES))
        for _kind, x, chosen in obs:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            mean = p @ x
            grad += x[chosen] - mean
            centred = x - mean
            hess -= (centred * p[:, None]).T @ centred
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def report(obs: list[Observation], w: Any, label: str) -> None:
    """Print the model's agreement and information by kind of decision."""
    by_kind: dict[str, list[tuple[bool, float, float]]] = defaultdict(list)
    for kind, x, chosen in obs:
        s = x @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        n = len(p)
        by_kind[kind].append((int(np.argmax(p)) == chosen, math.log2(p[chosen] * n), 1.0 / n))
    for kind in ("pot", "lead", "follow"):
        rows = by_kind.get(kind, [])
        if not rows:
            continue
        agree = sum(r[0] for r in rows) / len(rows)
        bits = sum(r[1] for r in rows) / len(rows)
        chance = sum(r[2] for r in rows) / len(rows)
        print(
            f"  {label:<9} {kind:<7} {len(rows):6} decisions, {agree:.1%} agreed (a uniform "
            f"guess {chance:.1%}), {bits:.2f} bits a decision"
        )


def placement(
    records: list[Record], weights: dict[str, float], min_ess: float, every: int = 4
) -> str:
    """How many of the cards a seat has not seen the worlds put where they truly are
    (the right hand or the pot): dealt uniformly (voids respected), with the pot drawn
    by the kind of card, and with that pot and weighed by the plays under the model
    (:func:`~cardtable.games.royal_mastheads.play_model.model_sampler`), at every
    ``every``-th decision of the held-out games, 64 worlds each; all the hidden cards,
    then the trumps, royals and mastheads alone."""
    import random

    from cardtable.games.royal_mastheads.determinize import MastheadsSampler
    from cardtable.games.royal_mastheads.play_model import model_sampler
    from cardtable.games.royal_mastheads.pot_inference import pot_sampler
    from cardtable.games.royal_mastheads.state import RANK, SUIT, pot_owner

    game = get_game("royal-mastheads")

    def right(view: Any, truth: Any, world: Any, only: int) -> tuple[int, int]:
        good = total = 0
        for seat in range(4):
            if seat != view.seat:
                good += (truth.hands[seat] & world.hands[seat] & only).bit_count()
                total += (truth.hands[seat] & only).bit_count()
        for i, c in enumerate(truth.pot):
            if pot_owner(view.dealer, i) != view.seat and only >> c & 1:
                total += 1
                good += c in world.pot
        return good, total

    names = ("uniform", "pot by kind", "model")
    sums = {(name, part): [0, 0] for name in names for part in ("all", "key")}
    for record in records:
        states = replay(record, game).states
        for n, state in enumerate(states[:-1]):
            seat = game.to_act(state)
            if seat is None or n % every:
                continue
            view = game.view(state, seat)
            key = 0
            for c in range(52):
                if SUIT[c] == view.trumps or RANK[c] > 10 or RANK[c] == view.masthead:
                    key |= 1 << c
            rng = random.Random(n)
            samplers: tuple[Callable[[random.Random], Any], ...] = (
                MastheadsSampler(view),
                pot_sampler(view),
                model_sampler(view, weights, min_ess=min_ess),
            )
            for name, sampler in zip(names, samplers, strict=True):
                for _ in range(64):
                    world = sampler(rng)
                    for part, only in (("all", (1 << 52) - 1), ("key", key)):
                        g, t = right(view, state, world, only)
                        sums[name, part][0] += g
                        sums[name, part][1] += t

    def share(name: str, part: str) -> str:
        good, total = sums[name, part]
        return f"{name} {good / max(1, total):.1%}"

    return "; ".join(
        f"{part} cards: {', '.join(share(n, part) for n in names)}" for part in ("all", "key")
    )


def main(argv: list[str] | None = None) -> int:
    """Fit, report and optionally write the weights (``argv``: the command line's words)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("records", type=Path, help="a folder of Royal Mastheads records")
    p.add_argument("--hold", type=int, default=5, help="hold out every HOLD-th game")
    p.add_argument("--l2", type=float, default=1.0, help="the L2 penalty")
    p.add_argument(
        "--placement",
        action="store_true",
        help="also measure how many hidden cards the weighed worlds put right (slow)",
    )
    p.add_argument(
        "--min-ess", type=float, default=MIN_ESS, help="the weighed pool's least effective size"
    )
    p.add_argument("--out", type=Path, help="write the fitted weights here (JSON)")
    args = p.parse_args(argv)
    files = sorted(args.records.glob("*.json"))
    if not files:
        print(f"no records in {args.records}", file=sys.stderr)
        return 2
    train: list[Observation] = []
    test: list[Observation] = []
    held: list[Record] = []
    for i, f in enumerate(files):
        record = Record.loads(f.read_text(encoding="utf-8"))
        obs = observations(record)
        if i % args.hold == args.hold - 1:
            test.extend(obs)
            held.append(record)
        else:
            train.extend(obs)
    print(f"{len(files)} games: {len(train)} decisions to fit, {len(test)} held out")
    w = fit(train, args.l2)
    report(train, w, "fitted")
    if test:
        report(test, w, "held out")
    weights = {name: round(float(v), 4) for name, v in zip(FEATURES, w, strict=True)}
    if args.placement and held:
        print(
            "  hidden cards the worlds put where they are, held-out games: "
            + placement(held, weights, args.min_ess)
        )
    if args.out:
        args.out.write_text(json.dumps(weights, indent=1) + "\n", encoding="utf-8")
    else:
        print(json.dumps(weights))
    return 0


if __name__ == "__main__":
    sys.exit(main())
