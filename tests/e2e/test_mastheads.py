"""Royal Mastheads in the browser: a deal against three bots, and the last trick on demand."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.serverproc import ServerProcess


def play_a_card(page: Any) -> bool:
    """Pick the first playable card and play the first move using it, then wait for the
    table's next version.  When an update clears the selection first (the table moved on
    between the look and the click), nothing is played (``False``): the caller looks again."""
    version = page.evaluate("() => document.getElementById('app').dataset.version")
    page.locator(".hand .card.selectable").first.dispatch_event("click")
    try:
        page.locator(".actions .act").first.click(timeout=3_000)
    except PlaywrightTimeoutError:
        return False
    page.wait_for_function(
        f"() => (document.getElementById('app')?.dataset.version ?? {version!r}) !== {version!r}",
        timeout=10_000,
    )
    return True


def test_a_deal_of_royal_mastheads_against_bots(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{server.url}/?lang=en")
    page.select_option("#game-select", "royal-mastheads")
    for seat in (1, 2, 3):
        page.select_option(f"select[name='royal-mastheads.seat.{seat}']", "bot:random")
    page.check("input[name=unit]")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".status")
    moves = 0
    saw_last_trick = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = page.locator(".status").inner_text()
        if status.startswith("Game over"):
            break
        if status == "Your turn" and page.locator(".hand .card.selectable").count():
            if not saw_last_trick and page.locator("[data-cmd=last-trick]").count():
                page.click("[data-cmd=last-trick]")
                saw_last_trick = page.locator(".trick .played").count() >= 4
            moves += play_a_card(page)
        page.wait_for_timeout(30)
    assert page.locator(".status").inner_text().startswith("Game over")
    assert moves >= 13 and saw_last_trick
    page.close()


def test_the_deal_score_breakdown_is_a_translated_table(
    server: ServerProcess, browser: Any
) -> None:
    page = browser.new_page()
    page.goto(f"{server.url}/?lang=ru")
    page.select_option("#game-select", "royal-mastheads")
    for seat in (1, 2, 3):
        page.select_option(f"select[name='royal-mastheads.seat.{seat}']", "bot:random")
    page.check("input[name=unit]")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".status")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not page.locator(".breakdown").count():
        if page.locator(".hand .card.selectable").count():
            play_a_card(page)
        page.wait_for_timeout(30)
    table = page.locator(".breakdown table")
    assert "Раздача 1" in page.locator(".breakdown #breakdown-title").inner_text()
    labels = table.locator("tbody th").all_inner_texts()
    assert labels[:2] == ["взятки", "очки за карты"] and "всего" in labels
    assert table.locator("thead th[scope=col]").count() == 4
    assert table.locator("tr.total").count() == 2
    assert (
        sum(int(v) for v in table.locator("tbody tr").first.locator("td").all_inner_texts()) == 11
    )
    page.close()
