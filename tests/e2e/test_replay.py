"""The replay viewer in a real browser: a finished game of each game, in Czech and Russian,
on a desktop and a phone: jump to a hand, step with the keys, see each hand's breakdown; only
words and cards on the page, and nothing scrolls sideways."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.serverproc import ServerProcess

GAMES = {
    "royal-casino": (2, {}),
    "rummy": (2, {}),
    "royal-mastheads": (4, {"deals": 2}),
}
"""Each game with its players and options: whole games of at least two hands."""
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

# What notation looks like (the small detector of these tests): the engine's arrows, build
# and meld ids, bracketed values, ASCII card codes, rule ids, the engine's English verbs.
NOTATION = [
    (re.compile(r"->"), "an arrow"),
    (re.compile(r"\b[bM]\d+\b"), "a build or meld id"),
    (re.compile(r"\[[^\]]*\]"), "a bracketed value"),
    (re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b"), "an ASCII card code"),
    (re.compile(r"\([A-Z]{1,2}-?\d+(?:\.\d+)*\)"), "a rule id"),
]
ENGLISH_VERBS = re.compile(
    r"\b(?:build|builds|trail|trails|capture|captures|meld|melds|discard|discards|draw|"
    r"draws|lay off|play|plays|pot|take|takes|sweep)\b",
    re.IGNORECASE,
)


def notation_in(text: str, lang: str) -> list[str]:
    """What in ``text`` (a page's visible text) looks like notation, each with why."""
    found = [f"{why}: {m.group(0)!r}" for rx, why in NOTATION for m in rx.finditer(text)]
    if lang != "en":
        found += [f"an English verb: {m.group(0)!r}" for m in ENGLISH_VERBS.finditer(text)]
    return found


def test_the_notation_detector_finds_notation() -> None:
    """The detector catches each kind of notation the pages once showed, and no words."""
    for bad in ("build QS -> 14 (single): 2C", "Vzít K♦: b1", "Подложить 5♥ к M1",
                "bere [13] kartou K♥", "pravidlo (M-13)", "(R8.3)", "trail JS"):  # fmt: skip
        assert notation_in(bad, "cs"), bad
    for good in ("Eva bere 8♠ kartou 8♦", "Компьютер 2 ходит Q♣", "Kolo 2 · Tah 8 z 48"):
        assert notation_in(good, "cs") == [], good


def _post_json(url: str, data: dict[str, Any]) -> tuple[dict[str, Any], str]:
    req = urllib.request.Request(
        url, json.dumps(data).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        cookies = "; ".join(c.split(";")[0] for c in r.headers.get_all("set-cookie") or [])
        return json.load(r), cookies


def _play_to_the_end(url: str, table: str, cookie: str) -> None:
    """The human seat plays its first legal move each turn until the game is over."""
    from websockets.sync.client import connect

    ws_url = url.replace("http", "ws", 1) + f"/ws/{table}"
    headers = {"Cookie": cookie, "Origin": url}
    with connect(ws_url, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello"}))
        last = ""
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg.get("type") in ("state", "update") and msg.get("status") != "playing":
                return
            if msg.get("type") == "error" and msg.get("code") == "rate_limited":
                time.sleep(float(msg.get("retry_after", 1)))
                ws.send(last)
                continue
            if msg.get("legal"):
                act = {"type": "act", "action": msg["legal"][0]["text"], "version": msg["version"]}
                last = json.dumps(act)
                ws.send(last)


def finished_game(server: ServerProcess, game: str) -> str:
    """A whole game of ``game`` (a person and random bots) played to its end, with at
    least two hands; its table id."""
    players, options = GAMES[game]
    for _ in range(5):
        seats = ["human"] + ["bot:random"] * (players - 1)
        body = {"game": game, "seats": seats, "options": options, "name": "Eva"}
        created, cookie = _post_json(server.url + "/api/tables", body)
        _play_to_the_end(server.url, created["id"], cookie)
        with urllib.request.urlopen(f"{server.url}/api/replay/{created['id']}") as r:
            steps = json.load(r)["steps"]
        if sum(1 for st in steps for e in st["events"] if "breakdown" in e) >= 2:
            return str(created["id"])
    raise AssertionError(f"no game of {game} with two hands in five")


@pytest.fixture(scope="module")
def finished(server: ServerProcess) -> dict[str, str]:
    """A finished game of each game (table ids by game)."""
    return {game: finished_game(server, game) for game in GAMES}


def assert_only_words(page: Any, lang: str, where: str) -> None:
    """No notation in the page's visible text, and nothing wider than the window."""
    text = page.locator("body").inner_text()
    found = notation_in(text, lang)
    assert not found, f"{where}: notation on the page: {found[:5]}"
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{where}: the page scrolls sideways by {wide} px"


def _where(page: Any) -> str:
    return str(page.locator(".rp-where").inner_text())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["cs", "ru"])
@pytest.mark.parametrize("game", GAMES)
def test_the_replay_of_a_finished_game(
    server: ServerProcess, browser: Any, finished: dict[str, str], game: str, lang: str, size: str
) -> None:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/replay/{finished[game]}?lang={lang}")
    page.wait_for_selector(".rp-board")
    label = f"{game} {lang} {size}"
    assert_only_words(page, lang, f"{label}, the start")
    # Every seat's cards are shown.
    assert page.locator(".rp-seat").count() == GAMES[game][0]
    assert page.locator(".rp-seat").first.locator(".rp-card:not(.rp-cardback)").count() > 0

    # Jump to the second hand: the list marks it and the position names it.
    hands = page.locator(".rp-hands button")
    assert hands.count() >= 2
    second = hands.nth(1).inner_text()
    hands.nth(1).click()
    assert page.locator(".rp-hands button[aria-current]").inner_text() == second
    assert _where(page).startswith(second)
    assert page.locator(".rp-steps button[aria-current]").count() == 1
    assert_only_words(page, lang, f"{label}, the second hand")

    # The keys: → and ← step one move, and each step says what happened.
    start, first_move = _where(page), page.locator(".rp-events").first.inner_text()
    assert first_move.strip()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert _where(page) != start and page.locator(".rp-events").first.inner_text().strip()
    assert page.locator(".rp-steps li").nth(2).locator("[aria-current]").count() == 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert _where(page) == start
    assert page.locator(".rp-events").first.inner_text() == first_move
    # One step back from the second hand's start is the end of the first: its breakdown.
    page.keyboard.press("ArrowLeft")
    breakdown = page.locator(".rp-breakdown")
    assert breakdown.count() == 1 and breakdown.is_visible()
    assert page.locator(".rp-hands button[aria-current]").inner_text() == hands.first.inner_text()
    assert breakdown.locator(".rp-bd-side").count() >= 2  # one block a side
    assert breakdown.locator(".rp-total").count() >= 2
    assert_only_words(page, lang, f"{label}, the first hand's breakdown")
    # PageDown goes to the next hand, End to the end of the game (its breakdown and its
    # result), Home back to the deal.
    page.keyboard.press("PageDown")
    assert page.locator(".rp-hands button[aria-current]").inner_text() == second
    page.keyboard.press("End")
    assert page.locator(".rp-breakdown").count() == 1
    assert page.locator(".rp-outcome").is_visible()
    assert_only_words(page, lang, f"{label}, the end")
    page.keyboard.press("Home")
    assert page.locator(".rp-hands button[aria-current]").inner_text() == hands.first.inner_text()
    # The scrubber goes anywhere: dragged all the way, it reaches the end of the game.
    scrub = page.locator(".rp-scrub")
    box = scrub.bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 2, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, y, steps=4)
    page.mouse.move(box["x"] + box["width"] + 20, y, steps=4)
    page.mouse.up()
    assert page.locator(".rp-outcome").is_visible()
    scrub.fill("0")
    assert page.locator(".rp-controls [data-key=back]").is_disabled()
    page.keyboard.press("Home")
    assert page.locator(".rp-controls [data-key=back]").is_disabled()
    # A move chosen from the list.
    page.locator(".rp-steps button").nth(3).click()
    assert page.locator(".rp-steps li").nth(3).locator("[aria-current]").count() == 1
    assert_only_words(page, lang, f"{label}, a move from the list")
    assert errors == []
    page.close()


def test_the_replay_s_words_are_in_every_catalog() -> None:
    """Every word replay.js shows (``t("…")``, ``nt("…")``) is in the server's cs and ru
    catalogs, or the game's, translated."""
    from babel.messages.pofile import read_po

    from cardtable.games import REGISTRY
    from cardtable.server.i18n import LOCALE_DIR

    js = (LOCALE_DIR.parent / "static" / "replay.js").read_text(encoding="utf-8")
    used = {m.group(1) for m in re.finditer(r'\bn?t\(\s*"([^"]+)"', js)}
    used = {u for u in used if not u.endswith(":")}  # a prefix: "suit:" + the suit
    assert "Moves of this hand" in used
    for lang in ("cs", "ru"):
        paths = [LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"]
        for name in REGISTRY.names():
            package = REGISTRY.get(name).resource_package()
            assert package is not None
            folder = Path(__import__(package, fromlist=["_"]).__file__ or "").parent
            paths.append(folder / "locale" / lang / "LC_MESSAGES" / "messages.po")
        ids: dict[str, Any] = {}
        for path in paths:
            with path.open("rb") as fh:
                for m in read_po(fh, locale=lang):
                    if m.id:
                        ids[m.id if isinstance(m.id, str) else m.id[0]] = m.string
        for message in sorted(used):
            assert message in ids, f"{message!r} is in no {lang} catalog"
            assert ids[message] and all(ids[message]), f"{message!r} has no {lang} translation"
