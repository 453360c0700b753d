"""Accessibility in a real browser: an axe-core scan of every kind of page (no serious or
critical violation), a Royal Casino hand played with the keyboard alone, each move read out
once by a live region, the four-colour deck and names isolated with ``<bdi>``."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.serverproc import ServerProcess

GAMES = ("royal-casino", "rummy", "royal-mastheads")
PLAYERS = {"royal-casino": 2, "rummy": 2, "royal-mastheads": 4}
BLOCKING = ("serious", "critical")


def _axe(page: Any) -> list[dict[str, Any]]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    violations: list[dict[str, Any]] = results.response["violations"]
    return [v for v in violations if v.get("impact") in BLOCKING]


def _readable(violations: list[dict[str, Any]]) -> str:
    """One block per violation: its rule, impact and help, and where (a few targets)."""
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:5]:
            lines.append(f"    at {node['target']}: {node.get('failureSummary', '')!r}")
    return "\n".join(lines)


def assert_no_serious_violations(page: Any, what: str) -> None:
    """Fail with a readable list when axe finds a serious or critical violation."""
    found = _axe(page)
    assert not found, f"axe on {what}:\n{_readable(found)}"


def test_the_scan_fails_on_a_serious_violation(browser: Any) -> None:
    """The check itself can fail: a button without a name is a critical violation."""
    page = browser.new_page()
    page.set_content('<html lang="en"><title>t</title><main><button></button></main></html>')
    with pytest.raises(AssertionError, match=r"\[critical\] button-name"):
        assert_no_serious_violations(page, "a nameless button")
    page.close()


def new_table(page: Any, server: ServerProcess, game: str, lang: str, name: str = "Jiří") -> str:
    """A one-unit table of ``game``: this page's player in seat 1, random bots elsewhere."""
    seats = ["human"] + ["bot:random"] * (PLAYERS[game] - 1)
    answer = page.request.post(
        server.url + "/api/tables", data={"game": game, "seats": seats, "unit": True, "name": name}
    )
    assert answer.ok, answer.text()
    url = str(answer.json()["url"])
    page.goto(f"{server.url}{url}?lang={lang}")
    page.wait_for_selector(".status")
    return url.rsplit("/", 1)[1]


def _wait_my_turn(page: Any, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "() => document.querySelector('.hand .card.selectable, .actions .act')",
        timeout=timeout,
    )


def test_axe_finds_nothing_serious_in_the_lobby_and_a_rules_page(
    server: ServerProcess, browser: Any
) -> None:
    page = browser.new_page()
    for lang in ("en", "cs", "ru"):
        page.goto(f"{server.url}/?lang={lang}")
        page.locator(".game-form:not([hidden]) summary").click()  # the options, shown
        assert_no_serious_violations(page, f"the lobby ({lang})")
    # a refused form: the messages by the fields
    page.fill("input[name=timer]", "601")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#form-errors")
    assert_no_serious_violations(page, "the lobby with a refused form")
    page.goto(f"{server.url}/rules/royal-mastheads?lang=ru#M-10")
    assert_no_serious_violations(page, "a rules page")
    page.close()


@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_nothing_serious_at_a_table_mid_game_and_in_its_replay(
    server: ServerProcess, browser: Any, game: str
) -> None:
    page = browser.new_page()
    table = new_table(page, server, game, "cs")
    _wait_my_turn(page)
    # mid-game: one move made, then a card picked (targets and moves shown)
    keyboard_move(page)
    _wait_my_turn(page)
    page.wait_for_selector(".log li")
    page.locator(".hand .card.selectable, .actions .act").first.focus()
    page.keyboard.press("Enter")
    assert_no_serious_violations(page, f"a {game} table")
    page.keyboard.press("Escape")
    page.click("html")
    page.click("[data-four-colour]")
    assert_no_serious_violations(page, f"a {game} table with the four-colour deck")
    page.click("[data-four-colour]")
    # The player leaves: a bot finishes the game, and its replay opens.
    page.click("[data-cmd=leave]")
    deadline = time.monotonic() + 60
    while page.request.get(f"{server.url}/api/replay/{table}").status == 403:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        page.wait_for_timeout(200)
    page.goto(f"{server.url}/replay/{table}?lang=cs")
    page.wait_for_selector(".replay-controls")
    page.click("#replay-next")
    assert_no_serious_violations(page, f"a {game} replay")
    page.close()


def _focused(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => { const el = document.activeElement;
              return { tag: el.tagName, token: el.dataset.token || null,
                       act: el.dataset.act || null, cls: el.className || "",
                       inHand: !!el.closest('.hand'),
                       pressed: el.getAttribute('aria-pressed') }; }"""
        )
    )


def _tab_to(page: Any, want: str, limit: int = 60) -> dict[str, Any]:
    """Press Tab until the focus is on ``want`` ("card": a playable card of the hand,
    "move": a move button); the focused element."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        f = _focused(page)
        if want == "card" and f["inHand"] and "selectable" in f["cls"]:
            return f
        if want == "move" and f["act"]:
            return f
    raise AssertionError(f"Tab never reached a {want}: the focus is on {_focused(page)}")


def _version(page: Any) -> str:
    return str(page.evaluate("() => document.getElementById('app').dataset.version"))


def keyboard_move(page: Any) -> None:
    """One move with the keyboard: the first playable card (Enter), then Tab to the first
    move and Enter; or, when no card can be picked (a draw), the first move.  Waits for the
    table's next version."""
    before = _version(page)
    card = page.locator(".hand .card.selectable")
    if card.count():
        card.first.focus()
        page.keyboard.press("Enter")
        _tab_to(page, "move")
    else:
        page.locator(".actions .act").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.getElementById('app').dataset.version !== {before!r}", timeout=10_000
    )


def test_a_royal_casino_hand_played_with_the_keyboard_alone(
    server: ServerProcess, browser: Any
) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    new_table(page, server, "royal-casino", "en")
    _wait_my_turn(page)
    # The focus starts at the top of the page: Tab walks to the hand.
    _tab_to(page, "card")
    moves = 0
    ring_seen = False
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if page.locator(".status").inner_text().startswith("Game over"):
            break
        f = _focused(page)
        if not (f["inHand"] and "selectable" in f["cls"]):
            page.wait_for_timeout(50)  # a bot is playing; the focus comes back on my turn
            continue
        before = _version(page)
        # Space picks the card; Escape clears the pick; Enter picks it again.
        page.keyboard.press("Space")
        assert _focused(page)["pressed"] == "true"
        page.keyboard.press("Escape")
        assert page.locator(".card.selected").count() == 0
        assert _focused(page)["pressed"] == "false"
        page.keyboard.press("Enter")
        assert _focused(page)["pressed"] == "true"
        if not ring_seen:
            outline = page.evaluate(
                "() => getComputedStyle(document.activeElement).outlineStyle"
                " + ' ' + getComputedStyle(document.activeElement).outlineWidth"
            )
            assert outline.startswith("solid") and not outline.endswith(" 0px"), outline
            ring_seen = True
        # Tab goes on through the hand to the moves that use the picked card.
        _tab_to(page, "move")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.getElementById('app').dataset.version !== {before!r}",
            timeout=10_000,
        )
        moves += 1
    assert page.locator(".status").inner_text().startswith("Game over"), "the hand did not end"
    assert moves >= 20  # six deals of four cards, two players: at least 24 moves, mine 12+
    assert page.locator(".breakdown tbody th").first.inner_text() == "cards"
    # the end is read out after the hand's last entries
    said = page.locator("#announcer p").all_inner_texts()
    assert said[-1].startswith("Game over"), said
    assert said[-2] == page.locator("#log li").last.inner_text(), said
    context.close()


def test_each_new_log_entry_is_read_out_once(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page()
    new_table(page, server, "royal-mastheads", "ru", name="Ольга")
    _wait_my_turn(page)
    region = page.locator("#announcer")
    assert region.get_attribute("aria-live") == "polite"
    assert page.locator("#log").get_attribute("aria-live") is None
    assert not region.locator("p").all_inner_texts()  # the log so far is not read out
    logged = page.locator("#log li").count()
    page.locator(".hand .card.selectable").first.focus()
    page.keyboard.press("Enter")
    page.locator(".actions .act").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {logged}")
    _wait_my_turn(page)
    said = region.locator("p").all_inner_texts()
    new = page.locator("#log li").all_inner_texts()[logged:]
    entries = [t for t in said if t != "Ваш ход"]
    assert entries, said
    assert entries == new[-len(entries) :], (said, new)  # the log's words, each once
    assert said[0].startswith("Ольга ")  # my card first, in Russian
    # in the log, each name is isolated
    assert page.locator("#log li bdi", has_text="Ольга").count() >= 1
    assert page.locator(".seats bdi").count() == 4
    page.close()


FOUR = {
    "S": "rgb(27, 27, 27)",
    "H": "rgb(198, 40, 40)",
    "D": "rgb(21, 70, 176)",
    "C": "rgb(23, 105, 42)",
}
TWO = {**FOUR, "D": FOUR["H"], "C": FOUR["S"]}


def _sample_colours(page: Any) -> dict[str, str]:
    """The colour of each suit in the lobby's sample of the deck."""
    pairs = page.evaluate(
        """() => Array.from(document.querySelectorAll('.suit-sample span')).map(s =>
             [s.className.slice(2), getComputedStyle(s).color])"""
    )
    return {suit: colour for suit, colour in pairs}


def _face_colours(page: Any) -> dict[str, str]:
    """The colour of each suit among the card faces on the table."""
    pairs = page.evaluate(
        """() => Array.from(document.querySelectorAll('.face[class*=" s-"]')).map(f =>
             [f.getAttribute('class').match(/s-([SHDC])/)[1],
              getComputedStyle(f.querySelector('.rank')).fill])"""
    )
    return {suit: colour for suit, colour in pairs}


def test_the_four_colour_deck_is_switched_and_remembered(
    server: ServerProcess, browser: Any
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/?lang=cs")
    assert _sample_colours(page) == TWO
    switch = page.get_by_role("button", name="Čtyřbarevné karty")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.focus()
    page.keyboard.press("Enter")
    assert switch.get_attribute("aria-pressed") == "true"
    assert _sample_colours(page) == FOUR
    guide = context.new_page()  # the rules pages draw their small cards in the same colours
    guide.goto(f"{server.url}/rules/casino?lang=cs")
    pips = guide.evaluate(
        """() => Object.fromEntries(['S', 'H', 'D', 'C'].map(s =>
             [s, getComputedStyle(document.querySelector('.guide .pip.s-' + s)).color]))"""
    )
    assert pips["D"] == FOUR["D"] and pips["C"] == FOUR["C"], pips
    guide.close()
    new_table(page, server, "royal-casino", "cs")
    page.wait_for_selector(".hand .card")
    toggle = page.get_by_role("button", name="Čtyřbarevné karty")
    assert toggle.get_attribute("aria-pressed") == "true"  # remembered from the lobby
    faces = _face_colours(page)
    assert faces and all(FOUR[suit] == colour for suit, colour in faces.items()), faces
    toggle.focus()
    page.keyboard.press("Space")
    assert toggle.get_attribute("aria-pressed") == "false"
    page.reload()
    page.wait_for_selector(".hand .card")
    assert page.locator(".bar [data-four-colour]").get_attribute("aria-pressed") == "false"
    faces = _face_colours(page)
    assert faces and all(TWO[suit] == colour for suit, colour in faces.items()), faces
    context.close()
