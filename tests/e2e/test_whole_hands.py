"""A whole hand of each game played by clicking, in Czech and Russian, on a desktop and on a
phone: the page speaks in words and cards, every card of the hand is on the screen, nothing
scrolls sideways, no log entry and no part of the end-of-hand breakdown is covered, and the
browser reports no error."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.notation import covered, hand_outside, page_notation, sideways
from tests.e2e.test_rummy import Seat
from tests.serverproc import ServerProcess

GAMES = {"royal-casino": 1, "rummy": 1, "royal-mastheads": 3}
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


class Table(Seat):
    """One player's page at a table against bots, with the last state its websocket got and
    every error the browser reported."""

    def __init__(self, page: Any) -> None:
        super().__init__(page)
        self.errors: list[str] = []
        page.on("websocket", lambda ws: ws.on("socketerror", self._socket_error))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _socket_error(self, error: str) -> None:
        self.errors.append(f"websocket: {error}")

    def shown_version(self) -> int:
        return int(
            self.page.evaluate("() => Number(document.getElementById('app').dataset.version)")
        )

    def my_turn(self) -> bool:
        m = self.last
        return (
            bool(m)
            and m["status"] == "playing"
            and m["to_act"] == m["seat"]
            and bool(m["legal"])
            and self.shown_version() == m["version"]
        )

    def click(self, selector: str) -> None:
        """A real click on the visible part of the element (a card of an overlapped fan is
        mostly under its neighbour)."""
        el = self.page.locator(selector).first
        point = el.evaluate(
            """el => {
              el.scrollIntoView({block: "nearest"});
              const r = el.getBoundingClientRect();
              for (const fy of [0.5, 0.3, 0.7, 0.15])
                for (const fx of [0.5, 0.3, 0.15, 0.08, 0.7, 0.9]) {
                  const x = r.left + r.width * fx, y = r.top + r.height * fy;
                  const hit = document.elementFromPoint(x, y);
                  if (hit && (hit === el || el.contains(hit))) return [x, y];
                }
              return null;
            }"""
        )
        assert point is not None, f"{selector} cannot be clicked: it is covered"
        self.page.mouse.click(point[0], point[1])

    def wait_moved(self, version: int) -> None:
        self.page.wait_for_function(
            f"() => Number(document.getElementById('app')?.dataset.version) !== {version}",
            timeout=10_000,
        )


def new_table(table: Table, server: ServerProcess, game: str, lang: str) -> None:
    page = table.page
    page.goto(f"{server.url}/?lang={lang}")
    page.fill("input[name=name]", "Jiří" if lang == "cs" else "Ольга")
    page.select_option("#game-select", game)
    for seat in range(1, GAMES[game] + 1):
        page.select_option(f"select[name='{game}.seat.{seat}']", "bot:random")
    page.check("input[name=unit]")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".felt .seat.you")


def play_rummy_move(table: Table) -> str:
    """A meld when there is one (its cards picked, the meld previewed, then laid by its
    button), else a draw, else a discard."""
    legal = table.last["legal"]
    version = table.last["version"]
    melds = [a for a in legal if a["text"].startswith("MELD") and len(a["cards"]) >= 3]
    if melds:
        meld = melds[0]
        for token in meld["cards"]:
            table.click(f".hand [data-token='{token}']")
        # the click that completes it lays nothing: the meld is shown, then laid by a button
        assert table.shown_version() == version and table.last["version"] == version
        table.page.wait_for_selector(".actions .preview")
        assert table.page.locator(".actions .preview .card").count() == len(meld["cards"])
        table.click(f".actions [data-act='{meld['text']}']")
        return "meld"
    draw = [a for a in legal if a["text"] == "DRAW_STOCK"]
    if draw:
        table.click("[data-act='DRAW_STOCK']")
        return "draw"
    table.click(".hand .card.selectable")
    table.click(".actions .act")
    return "discard"


def play_move(table: Table, game: str) -> str:
    if game == "rummy":
        return play_rummy_move(table)
    table.click(".hand .card.selectable")
    table.click(".actions .act")
    return "card"


def check_page(table: Table, lang: str, problems: dict[str, set[str]]) -> None:
    """Everything the player sees now: notation, cards off the screen, sideways scroll, a
    covered log entry (the newest ones)."""
    page = table.page
    problems["notation"].update(page_notation(page, lang))
    problems["hand outside the screen"].update(hand_outside(page))
    if sideways(page):
        problems["sideways scroll"].add(f"{sideways(page)} px")
    problems["covered log entry"].update(covered(page, "#log li:nth-last-child(-n+3)"))


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["cs", "ru"])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_hand_by_clicking(
    server: ServerProcess, browser: Any, artifacts: Path, game: str, lang: str, size: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale={"cs": "cs-CZ", "ru": "ru-RU"}[lang]
    )
    table = Table(context.new_page())
    new_table(table, server, game, lang)
    seats = table.page.locator(".felt .seats .seat")
    assert (
        seats.count() == GAMES[game] + 1 and table.page.locator(".seat.pos-bottom.you").count() == 1
    )
    problems: dict[str, set[str]] = {
        "notation": set(),
        "hand outside the screen": set(),
        "sideways scroll": set(),
        "covered log entry": set(),
        "covered breakdown": set(),
    }
    kinds: dict[str, int] = {}
    moves = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and table.last.get("status", "playing") == "playing":
        if not table.my_turn():
            table.page.wait_for_timeout(30)
            continue
        if moves % 3 == 0:
            check_page(table, lang, problems)
        version = table.last["version"]
        kind = play_move(table, game)
        kinds[kind] = kinds.get(kind, 0) + 1
        table.wait_moved(version)
        moves += 1
        # after a move the focus is on the hand (or, for a draw, its move), never on the page
        focus = table.page.evaluate(
            "() => document.activeElement.closest('.bottom, .breakdown') ? ''"
            " : document.activeElement.outerHTML.slice(0, 200)"
        )
        assert not focus, f"after a {kind} the focus is on {focus}"
    assert table.last.get("status") == "finished", (moves, kinds)
    # (what the page was at, should a hand ever end without this seat's moves)
    seen = {k: table.last.get(k) for k in ("status", "version", "seat", "to_act", "players")}
    assert moves >= 5, (kinds, table.page.url, seen)
    if game == "rummy":
        assert kinds.get("draw", 0) >= 2, kinds
    # the end of the hand: a dialog over the table, item by item, then "next"
    dialog = table.page.locator(".breakdown[role=dialog]")
    dialog.wait_for()
    table.page.wait_for_timeout(300)
    check_page(table, lang, problems)
    problems["covered breakdown"].update(
        covered(
            table.page, ".breakdown h2, .breakdown th, .breakdown td, .breakdown dt, .breakdown dd"
        )
    )
    assert dialog.locator("tbody tr").count() >= 2
    table.page.screenshot(path=str(artifacts / f"whole-hand-{game}-{lang}-{size}.png"))
    assert table.page.evaluate("() => document.activeElement.id") == "next-hand"
    table.click("#next-hand")
    assert dialog.count() == 0
    assert not table.errors, table.errors
    found = {what: sorted(items) for what, items in problems.items() if items}
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)
    context.close()


# Counts the cards that fly to the table (app.js animates each with Element.animate).
_COUNT_FLIGHTS = """
window.flights = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.dataset && this.dataset.card) window.flights += 1;
  return animate.apply(this, args);
};
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_played_cards_fly_unless_motion_is_reduced(
    server: ServerProcess, browser: Any, motion: str
) -> None:
    context = browser.new_context(reduced_motion=motion)
    context.add_init_script(_COUNT_FLIGHTS)
    table = Table(context.new_page())
    new_table(table, server, "royal-mastheads", "cs")
    for _ in range(3):
        deadline = time.monotonic() + 20
        while not table.my_turn() and time.monotonic() < deadline:
            table.page.wait_for_timeout(30)
        version = table.last["version"]
        play_move(table, "royal-mastheads")
        table.wait_moved(version)
    table.page.wait_for_timeout(300)
    flights = int(table.page.evaluate("() => window.flights"))
    if motion == "reduce":
        assert flights == 0
    else:
        assert flights >= 3  # my cards and the bots' at least
    assert not table.errors, table.errors
    context.close()
