#!/usr/bin/env python3
"""Pictures of cardtable for the README, made in a real browser (Playwright and Chromium).

    python scripts/screenshots.py                 # writes docs/screenshots/*.png
    python scripts/screenshots.py --out /tmp/pics --langs en ru

The script writes seeded tables into a new SQLite database in a temporary folder (a table
of each game at the start of a hand, round or deal, in the middle of it with the person's
turn, and at its end), starts ``cardtable serve`` on a free port with that folder, opens
each page in Chromium and saves, for each language:

- ``table-<game>-<moment>-<size>-<lang>.png``: the table of each game at the ``start``, in
  the middle (``mid``) and at the ``end`` of a hand (its score breakdown), on a desktop
  (``desktop``, 1280×800) and on a phone (``phone``, 390×844);
- ``lobby-<lang>.png``: the start page, with the finished hands in the list;
- ``rules-<lang>.png``: the Royal Casino guide, opened at a rule.

The replays (:func:`replay_pictures`) are whole games of each game played by the greedy
bot, and one deal of yesterday's Royal Casino challenge played by two people:

- ``replay-<game>-<size>-<lang>.png``: the replay of each game at the end of its first hand
  (its breakdown), on a desktop (``desktop``, 1280×800) and a phone (``phone``, 390×844);
- ``daily-compare-<size>-<lang>.png``: the two players' boards of the deal, a few moves in.

The tables come from fixed seeds and the greedy bot's seeded moves, so the same pictures
come out each time (but for the date in the list of finished games).  The pictures are
reduced to 256 colours with Pillow when it is installed.  Chromium is ``--chromium``, else
``$CARDTABLE_CHROMIUM``, else ``/usr/bin/chromium``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardtable.games import get_game
from cardtable.server.daily import today
from cardtable.server.hub import player_id_of
from cardtable.server.routes.web import PLAYER_COOKIE
from cardtable.server.seats import Meta, Seat
from cardtable.server.store import ActionLine, Store, TableRow
from cardtable.tables.table import Table

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "screenshots-player-token"
NAME = {"en": "Alice", "cs": "Jiří", "ru": "Ольга"}
WIDTH, HEIGHT = 1280, 800
SIZES = {"desktop": (WIDTH, HEIGHT), "phone": (390, 844)}
"""The screens the tables are shown on, by name: a laptop and a phone."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


@dataclass(frozen=True)
class Scene:
    """A seeded table: ``moves`` greedy moves are made, then more until the person (seat
    P1) is to play; ``finish`` plays the unit to its end instead."""

    key: str
    game: str
    players: int
    seed: int
    moves: int
    finish: bool = False


SCENES = (
    Scene("royal-casino-start", "royal-casino", 2, 11, 0),
    Scene("royal-casino-mid", "royal-casino", 2, 11, 9),
    Scene("royal-casino-end", "royal-casino", 2, 7, 0, finish=True),
    Scene("rummy-start", "rummy", 2, 5, 0),
    Scene("rummy-mid", "rummy", 2, 5, 14),
    Scene("rummy-end", "rummy", 2, 5, 0, finish=True),
    Scene("royal-mastheads-start", "royal-mastheads", 4, 3, 0),
    Scene("royal-mastheads-mid", "royal-mastheads", 4, 3, 22),
    Scene("royal-mastheads-end", "royal-mastheads", 4, 3, 0, finish=True),
)
"""Each game at the start, in the middle and at the end of a hand (the key names the
picture: ``<game>-<moment>``)."""


def _lines(scene: Scene) -> tuple[list[ActionLine], Table]:
    """The scene's action lines, from a table where the greedy bot plays every seat."""
    game = get_game(scene.game)
    table = Table(
        game, scene.players, scene.seed, seats=["bot:greedy"] * scene.players, scope="unit"
    )
    lines: list[ActionLine] = []
    while not table.is_over:
        if not scene.finish and len(lines) >= scene.moves and table.to_act == 0:
            break
        update = table.step_bot()
        lines.append(ActionLine(update.version, update.seat, update.action))
    return lines, table


def _row(scene: Scene, lang: str) -> tuple[TableRow, list[ActionLine], Table]:
    """The stored table of a scene for the person playing in ``lang``."""
    lines, table = _lines(scene)
    seats = [Seat("human", NAME[lang], owner=player_id_of(TOKEN))] + [
        Seat("bot", "greedy", level="greedy") for _ in range(scene.players - 1)
    ]
    row = TableRow(
        id=f"{scene.key}-{lang}",
        game=scene.game,
        players=scene.players,
        seed=scene.seed,
        scope="unit",
        options=dict(table.record.options),
        seats=["human:" + NAME[lang]] + ["bot:greedy"] * (scene.players - 1),
        start=None,
        meta=Meta(seats, unit=True).to_json(),
    )
    return row, lines, table


def write_tables(data: Path, langs: Sequence[str]) -> None:
    """Every scene, for every language, into the SQLite database the server will use."""
    store = Store(f"sqlite:///{data / 'cardtable.sqlite3'}")
    try:
        with store.engine.begin() as conn:
            Store.save_player(conn, player_id_of(TOKEN), TOKEN, NAME[langs[0]])
            for lang in langs:
                for scene in SCENES:
                    row, lines, table = _row(scene, lang)
                    Store.create_table(conn, row)
                    Store.set_meta(conn, row.id, row.meta, seat_players={0: player_id_of(TOKEN)})
                    outcome = table.outcome()
                    if lines:
                        Store.append_actions(
                            conn,
                            row.id,
                            lines,
                            status="finished" if outcome is not None else None,
                            result=None if outcome is None else outcome.to_json(),
                        )
    finally:
        store.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(data: Path) -> Iterator[str]:
    """``cardtable serve`` on a free port with ``data`` as its folder; yields its URL."""
    port = _free_port()
    env = {
        **os.environ,
        "CARDTABLE_DATA": str(data),
        "CARDTABLE_LEAVE_GRACE": "600",
        "CARDTABLE_BOT_DELAY": "0",
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    with (data / "server.log").open("ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable.cli.main", "serve", "--port", str(port)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError((data / "server.log").read_text())
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _shrink(path: Path) -> None:
    """The picture in 256 colours (a third of the size), when Pillow is there."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as img:
        small = img.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def _shot(page: Page, path: Path) -> Path:
    """The page as it is now, saved to ``path``."""
    page.mouse.move(0, 0)
    page.wait_for_timeout(150)  # the last drawing settles
    page.screenshot(path=str(path))
    _shrink(path)
    return path


def _settled(page: Page, scene: Scene) -> None:
    """Wait until the table is drawn (and, at the end of a hand, its breakdown shown)."""
    page.wait_for_function("() => !document.querySelector('#app .loading')", timeout=15_000)
    if scene.finish:
        with contextlib.suppress(Exception):
            page.wait_for_selector(".breakdown table", timeout=5_000)
    page.wait_for_timeout(400)  # cards in motion come to rest


def tables(url: str, out: Path, lang: str, browser: Browser) -> list[Path]:
    """Every scene of every game in ``lang``, at each size; the files written."""
    written: list[Path] = []
    for size, (width, height) in SIZES.items():
        phone = size == "phone"
        context = browser.new_context(
            viewport={"width": width, "height": height},
            locale=lang,
            is_mobile=phone,
            has_touch=phone,
        )
        context.add_cookies([{"name": PLAYER_COOKIE, "value": TOKEN, "url": url}])
        page = context.new_page()
        for scene in SCENES:
            page.goto(f"{url}/t/{scene.key}-{lang}?lang={lang}")
            _settled(page, scene)
            written.append(_shot(page, out / f"table-{scene.key}-{size}-{lang}.png"))
        context.close()
    return written


def pages(url: str, out: Path, lang: str, browser: Browser) -> list[Path]:
    """The lobby and a guide in ``lang`` on a desktop; the files written."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale=lang)
    context.add_cookies([{"name": PLAYER_COOKIE, "value": TOKEN, "url": url}])
    page = context.new_page()
    page.goto(f"{url}/?lang={lang}")
    written = [_shot(page, out / f"lobby-{lang}.png")]
    page.goto(f"{url}/rules/royal-casino?lang={lang}#C9.1")
    page.wait_for_selector(".guide")
    written.append(_shot(page, out / f"rules-{lang}.png"))
    context.close()
    return written


def take(url: str, out: Path, langs: Sequence[str], chromium: str) -> list[Path]:
    """Open every page in each language and save its picture; the files written."""
    from playwright.sync_api import sync_playwright

    written: list[Path] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for lang in langs:
            written += pages(url, out, lang, browser)
            written += tables(url, out, lang, browser)
        browser.close()
    return written


@dataclass(frozen=True)
class ReplayScene:
    """A whole game played by the greedy bot in every seat, for its replay."""

    game: str
    players: int
    seed: int
    options: tuple[tuple[str, object], ...] = ()


REPLAYS = (
    ReplayScene("royal-casino", 2, 11),
    ReplayScene("rummy", 2, 5),
    ReplayScene("royal-mastheads", 4, 3, (("deals", 2),)),
)
"""The games whose replays are pictured (Royal Mastheads: two deals)."""
RIVAL = ("screenshots-rival-token", {"en": "Bob", "cs": "Petr", "ru": "Иван"})
"""The other player of the daily comparison: their token and name by language."""
REPLAY_SIZES = {"desktop": (WIDTH, HEIGHT), "phone": (390, 844)}
"""The screens the replays are shown on."""


def _whole_game(
    scene: ReplayScene, seed: int, scope: str, first: str
) -> tuple[list[ActionLine], Table]:
    """``scene`` played to its end (seat 0 by the bot ``first``, the others greedy): its
    action lines and the table."""
    table = Table(
        get_game(scene.game),
        scene.players,
        seed,
        seats=[first] + ["bot:greedy"] * (scene.players - 1),
        options=dict(scene.options),
        scope="unit" if scope == "unit" else "match",
    )
    lines: list[ActionLine] = []
    while not table.is_over:
        update = table.step_bot()
        lines.append(ActionLine(update.version, update.seat, update.action))
    return lines, table


def _store_finished(
    conn: Any, table_id: str, scene: ReplayScene, person: tuple[str, str], scope: str, first: str
) -> None:
    """A finished table of ``scene`` into the database: seat 0 the ``person`` (their
    token and name), played by the bot ``first``."""
    lines, table = _whole_game(scene, scene.seed, scope, first)
    owner = player_id_of(person[0])
    seats = [Seat("human", person[1], owner=owner)] + [
        Seat("bot", "greedy", level="greedy") for _ in range(scene.players - 1)
    ]
    row = TableRow(
        id=table_id,
        game=scene.game,
        players=scene.players,
        seed=scene.seed,
        scope=scope,
        options=dict(table.record.options),
        seats=["human:" + person[1]] + ["bot:greedy"] * (scene.players - 1),
        start=None,
        meta=Meta(seats, unit=scope == "unit").to_json(),
    )
    Store.create_table(conn, row)
    Store.set_meta(conn, table_id, row.meta, seat_players={0: owner})
    outcome = table.outcome()
    Store.append_actions(
        conn,
        table_id,
        lines,
        status="finished",
        result=None if outcome is None else outcome.to_json(),
    )


def write_replay_tables(data: Path, langs: Sequence[str]) -> None:
    """The finished games of :data:`REPLAYS` and yesterday's Royal Casino challenge (one
    deal, played by the person and by :data:`RIVAL`), for every language."""
    day = today() - timedelta(days=1)
    store = Store(f"sqlite:///{data / 'cardtable.sqlite3'}")
    try:
        with store.engine.begin() as conn:
            for lang in langs:
                for scene in REPLAYS:
                    table_id = f"replay-{scene.game}-{lang}"
                    _store_finished(
                        conn, table_id, scene, (TOKEN, NAME[lang]), "match", "bot:greedy"
                    )
            # One name per person: the challenge is played under the first language's names.
            rival = (RIVAL[0], RIVAL[1][langs[0]])
            Store.save_player(conn, player_id_of(rival[0]), rival[0], rival[1])
            daily = ReplayScene(REPLAYS[0].game, REPLAYS[0].players, 2026)
            for person, first in (((TOKEN, NAME[langs[0]]), "bot:greedy"), (rival, "bot:random")):
                pid = player_id_of(person[0])
                table_id = f"daily-{pid[:8]}"
                _store_finished(conn, table_id, daily, person, "unit", first)
                Store.start_attempt(conn, day, daily.game, pid, 1)
                Store.add_deal(conn, day, daily.game, pid, 0, table_id)
                Store.settle(conn, day, daily.game, pid)
    finally:
        store.close()


def replay_pictures(url: str, out: Path, langs: Sequence[str], chromium: str) -> list[Path]:
    """The replay of each game at the end of its first hand and the daily comparison a few
    moves in, at both sizes in each language; the files written."""
    from playwright.sync_api import sync_playwright

    day = (today() - timedelta(days=1)).isoformat()
    compare = f"/daily/{REPLAYS[0].game}/{day}/vs/{player_id_of(RIVAL[0])}"
    written: list[Path] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for lang in langs:
            for size, (width, height) in REPLAY_SIZES.items():
                context = browser.new_context(
                    viewport={"width": width, "height": height}, locale=lang
                )
                context.add_cookies([{"name": PLAYER_COOKIE, "value": TOKEN, "url": url}])
                page = context.new_page()
                for scene in REPLAYS:
                    page.goto(f"{url}/replay/replay-{scene.game}-{lang}?lang={lang}")
                    page.wait_for_selector(".rp-board")
                    page.locator(".rp-hands button").nth(1).click()
                    page.keyboard.press("ArrowLeft")  # the end of the first hand
                    if size == "phone":  # a desktop shows it below the title
                        page.locator(".rp-breakdown").evaluate("e => e.scrollIntoView()")
                    name = f"replay-{scene.game}-{size}-{lang}.png"
                    written.append(_shot(page, out / name))
                page.goto(f"{url}{compare}?lang={lang}")
                page.wait_for_selector(".rp-board")
                for _ in range(12):  # where the two players' games part
                    page.keyboard.press("ArrowRight")
                written.append(_shot(page, out / f"daily-compare-{size}-{lang}.png"))
                context.close()
        browser.close()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Make the pictures; print each file written."""
    parser = argparse.ArgumentParser(
        prog="python scripts/screenshots.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="Needs the test extra (Playwright) and Chromium. The README shows the pictures.",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "docs" / "screenshots",
        help="the folder for the PNG files (default: docs/screenshots)",
    )
    parser.add_argument(
        "--langs",
        nargs="+",
        default=["en", "cs", "ru"],
        choices=sorted(NAME),
        help="the page languages (default: en cs ru)",
    )
    parser.add_argument(
        "--chromium",
        default=os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium"),
        help="the Chromium executable (default: $CARDTABLE_CHROMIUM or /usr/bin/chromium)",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cardtable-shots-") as tmp:
        data = Path(tmp)
        write_tables(data, args.langs)
        write_replay_tables(data, args.langs)
        with serving(data) as url:
            pictures = take(url, args.out, args.langs, args.chromium)
            pictures += replay_pictures(url, args.out, args.langs, args.chromium)
            for path in pictures:
                print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
