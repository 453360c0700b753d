#!/usr/bin/env python3
"""Play the strength table of ``docs/bots.md`` with the arena and print it as Markdown.

Each row of ``docs/strength-rows.txt`` (``game  a,b  deals  seed``) is one
``cardtable arena GAME --bots a,b --games DEALS --seed SEED --out DIR/ROW.json`` run.
A row whose JSON is already in ``--dir`` is not played again, so an interrupted run
resumes where it stopped and ``--render-only`` rebuilds the table from saved results.

    python scripts/strength_table.py --workers 2 --dir strength-results
    python scripts/strength_table.py --dir strength-results --only rummy --render-only
    python scripts/strength_table.py --deals 20 --pairs hard,medium expert,hard

Every row's arena run keeps a journal (``DIR/ROW.jsonl``, ``cardtable arena --journal``):
a row stopped half-way (a killed session, a reboot) resumes from its last finished game
when the script is started again, with the results of an uninterrupted run.
``--progress`` prints, for rows still being played, the duplicate matches so far (over
the deals whose every seating has finished).

``--deals N`` plays every chosen row with N deals instead of its own count (a pilot: fix
N before the run); ``--pairs`` keeps only the rows of those bot pairs.  A row of fewer
than :data:`TARGET_DEALS` deals says so in the table.  The arena runs with the levels'
wall-clock safety cap off, so the numbers depend only on the rows' seeds and on the
code, never on the machine or ``--workers``.  Not part of the unit suite: the full table
takes hours on two cores.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ROWS = ROOT / "docs" / "strength-rows.txt"
CARDTABLE = shutil.which("cardtable") or str(Path(sys.executable).parent / "cardtable")
TARGET_DEALS = 100
"""The deals a row needs for the targets of docs/bots.md; fewer are marked in the table."""


def read_rows(path: Path) -> list[tuple[str, str, int, int]]:
    """The rows of a rows file: (game, "a,b", deals, seed); ``#`` starts a comment."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        game, bots, deals, seed = line.split()
        rows.append((game, bots, int(deals), int(seed)))
    return rows


def select(
    rows: list[tuple[str, str, int, int]], only: str, pairs: list[str], deals: int
) -> list[tuple[str, str, int, int]]:
    """The rows to play: games containing ``only``, bot pairs in ``pairs`` (all when
    empty), each with ``deals`` deals when that is positive."""
    return [
        (game, bots, deals if deals > 0 else n, seed)
        for game, bots, n, seed in rows
        if only in game and (not pairs or bots in pairs)
    ]


def command(game: str, bots: str, deals: int, seed: int) -> str:
    """The arena command of one row, as it is shown in the table."""
    return f"cardtable arena {game} --bots {bots} --games {deals} --seed {seed}"


def row_file(directory: Path, game: str, bots: str, deals: int, seed: int) -> Path:
    """Where a row's JSON results are kept."""
    return directory / f"{game}_{bots.replace(',', '-vs-')}_{deals}_s{seed}.json"


def pct(x: float) -> str:
    """A rate as a percentage with one decimal."""
    return f"{100 * x:.1f}%"


def render(result: dict[str, Any], deals: int, seed: int) -> str:
    """One Markdown table row from an arena JSON result."""
    cfg = result["config"]
    a, b = result["bots"][0], result["bots"][1]
    seatings = result["games"] // deals
    dlo, dhi = a["duplicate_ci95"]
    glo, ghi = a["ci95"]
    short = f" (fewer than {TARGET_DEALS} deals)" if deals < TARGET_DEALS else ""
    # Results saved before the arena reported the margin a deal show a dash.
    margin = (
        f"{a['duplicate_margin']:+.1f} ± {a['duplicate_margin_se']:.1f}"
        if "duplicate_margin" in a
        else "—"
    )
    return (
        f"| {cfg['game']} | {a['bot']} vs {b['bot']} "
        f"| {deals} × {seatings} = {result['games']}{short} "
        f"| **{pct(a['duplicate_win_rate'])}** ({100 * dlo:.1f}–{100 * dhi:.1f}) "
        f"| {pct(a['win_rate'])} ({100 * glo:.1f}–{100 * ghi:.1f}) "
        f"| {a['mean_points']:.1f} / {b['mean_points']:.1f} "
        f"| {margin} "
        f"| {a['rating']:.1f} / {b['rating']:.1f} | {seed} |"
    )


def progress(journal: Path, deals: int, seed: int) -> str:
    """A row in progress, from its journal: the games finished and a table row over the
    deals whose every seating has finished (marked as fewer deals)."""
    from cardtable.arena import ArenaConfig, summarise
    from cardtable.arena.core import plan
    from cardtable.arena.journal import Journal

    header = json.loads(journal.read_text(encoding="utf-8").split("\n", 1)[0])
    c = header["config"]
    cfg = ArenaConfig(
        c["game"], tuple(c["bots"]), c["deals"], c["seed"], c["unit"], c["players"], c["options"]
    )
    jobs = plan(cfg)
    done = Journal.read(journal, cfg, jobs).done
    seatings = len(jobs) // max(cfg.deals, 1)
    by_deal: dict[int, int] = {}
    for r in done.values():
        by_deal[r.deal] = by_deal.get(r.deal, 0) + 1
    whole = {d for d, n in by_deal.items() if n == seatings}
    results = [r for r in done.values() if r.deal in whole]
    head = f"{journal.name}: {len(done)} of {len(jobs)} games, {len(whole)} whole deals"
    if not whole:
        return head
    summary = summarise(
        ArenaConfig(cfg.game, cfg.bots, len(whole), cfg.seed, cfg.unit, cfg.players, cfg.options),
        sorted(results, key=lambda r: r.index),
    )
    return head + "\n" + render(summary.to_json(), len(whole), seed)


HEADER = (
    "| game | A vs B | deals × seatings = games | A wins duplicate matches (95% CI) "
    "| A wins games (95% CI) | mean points A / B | A's margin a deal (± s.e.) "
    "| rating A / B | seed |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def main() -> int:
    """Play the missing rows, then print the table and the commands."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rows", type=Path, default=ROWS, help="rows file (default: %(default)s)")
    p.add_argument("--dir", type=Path, default=Path("strength-results"), help="results folder")
    p.add_argument("--workers", type=int, default=2, help="arena worker processes")
    p.add_argument("--only", default="", help="only rows whose game contains this text")
    p.add_argument("--render-only", action="store_true", help="print the table, play nothing")
    p.add_argument("--deals", type=int, default=0, help="deals per row instead of the rows'")
    p.add_argument("--pairs", nargs="*", default=[], help="only these bot pairs (a,b)")
    p.add_argument("--progress", action="store_true", help="rows in progress so far, then stop")
    args = p.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    rows = select(read_rows(args.rows), args.only, args.pairs, args.deals)
    if args.progress:
        for game, bots, deals, seed in rows:
            journal = row_file(args.dir, game, bots, deals, seed).with_suffix(".jsonl")
            if journal.exists():
                print(progress(journal, deals, seed))
        return 0
    lines = []
    for game, bots, deals, seed in rows:
        out = row_file(args.dir, game, bots, deals, seed)
        if not out.exists():
            if args.render_only:
                print(f"(missing: {command(game, bots, deals, seed)})", file=sys.stderr)
                continue
            cmd = [
                CARDTABLE, "arena", game, "--bots", bots,
                "--games", str(deals), "--seed", str(seed), "--workers", str(args.workers),
                "--out", str(out), "--journal", str(out.with_suffix(".jsonl")),
            ]  # fmt: skip
            print(f"$ {command(game, bots, deals, seed)} --workers {args.workers}", file=sys.stderr)
            t0 = time.monotonic()
            log = out.with_suffix(".log")
            with log.open("a", encoding="utf-8") as err:  # not a pipe: the run outlives us
                code = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=err).returncode
            if code:
                print(log.read_text(encoding="utf-8")[-2000:], file=sys.stderr)
                return code
            print(f"  done in {time.monotonic() - t0:.0f} s", file=sys.stderr)
        lines.append(render(json.loads(out.read_text(encoding="utf-8")), deals, seed))
    print(HEADER)
    print("\n".join(lines))
    print("\n```")
    print("\n".join(command(*r) for r in rows))
    print("```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
