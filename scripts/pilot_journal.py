#!/usr/bin/env python3
"""A pilot's figures from its journal, whole or in progress, and two pilots paired by deal.

``scripts/expert_pilot.py`` appends every finished game to ``OUT.jsonl`` (its deal, its
seating, which entrant sat where, the sides' seats and scores; entrant 0 is the
candidate; journals from before session 15 have no sides, one seat a side).  This
reads such a journal and prints, over the deals whose every seating is in it, what the
arena would: the candidate's duplicate-match wins with their 95% Wilson interval and its
margin a deal (its total over the deal's seatings minus the other entrant's, mean ± standard
error).  With a second journal (``--against``) it also pairs the two on the deals both
have whole: each one's matches there and the paired difference of their margins.  A later
copy of a game (a resumed pilot replays a deal cut short) replaces an earlier one.

    python scripts/pilot_journal.py docs/journals/royal-mastheads_expert-greedy05_s6.jsonl
    python scripts/pilot_journal.py B.jsonl --against A.jsonl

Not part of the unit suite: a reading of pilots (docs/bots-experiments.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cardtable.arena.stats import mean_and_error, wilson


def deal_totals(path: Path) -> tuple[int, dict[int, tuple[float, float]]]:
    """The games read, and each whole deal's totals: the candidate's and the other's.

    The other entrant's score in a game is the mean of the seats it holds, as the arena
    counts it (:func:`cardtable.arena.stats.entrant_scores`)."""
    games: dict[tuple[int, int], dict[str, Any]] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            games[(int(row["deal"]), int(row["rot"]))] = row
        except (ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}:{n}: not a pilot's game ({e})") from None
    totals: dict[int, list[float]] = {}
    count: dict[int, int] = {}
    need: dict[int, int] = {}
    for (deal, _), g in games.items():
        ent, scores = g["ent"], g["scores"]
        # The arena seats a deal once for each distinct rotation of its line-up: two
        # for a head-to-head or partnership game, four for one against three.
        need[deal] = len({tuple(ent[i:] + ent[:i]) for i in range(len(ent))})
        # Scores are by side; a journal that does not name the sides has one seat a side.
        sides = g.get("sides") or [[seat] for seat in range(len(ent))]
        if len(sides) != len(scores):
            raise ValueError(f"{path}: deal {deal}: {len(scores)} scores, {len(sides)} sides")
        held = [ent[side[0]] for side in sides]
        mine = [s for s, e in zip(scores, held, strict=True) if e == 0]
        theirs = [s for s, e in zip(scores, held, strict=True) if e != 0]
        acc = totals.setdefault(deal, [0.0, 0.0])
        acc[0] += sum(mine) / len(mine)
        acc[1] += sum(theirs) / len(theirs)
        count[deal] = count.get(deal, 0) + 1
    whole = {d: (t[0], t[1]) for d, t in totals.items() if count[d] == need[d]}
    return len(games), whole


def match_wins(totals: dict[int, tuple[float, float]], deals: list[int]) -> float:
    """The candidate's duplicate-match wins on ``deals`` (a tie counts half)."""
    return sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in (totals[d] for d in deals))


def describe(name: str, totals: dict[int, tuple[float, float]], deals: list[int]) -> str:
    """One line: matches won with their interval, and the margin a deal."""
    m = len(deals)
    wins = match_wins(totals, deals)
    lo, hi = wilson(wins, m)
    mean, err = mean_and_error([totals[d][0] - totals[d][1] for d in deals])
    return (
        f"{name}: {wins:g} of {m} duplicate matches ({wins / m:.1%}, {lo:.1%}-{hi:.1%}), "
        f"margin a deal {mean:+.1f} ± {err:.1f}"
    )


def main() -> int:
    """Print a journal's figures, and the pairing with ``--against``."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("journal", type=Path, help="a pilot's OUT.jsonl")
    p.add_argument("--against", type=Path, help="another pilot's journal on the same deals")
    args = p.parse_args()
    try:
        games, totals = deal_totals(args.journal)
        other = deal_totals(args.against) if args.against else None
    except (OSError, ValueError) as e:
        print(f"pilot_journal: {e}", file=sys.stderr)
        return 2
    if not totals:
        print(f"{args.journal}: {games} games, no whole deal yet")
        return 0
    print(f"{args.journal}: {games} games, {len(totals)} whole deals")
    print("  " + describe("candidate", totals, sorted(totals)))
    if other is not None:
        assert args.against is not None
        both = sorted(set(totals) & set(other[1]))
        if not both:
            print(f"  no whole deal in common with {args.against}")
            return 0
        print(f"  paired with {args.against} on {len(both)} deals both have whole:")
        print("    " + describe("this", totals, both))
        print("    " + describe("that", other[1], both))
        diff = mean_and_error(
            [(totals[d][0] - totals[d][1]) - (other[1][d][0] - other[1][d][1]) for d in both]
        )
        print(f"    margin a deal, this minus that: {diff[0]:+.1f} ± {diff[1]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
