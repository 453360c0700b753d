"""A person plays a whole Royal Casino hand against a bot by clicking, in a real browser."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.serverproc import ServerProcess


def new_unit_table(page: Any, server: ServerProcess, lang: str = "en") -> None:
    """Create a one-hand Royal Casino table against the random bot through the lobby form."""
    page.goto(f"{server.url}/?lang={lang}")
    page.fill("input[name=name]", "Jiří")
    page.select_option("#game-select", "royal-casino")
    page.select_option("select[name='royal-casino.seat.1']", "bot:random")
    page.check("input[name=unit]")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".status")


def play_one_move(page: Any) -> None:
    """Click a playable card in the hand, then a move that uses it; wait for the update."""
    version = page.evaluate("() => document.getElementById('app').dataset.version")
    card = page.locator(".hand .card.selectable").first
    card.click()
    page.locator(".actions .act").first.click()
    page.wait_for_function(
        f"() => (document.getElementById('app')?.dataset.version ?? {version!r}) !== {version!r}",
        timeout=10_000,
    )


def test_a_person_plays_a_whole_hand_by_clicking(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page()
    new_unit_table(page, server)
    moves = 0
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        status = page.locator(".status").inner_text()
        if status.startswith("Game over"):
            break
        if status == "Your turn" and page.locator(".hand .card.selectable").count():
            version = page.evaluate("() => document.querySelector('.status').textContent")
            del version
            play_one_move(page)
            moves += 1
            page.wait_for_function(
                "() => !document.querySelector('.hand .card.selected')", timeout=10_000
            )
        page.wait_for_timeout(50)
    assert page.locator(".status").inner_text().startswith("Game over"), "the hand did not end"
    assert moves >= 20  # 6 deals of 4 cards
    assert page.locator(".breakdown").count() == 1
    labels = page.locator(".breakdown tbody th").all_inner_texts()
    assert labels[:2] == ["cards", "spades"] and labels[-2:] == ["hand points", "match score"]
    assert page.locator(".log li").count() > 20
    # The replay, step by step, with every hand shown.
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector(".rp-seats")
    assert page.locator(".rp-seat").count() == 2
    assert page.locator(".rp-seat").nth(1).locator(".rp-card").count() == 4
    page.click("#replay-next")
    page.wait_for_function(
        "() => !!document.querySelectorAll('.rp-steps li')[1]?.querySelector('[aria-current]')"
    )
    assert page.locator(".rp-events li").count() >= 1  # the move, said in words
    page.close()


def test_keyboard_play_and_a_hint(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page()
    new_unit_table(page, server)
    page.wait_for_function(
        "() => document.querySelector('.status')?.textContent === 'Your turn'"
        " && document.querySelector('.hand .card.selectable')"
    )
    version = page.evaluate("() => document.getElementById('app').dataset.version")
    page.click("[data-cmd=hint]")
    page.wait_for_selector(".hint-text")
    assert page.locator(".hinted").count() >= 1
    page.locator(".hand .card.selectable").first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-pressed')") == "true"
    for _ in range(40):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => !!document.activeElement.dataset.act"):
            break
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => (document.getElementById('app')?.dataset.version ?? {version!r}) !== {version!r}"
    )
    page.close()


def test_phone_screenshot(server: ServerProcess, browser: Any, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    new_unit_table(page, server, "cs")
    page.wait_for_selector(".hand .card")
    cards = page.locator(".hand .card")
    box = cards.last.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    page.screenshot(path=str(artifacts / "table-phone-390x844.png"), full_page=True)
    assert (artifacts / "table-phone-390x844.png").stat().st_size > 10_000
    context.close()
