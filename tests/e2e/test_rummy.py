"""Two people play a Rummy round against each other through an invite link."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.serverproc import ServerProcess


class Seat:
    """One browser context at the table, with the last state its websocket received."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.last: dict[str, Any] = {}
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") in ("state", "update"):
            self.last = msg
        elif msg.get("type") == "patch" and self.last.get("version") == msg["base"]:
            # what changed since the last message (the page applies it the same way)
            view = {**self.last["view"], **msg["view"]}
            self.last = {**self.last, **msg["set"], "version": msg["version"], "view": view}

    def status(self) -> str:
        return str(self.page.locator(".status").inner_text())

    def my_turn(self) -> bool:
        m = self.last
        return (
            bool(m)
            and m["to_act"] == m["seat"]
            and bool(m["legal"])
            and (
                self.page.evaluate("() => Number(document.getElementById('app').dataset.version)")
                == m["version"]
            )
        )

    def play(self) -> str:
        """Play one move, then wait until the page has moved on."""
        version = self.last["version"]
        kind = self._play()
        with contextlib.suppress(PlaywrightTimeoutError):  # a selection that made no move
            self.page.wait_for_function(
                "() => (document.getElementById('app')?.dataset.version"
                f" ?? '{version}') !== '{version}'",
                timeout=5_000,
            )
        return kind

    def _play(self) -> str:
        """Meld when possible (clicking each card), else draw, else discard."""
        self.page.keyboard.press("Escape")  # clears a selection left from a previous try
        legal = self.last["legal"]
        version = self.last["version"]
        melds = [a for a in legal if a["text"].startswith("MELD")]
        if melds:
            meld = melds[0]
            for token in meld["cards"]:
                card = self.page.locator(f".hand [data-token='{token}']")
                if self.last["version"] != version or not card.count():
                    break  # the meld went out already (one move was left), or the table moved
                card.click(timeout=5_000)
            if (
                self.last["version"] == version
                and self.page.locator(f".actions [data-act='{meld['text']}']").count()
            ):
                self.page.click(f".actions [data-act='{meld['text']}']", timeout=5_000)
            return "meld"
        if any(a["text"] == "DRAW_STOCK" for a in legal):
            self.page.click("[data-act='DRAW_STOCK']")
            return "draw"
        card = self.page.locator(".hand .card.selectable").first
        if not card.count():
            raise AssertionError(json.dumps(self.last)[:3000])
        card.click()
        self.page.locator(".actions .act").first.click()
        return "other"


def two_seat_table(
    server: ServerProcess, browser: Any, guest_locale: str = "en-US"
) -> tuple[Seat, Seat]:
    """A one-round Rummy table: the host opens it (in English), the guest sits through the
    invite link (in the language of ``guest_locale``)."""
    host = Seat(browser.new_context().new_page())
    host.page.goto(f"{server.url}/?lang=en")
    host.page.fill("input[name=name]", "Jiří")
    host.page.select_option("#game-select", "rummy")
    host.page.select_option("select[name='rummy.seat.1']", "human")
    host.page.check("input[name=unit]")
    host.page.click("#new-table button[type=submit]")
    host.page.wait_for_url("**/t/*")
    host.page.wait_for_selector("#invite")
    guest = Seat(browser.new_context(locale=guest_locale).new_page())
    guest.page.goto(host.page.input_value("#invite"))
    guest.page.locator("[data-cmd=sit]").click()
    guest.page.wait_for_selector(".seat.you")
    return host, guest


def test_two_people_play_a_rummy_round_by_invite(server: ServerProcess, browser: Any) -> None:
    """An English host and a Czech guest play a round; each reads its breakdown in their
    own language."""
    host, guest = two_seat_table(server, browser, guest_locale="cs-CZ")
    while host.last["seats"][1]["open"]:
        host.page.wait_for_timeout(20)
    kinds: dict[str, int] = {}
    deadline = time.monotonic() + 100
    while time.monotonic() < deadline:
        if host.last.get("status") == "finished" and guest.last.get("status") == "finished":
            break
        for seat in (host, guest):
            if seat.my_turn():
                kind = seat.play()
                kinds[kind] = kinds.get(kind, 0) + 1
        host.page.wait_for_timeout(20)
    assert host.last["status"] == guest.last["status"] == "finished", kinds
    assert kinds.get("draw", 0) > 2 and kinds.get("other", 0) > 2
    assert host.status().startswith("Game over") and guest.status().startswith("Konec hry")
    # The round's breakdown: cards left with their penalties, going out, the totals.
    for seat, title, labels in (
        (host, "Score breakdown — Round 1", ["cards left", "penalty points", "total"]),
        (guest, "Rozpis bodů — Kolo 1", ["karty v ruce", "trestné body", "celkem"]),
    ):
        breakdown = seat.page.locator(".breakdown[role=dialog]")
        breakdown.wait_for()
        assert breakdown.locator("#breakdown-title").inner_text().startswith(title)
        # rows of numbers in the table, the cards left item by item under it
        rows = breakdown.locator("tbody th, .items h3").all_inner_texts()
        assert {labels[0], labels[1], labels[-1]} <= set(rows), rows
        assert breakdown.locator("tbody th").last.inner_text() == labels[-1]
        columns = breakdown.locator("thead th[scope=col]").all_inner_texts()
        assert len(columns) == 2 and columns[0] == "Jiří", columns
        totals = breakdown.locator("tr.total").last.locator("td").all_inner_texts()
        assert [int(v) for v in totals] == host.last["view"]["scores"], totals
    host.page.context.close()
    guest.page.context.close()


def test_a_card_taken_from_the_discard_pile_shows_by_the_takers_seat(
    server: ServerProcess, browser: Any
) -> None:
    """Everyone saw the pickup: the other player's page shows the card by the taker's seat."""
    host, guest = two_seat_table(server, browser)
    deadline = time.monotonic() + 20
    while not (host.my_turn() or guest.my_turn()) and time.monotonic() < deadline:
        host.page.wait_for_timeout(20)
    taker, other = (host, guest) if host.my_turn() else (guest, host)
    top = taker.last["view"]["discard"][-1]
    assert other.page.locator(".seat .known").count() == 0
    taker.page.click("[data-act='TAKE_DISCARD']")
    other.page.wait_for_selector(".seat .known", timeout=10_000)
    assert other.last["view"]["known_in_hand"][taker.last["seat"]] == [top]
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    token = top.rstrip("'")
    shown = "🃏" if token == "JK" else token[:-1] + suits[token[-1]]
    assert other.page.locator(".seat .known").inner_text() == f"holds {shown}"
    assert taker.page.locator(".seat .known").count() == 0  # not shown by your own seat
    host.page.context.close()
    guest.page.context.close()
