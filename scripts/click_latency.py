#!/usr/bin/env python3
"""How fast the table answers a click, measured by real clicks in Chromium (Playwright).

    python scripts/click_latency.py                       # 30 clicks of each kind per game
    python scripts/click_latency.py --clicks 10 --games rummy --json

The script starts ``cardtable serve`` from the working tree on a free port (SQLite in a
temporary folder, bots answering at once; see ``scripts/screenshots.py``), opens a table of
each game against the random bot through the lobby form, and clicks as a person would, on
a 1280×800 page:

- ``select``: a playable card of the hand, until the page draws it highlighted (then the
  selection is cleared with Escape, which is not timed);
- ``move``: a move's button (after picking a card when the move needs one), until the page
  draws the state the server sent back for it (the table's version changes).

A time runs from the ``click`` event's time stamp to the first animation frame in which the
answer is in the page (the frame that draws it), so it may be up to a frame late. When a hand
ends its breakdown is closed; when the game ends a new table is opened. The table on stdout
(or ``--json``) gives, per game and kind, the median and the 95th percentile, with the load
average (as ``uptime`` shows it) before and after.  Chromium is ``--chromium``, else
``$CARDTABLE_CHROMIUM``, else ``/usr/bin/chromium``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from screenshots import CHROMIUM_ARGS, serving

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

GAMES = {"royal-casino": 2, "rummy": 2, "royal-mastheads": 4}
"""The games measured, with the number of players at their table (the others are bots)."""
KINDS = ("select", "move")
"""What is clicked: a card of the hand, or a move's button."""
WIDTH, HEIGHT = 1280, 800

MEASURE = """
() => {
  // One pending measure: from the next click's time stamp to the first animation frame in
  // which the answer (window.__clickWant) is in the page.
  window.__clickMeasure = (want) => new Promise((resolve, reject) => {
    let start = null;
    addEventListener("click", (e) => { start = e.timeStamp; }, { capture: true, once: true });
    const app = document.getElementById("app");
    const answered = () => want.kind === "selected"
      ? !!app.querySelector('.hand [data-token="' + CSS.escape(want.token) + '"].selected')
      : app.dataset.version !== want.version;
    const until = performance.now() + 15000;
    const tick = () => {
      const now = performance.now();
      if (start !== null && answered()) resolve(now - start);
      else if (now > until) reject(new Error("no answer to the click in 15 s"));
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
"""
"""The page-side stopwatch, installed once per page."""

STATE = """
() => {
  const status = document.querySelector(".status")?.textContent ?? "";
  if (status.startsWith("Game over")) return "over";
  if (document.getElementById("next-hand")) return "breakdown";
  const app = document.getElementById("app");
  if (status === "Your turn" && app.dataset.version && !app.querySelector(".loading")
      && (app.querySelector(".hand .card.selectable") || app.querySelector(".actions .act")))
    return "turn";
  return "";
}
"""
"""What the page waits for: ``turn`` (the person's, with something to click), ``breakdown``
(the end of a hand), ``over`` (the end of the game), or nothing yet."""

POINT = """
el => {
  el.scrollIntoView({block: "nearest"});
  const r = el.getBoundingClientRect();
  for (const fy of [0.5, 0.3, 0.7, 0.15])
    for (const fx of [0.5, 0.3, 0.15, 0.08, 0.7, 0.9]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) return [x, y];
    }
  return null;
}
"""
"""A visible point of an element (a card of an overlapped fan is mostly under the next)."""


@dataclass
class Timings:
    """The milliseconds measured for one game, by kind of click."""

    game: str
    ms: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in KINDS})

    def done(self, clicks: int) -> bool:
        """Whether every kind has ``clicks`` measures."""
        return all(len(v) >= clicks for v in self.ms.values())


def percentile(values: Sequence[float], q: int) -> float:
    """The ``q``-th percentile of ``values`` (inclusive method; a single value is itself)."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def new_table(page: Page, url: str, game: str) -> None:
    """A table of ``game`` against the random bot, opened through the lobby form."""
    page.goto(f"{url}/?lang=en")
    page.fill("input[name=name]", "Bench")
    page.select_option("#game-select", game)
    for seat in range(1, GAMES[game]):
        page.select_option(f"select[name='{game}.seat.{seat}']", "bot:random")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".felt .seat.you")
    page.evaluate(MEASURE)


def real_click(page: Page, selector: str) -> None:
    """A mouse click on a visible point of the first element matching ``selector``."""
    point = page.locator(selector).first.evaluate(POINT)
    if point is None:
        raise RuntimeError(f"{selector} cannot be clicked: it is covered")
    page.mouse.click(point[0], point[1])


def timed_click(page: Page, selector: str, want: dict[str, str]) -> float:
    """Click ``selector`` and return the milliseconds until ``want`` is drawn."""
    page.evaluate("want => { window.__clickPending = window.__clickMeasure(want); }", want)
    real_click(page, selector)
    return float(page.evaluate("() => window.__clickPending"))


def version(page: Page) -> str:
    """The version of the table the page shows."""
    return str(page.evaluate("() => document.getElementById('app').dataset.version"))


def one_turn(page: Page, timings: Timings, clicks: int) -> None:
    """On the person's turn: time selecting a card (then clear it), then time a move."""
    card = ".hand .card.selectable:not(.selected)"
    if page.locator(card).count() and len(timings.ms["select"]) < clicks:
        token = str(page.locator(card).first.get_attribute("data-token"))
        timings.ms["select"].append(
            timed_click(page, f'.hand [data-token="{token}"]', {"kind": "selected", "token": token})
        )
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('.hand .card.selected')")
    before = version(page)
    if page.locator(card).count():
        real_click(page, card)
        page.wait_for_selector(".actions .act")
    ms = timed_click(page, ".actions .act", {"kind": "version", "version": before})
    if len(timings.ms["move"]) < clicks:
        timings.ms["move"].append(ms)


def measure_game(browser: Browser, url: str, game: str, clicks: int) -> Timings:
    """Play ``game`` against bots until each kind of click has been timed ``clicks`` times."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale="en")
    page = context.new_page()
    timings = Timings(game)
    try:
        new_table(page, url, game)
        while not timings.done(clicks):
            page.wait_for_function(STATE, timeout=60_000)
            state = page.evaluate(STATE)
            if state == "over":
                new_table(page, url, game)
            elif state == "breakdown":
                real_click(page, "#next-hand")
                page.wait_for_function("() => !document.getElementById('next-hand')")
            else:
                one_turn(page, timings, clicks)
    finally:
        context.close()
    return timings


def summary(all_timings: Sequence[Timings]) -> list[dict[str, Any]]:
    """One row per game and kind: clicks, median and 95th percentile in milliseconds."""
    return [
        {
            "game": t.game,
            "kind": kind,
            "clicks": len(t.ms[kind]),
            "median_ms": round(statistics.median(t.ms[kind]), 1),
            "p95_ms": round(percentile(t.ms[kind], 95), 1),
        }
        for t in all_timings
        for kind in KINDS
    ]


def table_text(rows: Sequence[dict[str, Any]], load: Sequence[float]) -> str:
    """The rows as a Markdown table, under the load average."""
    lines = [
        "load average: " + ", ".join(f"{x:.2f}" for x in load),
        "",
        "| game | click | clicks | median | p95 |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['kind']} | {r['clicks']} "
            f"| {r['median_ms']:.1f} ms | {r['p95_ms']:.1f} ms |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the table (or JSON)."""
    parser = argparse.ArgumentParser(
        prog="python scripts/click_latency.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="Needs the test extra (Playwright) and Chromium. docs/server.md shows a run.",
    )
    parser.add_argument(
        "--clicks", type=int, default=30, help="clicks of each kind per game (default: 30)"
    )
    parser.add_argument(
        "--games",
        nargs="+",
        default=list(GAMES),
        choices=list(GAMES),
        help="the games measured (default: all three)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--chromium",
        default=os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium"),
        help="the Chromium executable (default: $CARDTABLE_CHROMIUM or /usr/bin/chromium)",
    )
    args = parser.parse_args(argv)
    if args.clicks < 1:
        parser.error("--clicks must be at least 1")
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="cardtable-clicks-") as tmp,
        serving(Path(tmp)) as url,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        try:
            measured = [measure_game(browser, url, g, args.clicks) for g in args.games]
        finally:
            browser.close()
    load = os.getloadavg()
    rows = summary(measured)
    if args.json:
        out = {
            "clicks": args.clicks,
            "load_avg_before": [round(x, 2) for x in load_before],
            "load_avg": [round(x, 2) for x in load],
            "seconds": round(time.monotonic() - started, 1),
            "results": rows,
        }
        print(json.dumps(out, indent=1))
    else:
        print(table_text(rows, load))
    return 0


if __name__ == "__main__":
    sys.exit(main())
