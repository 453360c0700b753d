"""Two people play the same daily challenge in real browsers: the same cards, one attempt
each, a board in order and their replays on one page, stepping together."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_casino import play_one_move
from tests.serverproc import ServerProcess

GAME = "royal-casino"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose challenge is one Royal Casino hand against the random bot."""
    env = {"CARDTABLE_DAILY_DEALS": "1", "CARDTABLE_DAILY_LEVEL": "random"}
    proc = ServerProcess(tmp_path_factory.mktemp("daily"), env).start()
    yield proc
    proc.stop()


def _play_challenge(browser: Any, server: ServerProcess, name: str) -> tuple[Any, str]:
    """A new person starts today's challenge from the daily page and plays it by clicking;
    their page (on the day's board) and the table of their deal."""
    page = browser.new_context().new_page()
    page.goto(f"{server.url}/daily?lang=en")
    card = page.locator(f"#daily-{GAME}")
    card.locator("input[name=name]").fill(name)
    card.get_by_role("button", name="Play today's challenge").click()
    page.wait_for_url("**/t/*")
    table = page.url.split("?")[0].rsplit("/", 1)[1]
    page.wait_for_selector(".status")
    page.wait_for_selector(".hand .card")
    assert page.locator("[data-cmd=leave]").count() == 0  # played to its end
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        status = page.locator(".status").inner_text()
        if status.startswith("Game over"):
            break
        if status == "Your turn" and page.locator(".hand .card.selectable").count():
            play_one_move(page)
        page.wait_for_timeout(30)
    assert page.locator(".status").inner_text().startswith("Game over")
    assert page.locator("#rematch").count() == 0  # a daily deal is played once
    page.get_by_role("link", name="See the day's results").click()
    page.wait_for_url(f"**/daily/{GAME}/*")
    return page, table


def test_two_players_play_the_same_daily_challenge(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    eva, eva_table = _play_challenge(browser, server, "Eva")
    # Jan has not played: Eva's deal is closed to him, and the board has no replays.
    jan_page = browser.new_context().new_page()
    jan_page.goto(f"{server.url}/t/{eva_table}")
    assert jan_page.get_by_text("daily challenge").count() == 1
    assert jan_page.request.get(f"{server.url}/api/record/{eva_table}").status == 403
    jan_page.close()
    jan, jan_table = _play_challenge(browser, server, "Jan")
    assert jan_table != eva_table

    # The same cards: both deals start with the same hands.
    starts = [
        eva.request.get(f"{server.url}/api/replay/{t}").json()["steps"][0]["hands"]
        for t in (eva_table, jan_table)
    ]
    assert starts[0] == starts[1]

    # One attempt each: the day page shows the result, and starting again is refused.
    eva.goto(f"{server.url}/daily?lang=en")
    assert eva.locator(f"#daily-{GAME} .daily-result").inner_text().startswith("Your score:")
    assert eva.locator(f"#daily-{GAME} form").count() == 0
    again = eva.request.post(f"{server.url}/daily/{GAME}/start", form={"name": "Eva"})
    assert again.status == 409

    # The board: best score first, ranks in order, a percentile each.
    jan.reload()
    rows = jan.locator(".daily-board tbody tr")
    assert rows.count() == 2
    scores = [int(s) for s in rows.locator(".score").all_inner_texts()]
    ranks = [int(r) for r in rows.locator(".rank").all_inner_texts()]
    assert scores == sorted(scores, reverse=True)
    assert ranks[0] == 1 and ranks[1] == (1 if scores[0] == scores[1] else 2)
    assert all(re.fullmatch(r"\d+(\.\d)? %", p) for p in rows.locator(".pct").all_inner_texts())

    # Jan replays Eva's game beside his own on one page: two boards that step together.
    rows.filter(has_text="Eva").get_by_role("link", name="Replay").click()
    jan.wait_for_url("**/vs/*")
    jan.wait_for_selector(".rp-board")
    assert jan.locator("iframe").count() == 0
    boards = jan.locator(".rp-board")
    assert boards.count() == 2
    assert jan.locator(".rp-board .rp-name").all_inner_texts() == ["Jan", "Eva"]
    assert jan.locator("header.top").count() == 1  # one site header, one page

    def cards() -> list[list[str]]:
        return [
            boards.nth(i)
            .locator(".rp-seat .rp-card")
            .evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
            for i in range(2)
        ]

    start = cards()
    assert start[0] and start[0] == start[1]  # the same deal on both boards
    # The keys step both boards: each shows its own first move, and Home brings both back.
    jan.keyboard.press("ArrowRight")
    events = [boards.nth(i).locator(".rp-events").inner_text() for i in range(2)]
    assert all(e.strip() for e in events)
    assert cards() != start
    jan.keyboard.press("End")
    assert jan.locator(".rp-board .rp-outcome").count() == 2
    assert jan.locator(".rp-board .rp-breakdown").count() == 2
    jan.keyboard.press("Home")
    assert cards() == start
    jan.locator(".rp-controls [data-key=next]").click()
    assert [boards.nth(i).locator(".rp-events").inner_text() for i in range(2)] == events
    jan.set_viewport_size({"width": 1280, "height": 800})
    jan.screenshot(path=str(artifacts / "daily-side-by-side.png"))
    # On a phone the boards stack, and nothing scrolls sideways.
    jan.set_viewport_size({"width": 390, "height": 844})
    assert jan.evaluate("document.documentElement.scrollWidth") <= 390
    jan.screenshot(path=str(artifacts / "daily-side-by-side-phone.png"))
