"""Sorting the hand in a real browser: by rank, by suit, by dragging and by keyboard; the
order is kept across a reload."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_casino import new_unit_table
from tests.serverproc import ServerProcess

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "SHCD"


def _hand(page: Any) -> list[str]:
    return list(
        page.locator(".hand .card[data-token]").evaluate_all("els => els.map(e => e.dataset.token)")
    )


def test_sorting_dragging_and_keyboard_order_survive_a_reload(
    server: ServerProcess, browser: Any
) -> None:
    page = browser.new_context().new_page()
    new_unit_table(page, server)
    page.wait_for_selector(".hand .card")
    page.get_by_role("button", name="Sort by rank").click()
    hand = _hand(page)
    key = [(RANKS.index(c[:-1]), SUITS.index(c[-1])) for c in hand]
    assert key == sorted(key) and len(hand) == 4
    page.get_by_role("button", name="Sort by suit").click()
    hand = _hand(page)
    key = [(SUITS.index(c[-1]), RANKS.index(c[:-1])) for c in hand]
    assert key == sorted(key)
    # Drag the first card onto the last place.
    page.drag_and_drop(".hand .slot >> nth=0", ".hand .slot >> nth=3")
    dragged = hand[1:] + hand[:1]
    assert _hand(page) == dragged
    # Shift+Right moves the focused card one place on.
    page.locator(f'.hand .card[data-token="{dragged[0]}"]').focus()
    page.keyboard.press("Shift+ArrowRight")
    moved = [dragged[1], dragged[0], *dragged[2:]]
    assert _hand(page) == moved
    page.reload()
    page.wait_for_selector(".hand .card")
    assert _hand(page) == moved  # kept for this table and seat
