"""The lobby and the table page as a Czech or Russian player meets them: seat selectors that
follow the player count, a refused form shown again with the message by the field, a log
that keeps its newest entry in view and a score breakdown readable on a phone."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_mastheads import play_a_card
from tests.games.test_present_words import problems
from tests.serverproc import ServerProcess

SEATS = ".game-form:not([hidden]) .seat-choice"


def _visible_seats(page: Any) -> int:
    return int(page.locator(SEATS).evaluate_all("els => els.filter(e => e.offsetParent).length"))


def _tables(server: ServerProcess) -> int:
    with urllib.request.urlopen(server.url + "/healthz", timeout=10) as r:
        return int(json.loads(r.read())["tables"])


def test_the_seat_selectors_follow_the_player_count(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{server.url}/?lang=cs")
    assert _visible_seats(page) == 2  # Royal Casino: two players by default, not four
    options = page.locator("select[name='royal-casino.seat.1'] option").all_inner_texts()
    assert options[0] == "Člověk" and "Počítač: klubový hráč" in options
    assert not any("level:" in o or "ismcts" in o or "hladový" in o for o in options)
    page.fill("input[name='royal-casino.players']", "4")
    assert _visible_seats(page) == 4
    page.select_option("#game-select", "rummy")
    assert page.locator("#game-select option:checked").inner_text() == "Rummy"
    page.fill("input[name='rummy.players']", "3")
    assert _visible_seats(page) == 3  # not twelve
    page.fill("input[name='rummy.players']", "7")
    assert _visible_seats(page) == 7
    page.select_option("#game-select", "royal-mastheads")
    assert _visible_seats(page) == 4
    page.close()


def test_a_refused_form_comes_back_with_the_message_by_the_field(
    server: ServerProcess, browser: Any
) -> None:
    page = browser.new_page()
    page.goto(f"{server.url}/?lang=ru")
    before = page.locator(".finished-games").inner_text()
    tables = _tables(server)
    page.fill("input[name=name]", "   ")
    page.select_option("#game-select", "rummy")
    page.fill("input[name='rummy.players']", "3")
    page.locator(".game-form:not([hidden]) summary").click()
    page.fill("input[name='rummy.opt.handSize']", "999")
    page.select_option("select[name='rummy.opt.gameMode']", "single")
    page.fill("input[name=timer]", "601")
    with page.expect_navigation() as nav:
        page.click("#new-table button[type=submit]")
    assert nav.value.status == 400
    assert page.locator("#form-errors").inner_text().startswith("Стол не создан")
    assert page.locator("#err-name").inner_text() == "Введите своё имя"
    assert page.locator("#err-timer").inner_text() == "Введите число секунд от 0 до 600"
    hand = page.locator("#err-rummy-opt-handSize")
    assert hand.inner_text() == "Это значение не сочетается с остальными настройками"
    assert hand.is_visible()  # the options' details are opened at the wrong field
    # the player's values are kept, the chosen game and its seats too
    assert page.locator("#game-select").input_value() == "rummy"
    assert page.locator("input[name='rummy.opt.handSize']").input_value() == "999"
    assert page.locator("select[name='rummy.opt.gameMode']").input_value() == "single"
    assert page.locator("input[name=timer]").input_value() == "601"
    assert _visible_seats(page) == 3
    # and nothing was created
    assert _tables(server) == tables
    page.goto(f"{server.url}/?lang=ru")
    assert page.locator(".finished-games").inner_text() == before
    page.close()


FORM_ERRORS = {
    "en": (
        "The table was not created",
        "Enter your name",
        "Enter a number of seconds from 0 to 600",
    ),
    "cs": ("Stůl nebyl založen", "Zadejte své jméno", "Zadejte počet sekund od 0 do 600"),
}


@pytest.mark.parametrize("lang", sorted(FORM_ERRORS))
def test_a_refused_form_speaks_the_page_s_language(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    summary, name, timer = FORM_ERRORS[lang]
    page = browser.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    tables = _tables(server)
    page.fill("input[name=name]", "   ")
    page.fill("input[name=timer]", "-1")
    with page.expect_navigation() as nav:
        page.click("#new-table button[type=submit]")
    assert nav.value.status == 400
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("#form-errors").inner_text().startswith(summary)
    assert page.locator("#err-name").inner_text() == name
    assert page.locator("#err-timer").inner_text() == timer
    # each message is tied to its field for a screen reader
    assert page.locator("input[name=timer]").get_attribute("aria-describedby") == "err-timer"
    assert page.locator("input[name=timer]").get_attribute("aria-invalid") == "true"
    assert _tables(server) == tables
    page.close()


def _new_mastheads_deal(page: Any, server: ServerProcess) -> None:
    page.goto(f"{server.url}/?lang=ru")
    page.fill("input[name=name]", "Ольга")
    page.select_option("#game-select", "royal-mastheads")
    for seat in (1, 2, 3):
        page.select_option(f"select[name='royal-mastheads.seat.{seat}']", "bot:random")
    page.check("input[name=unit]")
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".status")
    assert page.title().startswith("Королевское наказание")


def _newest_entry_in_view(page: Any) -> bool:
    return bool(
        page.evaluate(
            """() => {
              const log = document.getElementById("log");
              const last = log && log.lastElementChild;
              if (!last) return false;
              const box = log.getBoundingClientRect(), item = last.getBoundingClientRect();
              return item.top >= box.top - 1 && item.bottom <= box.bottom + 1;
            }"""
        )
    )


def _readable(page: Any, selector: str, width: int) -> list[str]:
    """The cells of ``selector`` that are cut off or covered (each scrolled into view)."""
    hidden: list[str] = []
    cells = page.locator(selector)
    for i in range(cells.count()):
        cell = cells.nth(i)
        ok = cell.evaluate(
            f"""el => {{
              el.scrollIntoView({{block: "center"}});
              const r = el.getBoundingClientRect();
              const left = r.left + window.scrollX, right = r.right + window.scrollX;
              if (r.width === 0 || left < 0 || right > {width} + 0.5) return false;
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return !!hit && (hit === el || el.contains(hit));
            }}"""
        )
        if not ok:
            hidden.append(cell.inner_text())
    return hidden


def test_a_phone_shows_the_newest_log_entry_and_the_whole_breakdown(
    server: ServerProcess, browser: Any, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    _new_mastheads_deal(page, server)
    overflowed = False
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not page.locator(".breakdown").count():
        if page.locator(".hand .card.selectable").count():
            play_a_card(page)  # on a phone the fanned cards overlap: it clicks the card itself
            log = page.locator("#log")
            if log.evaluate("el => el.scrollHeight > el.clientHeight + 4"):
                overflowed = True
                assert _newest_entry_in_view(page), "the newest log entry is out of sight"
        page.wait_for_timeout(30)
    assert overflowed, "the log never grew longer than its box"
    page.wait_for_selector(".breakdown table")
    page.wait_for_timeout(300)
    assert _newest_entry_in_view(page)
    rows = page.locator(".score-breakdown tbody tr")
    assert rows.count() >= 5
    page.locator(".breakdown").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "breakdown-phone-390x844.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert _readable(page, ".score-breakdown th, .score-breakdown td", 390) == []
    # The lobby lists the finished deal: date, game, players, result, replay; on a phone too.
    table_id = page.url.rsplit("/", 1)[1]
    page.goto(f"{server.url}/?lang=ru")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    row = page.locator(".finished tbody tr", has=page.locator(f"a[href='/replay/{table_id}']"))
    cells = row.locator("td").all_inner_texts()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", cells[0]), cells
    assert cells[1] == "Королевское наказание"
    assert cells[2].startswith("Ольга, Компьютер 2 (случайные ходы)")
    assert cells[3].startswith(("Победитель: ", "Победители: ")), cells[3]
    assert cells[4] == "Запись партии"
    context.close()


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_the_lobby_speaks_in_words_with_every_rule_option_open(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    """Every game's form opened, options included: no rule id, notation or English engine
    word in what a player reads; the rules an option cites are links into its guide."""
    page = browser.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    for game in ("royal-casino", "rummy", "royal-mastheads"):
        page.select_option("#game-select", game)
        page.locator(f"fieldset[data-game='{game}'] details summary").click()
        text = page.locator(f"fieldset[data-game='{game}']").inner_text()
        bad = [line for line in text.splitlines() if problems(line, lang)]
        assert not bad, bad
        links = page.locator(f"fieldset[data-game='{game}'] a.rule-link")
        assert links.count() >= 3
        assert all(
            href.startswith(f"/rules/{game}?lang={lang}#")
            for href in links.evaluate_all("els => els.map(e => e.getAttribute('href'))")
        )
    page.close()
