#!/usr/bin/env python3
"""A pilot's figures from its journal, whole or in progress, and two pilots paired by deal.

``lab/expert_pilot.py`` appends every finished game to ``OUT.jsonl`` (its deal, its
seating, which entrant sat where, the sides' seats and scores; entrant 0 is the
candidate; journals from before 4 December 2026 have no sides, one seat a side).  This
reads such a journal and prints, over the deals whose every seating is in it, what the
arena would: the candidate's duplicate-match wins with their 95% Wilson interval and its
margin a deal (its total over the deal's seatings minus the other entrant's, mean ± standard
error).  With a second journal (``--against``) it also pairs the two on the deals both
have whole: each one's matches there and the paired difference of their margins.  A later
copy of a game (a resumed pilot replays a deal cut short) replaces an earlier one.

    python lab/pilot_journal.py lab/journals/royal-mastheads_expert-greedy05_s6.jsonl
    python lab/pilot_journal.py B.jsonl --against A.jsonl

Not part of the unit suite: a reading of pilots (lab/notes/bots-experiments.md).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from cardtable.arena.stats import mean_and_error, wilson

Seating = tuple[float, float, float]
"""One game of a deal: the candidate's score, the other entrant's, and the highest score
of any side in it."""


def deal_seatings(path: Path) -> tuple[int, dict[int, list[Seating]]]:
    """The games read, and each whole deal's games (:data:`Seating`), in seating order.

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
    seatings: dict[int, list[Seating]] = {}
    need: dict[int, int] = {}
    for (deal, _), g in sorted(games.items()):
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
        seatings.setdefault(deal, []).append(
            (sum(mine) / len(mine), sum(theirs) / len(theirs), float(max(scores)))
        )
    whole = {d: gs for d, gs in seatings.items() if len(gs) == need[d]}
    return len(games), whole


def deal_totals(path: Path) -> tuple[int, dict[int, tuple[float, float]]]:
    """The games read, and each whole deal's totals: the candidate's and the other's
    (:func:`deal_seatings` summed over the deal's seatings)."""
    games, whole = deal_seatings(path)
    return games, totals_of(whole)


def totals_of(whole: dict[int, list[Seating]]) -> dict[int, tuple[float, float]]:
    """Each deal's totals over its seatings: the candidate's and the other's.

    >>> totals_of({3: [(5.0, 2.0, 9.0), (1.0, 4.0, 4.0)]})
    {3: (6.0, 6.0)}
    """
    return {d: (sum(g[0] for g in gs), sum(g[1] for g in gs)) for d, gs in whole.items()}


def quiet_deals(whole: dict[int, list[Seating]], threshold: float = 300.0) -> list[int]:
    """The deals in which no side of any seating scored ``threshold`` or more (in Royal
    Mastheads: no royal bonus, no big trick bonus), decided by card points alone.

    >>> quiet_deals({0: [(5.0, 2.0, 9.0)], 1: [(600.0, 2.0, 600.0)]})
    [0]
    """
    return sorted(d for d, gs in whole.items() if max(g[2] for g in gs) < threshold)


def match_curve(whole: dict[int, list[Seating]], margin: float) -> float:
    """How much a seating's margin ``margin`` is worth to the duplicate match, on these
    deals: the chance that it and the deal's other seatings (as played) win the match,
    minus the chance for ``-margin`` (ties count half), in ``[-1, 1]``; the shape a
    reward ``tanh``-like in the margin should have to play for match wins.

    >>> whole = {0: [(10.0, 0.0, 10.0), (0.0, 30.0, 30.0)], 1: [(0.0, 0.0, 0.0), (5.0, 0.0, 5.0)]}
    >>> match_curve(whole, 0.0), match_curve(whole, 20.0), match_curve(whole, 40.0)
    (0.0, 0.75, 1.0)
    """
    won = 0.0
    count = 0
    for gs in whole.values():
        margins = [g[0] - g[1] for g in gs]
        total = sum(margins)
        for m in margins:
            rest = total - m
            for sign, x in ((1.0, rest + margin), (-1.0, rest - margin)):
                won += sign * (1.0 if x > 0 else 0.5 if x == 0 else 0.0)
            count += 1
    return won / count if count else 0.0


def fit_tail(
    whole: dict[int, list[Seating]], points: list[float]
) -> tuple[float, float, float, float]:
    """The reward ``(1 - share) * tanh(m / sharp) + share * tanh(m / wide)`` nearest to
    :func:`match_curve` at ``points`` (least squares over a grid: share 0.10-0.60 by 0.05,
    sharp 20-80, wide 200-600): ``(share, sharp, wide, squared error)``."""
    curve = [match_curve(whole, m) for m in points]
    best = (0.0, 0.0, 0.0, math.inf)
    for share in [i / 20 for i in range(2, 13)]:
        for sharp in (20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0, 60.0, 70.0, 80.0):
            for wide in (200.0, 250.0, 300.0, 350.0, 400.0, 500.0, 600.0):
                err = sum(
                    (c - ((1 - share) * math.tanh(m / sharp) + share * math.tanh(m / wide))) ** 2
                    for c, m in zip(curve, points, strict=True)
                )
                if err < best[3]:
                    best = (share, sharp, wide, err)
    return best


def chi2_sf(x: float, df: int) -> float:
    """The chance that a chi-squared variable of ``df`` degrees of freedom is above ``x``
    (the regularized upper incomplete gamma ``Q(df / 2, x / 2)``: a series below
    ``df / 2 + 1``, Lentz's continued fraction above).

    >>> round(chi2_sf(3.841458820694124, 1), 6), round(chi2_sf(12.591587243743977, 6), 6)
    (0.05, 0.05)
    >>> chi2_sf(0.0, 4)
    1.0
    """
    a, z = df / 2.0, x / 2.0
    if z <= 0.0:
        return 1.0
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1.0:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1.0
            term *= z / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = z + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    i = 0
    while True:
        i += 1
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15 or i > 10_000:
            return h * math.exp(log_front)


def cochran_q(outcomes: list[list[int]]) -> tuple[float, int, float]:
    """Cochran's Q test that ``k`` candidates played on the same deals win alike:
    ``outcomes[d][j]`` is 1 when candidate ``j`` won deal ``d``'s duplicate match, else 0.
    Gives ``(Q, k - 1, p)``; ``p`` is the chance of a ``Q`` this large or larger were the
    candidates' chances the same on every deal (chi-squared with ``k - 1`` degrees of
    freedom).  With two candidates it is McNemar's test, ``(b - c)^2 / (b + c)``.

    >>> q, df, p = cochran_q([[1, 0], [1, 0], [1, 0], [0, 1], [1, 1], [0, 0]])
    >>> q, df, round(p, 4)
    (1.0, 1, 0.3173)
    """
    k = len(outcomes[0])
    columns = [sum(row[j] for row in outcomes) for j in range(k)]
    rows = [sum(row) for row in outcomes]
    total = sum(rows)
    denominator = k * total - sum(r * r for r in rows)
    if not denominator:
        return 0.0, k - 1, 1.0
    q = (k - 1) * (k * sum(c * c for c in columns) - total * total) / denominator
    return q, k - 1, chi2_sf(q, k - 1)


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


def pool_report(names: list[Path], totals: list[dict[int, tuple[float, float]]]) -> str:
    """Several candidates on the same deals: each one's matches on the deals whole in
    every journal, and :func:`cochran_q` over the deals none of them tied."""
    common = sorted(set.intersection(*(set(t) for t in totals)))
    if not common:
        return "  no whole deal in common to all the journals"
    lines = [f"  {len(names)} candidates on the {len(common)} deals whole in every journal:"]
    lines += [
        "    " + describe(str(name), t, common) for name, t in zip(names, totals, strict=True)
    ]
    decided = [d for d in common if all(t[d][0] != t[d][1] for t in totals)]
    outcomes = [[int(t[d][0] > t[d][1]) for t in totals] for d in decided]
    if not outcomes:
        return "\n".join(lines)
    q, df, p = cochran_q(outcomes)
    lines.append(
        f"  Cochran's Q on the {len(decided)} deals no candidate tied: Q = {q:.2f}, "
        f"{df} degrees of freedom, p = {p:.3f} (the chance of so large a spread of match "
        f"wins were they all equally strong)"
    )
    return "\n".join(lines)


def main() -> int:
    """Print a journal's figures, and the pairing with ``--against``."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("journal", type=Path, help="a pilot's OUT.jsonl")
    p.add_argument("--against", type=Path, help="another pilot's journal on the same deals")
    p.add_argument(
        "--pool",
        type=Path,
        nargs="+",
        default=[],
        metavar="JOURNAL",
        help="other candidates' journals on the same deals: do they all win alike? (Cochran's Q)",
    )
    p.add_argument(
        "--utility",
        action="store_true",
        help="also: the quiet deals (no score of 300 or more) apart, and the match curve",
    )
    args = p.parse_args()
    try:
        games, whole = deal_seatings(args.journal)
        totals = totals_of(whole)
        other = deal_totals(args.against) if args.against else None
        pooled = [deal_totals(path)[1] for path in args.pool]
    except (OSError, ValueError) as e:
        print(f"pilot_journal: {e}", file=sys.stderr)
        return 2
    if not totals:
        print(f"{args.journal}: {games} games, no whole deal yet")
        return 0
    print(f"{args.journal}: {games} games, {len(totals)} whole deals")
    print("  " + describe("candidate", totals, sorted(totals)))
    if args.utility:
        quiet = quiet_deals(whole)
        loud = sorted(set(totals) - set(quiet))
        for name, deals in (("quiet deals (no score of 300 or more)", quiet), ("the others", loud)):
            if deals:
                print("  " + describe(name, totals, deals))
        steps = (5.0, 10.0, 20.0, 30.0, 50.0, 80.0, 120.0, 200.0, 300.0, 500.0, 700.0)
        print("  match curve (a seating's margin: its worth to the match, -1 to 1):")
        print("    " + "  ".join(f"{m:g}: {match_curve(whole, m):.3f}" for m in steps))
        margins = sorted(abs(g[0] - g[1]) for gs in whole.values() for g in gs)
        points = [margins[i * len(margins) // 200] for i in range(200)]
        points += [float(m) for m in range(5, 705, 25)]
        share, sharp, wide, err = fit_tail(whole, points)
        print(
            f"  nearest reward: {1 - share:g} tanh(m/{sharp:g}) + {share:g} tanh(m/{wide:g}) "
            f"(squared error {err:.3f} over {len(points)} margins)"
        )
    if pooled:
        print(pool_report([args.journal, *args.pool], [totals, *pooled]))
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
