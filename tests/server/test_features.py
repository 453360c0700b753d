"""Seats handed to bots, the move timer, ratings, replays, the lobby form and the catalogs."""

from __future__ import annotations

import importlib
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from cardtable.core.record import Record, replay
from cardtable.games import REGISTRY
from cardtable.server.i18n import LANGUAGES, LOCALE_DIR, translator
from tests.serverproc import Player, ServerProcess

SERVER = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "server"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("features")).start()
    yield proc
    proc.stop()


def get(url: str, token: str | None = None, lang: str | None = None) -> tuple[int, str]:
    headers = {}
    if token:
        headers["Cookie"] = f"ct_player={token}"
    if lang:
        headers["Accept-Language"] = lang
    req = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def play_out(sock: Any, seat: int) -> dict[str, Any]:
    """Play the first legal action whenever ``seat`` is to act, until the game ends."""
    msg = sock.last
    while msg["status"] == "playing":
        if msg["to_act"] == seat and msg["legal"]:
            sock.send({"type": "act", "action": msg["legal"][0]["text"], "version": msg["version"]})
        msg = sock.until(lambda m: m["type"] in ("update", "error"))
        if msg["type"] == "error":
            msg = sock.hello()
    return dict(msg)


def test_a_gone_player_is_replaced_by_a_bot(server: ServerProcess) -> None:
    alice, bob = Player(server, "t-alice"), Player(server, "t-bob")
    table = alice.create(game="royal-casino", seats=["human", "human"], unit=True)
    a, b = alice.connect(table), bob.connect(table)
    a.hello()
    b.hello()
    b.send({"type": "sit", "seat": 1, "name": "Bob"})
    a.until(lambda m: m["type"] == "update" and not m["seats"][1]["open"])
    error = a.error({"type": "replace", "seat": 1})  # Bob is still here
    assert error["code"] == "forbidden"
    b.close()
    a.until(lambda m: m["type"] == "update" and not m["seats"][1]["connected"])
    time.sleep(1.1)  # CARDTABLE_LEAVE_GRACE=1 in the test server
    a.send({"type": "replace", "seat": 1})
    msg = a.until(lambda m: m["type"] == "update" and m["seats"][1]["kind"] == "bot")
    assert msg["seats"][1]["connected"]
    final = play_out(a, 0)
    assert final["status"] == "finished"


def test_the_last_human_leaving_abandons_the_table(server: ServerProcess) -> None:
    alice = Player(server, "t-alice2")
    table = alice.create(game="royal-casino", seats=["human", "bot:random"], unit=True)
    a = alice.connect(table)
    a.hello()
    a.send({"type": "leave"})
    msg = a.until(lambda m: m["type"] == "update" and m["status"] == "abandoned")
    assert msg["seat"] is None
    status, body = get(f"{server.url}/api/replay/{table}")
    assert status == 200 and json.loads(body)["status"] == "abandoned"


def test_the_move_timer_plays_for_a_slow_player(server: ServerProcess) -> None:
    alice = Player(server, "t-alice3")
    table = alice.create(game="royal-casino", seats=["human", "bot:random"], unit=True, timer=0.5)
    a = alice.connect(table)
    first = a.hello()
    assert first["timer"] == 0.5
    # Alice's turn comes with the time she has left.
    while not (a.last["to_act"] == 0 and a.last["legal"] and a.last["remaining"] is not None):
        a.until(lambda m: m["type"] == "update")
    assert 0 <= a.last["remaining"] <= 0.5
    version = a.last["version"]
    # Alice does nothing: the timer plays for her.
    a.until(lambda m: m["type"] == "update" and m["version"] > version, timeout=10)


def test_rated_tables_rate_players_and_show_on_the_player_page(server: ServerProcess) -> None:
    alice = Player(server, "t-alice4")
    table = alice.create(
        game="royal-casino", seats=["human", "bot:random"], unit=True, rated=True, name="Alice"
    )
    a = alice.connect(table)
    state = a.hello()
    assert state["rated"] and not state["hints"]
    assert a.error({"type": "hint"})["code"] == "forbidden"
    final = play_out(a, 0)
    assert final["status"] == "finished"
    player_id = json.loads(
        urllib.request.urlopen(
            urllib.request.Request(
                f"{server.url}/api/tables",
                data=json.dumps({"game": "royal-casino"}).encode(),
                headers={"Cookie": "ct_player=t-alice4", "Content-Type": "application/json"},
            ),
            timeout=10,
        ).read()
    )["player"]
    deadline = time.monotonic() + 5
    while True:
        status, page = get(f"{server.url}/player/{player_id}", lang="en")
        if "royal-casino" in page.split("<h2>Games</h2>")[0] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert status == 200
    ratings, games = page.split("<h2>Games</h2>")
    assert "<td>Royal Casino</td>" in ratings  # a rating row, by the game's title
    assert f"/replay/{table}" in games


def test_replays_only_once_finished(server: ServerProcess) -> None:
    alice = Player(server, "t-alice5")
    table = alice.create(game="royal-casino", seats=["human", "bot:random"], unit=True)
    status, body = get(f"{server.url}/api/replay/{table}")
    assert status == 403  # all hands are shown in a replay
    assert get(f"{server.url}/api/record/{table}")[0] == 403  # the seed tells every hand
    a = alice.connect(table)
    a.hello()
    play_out(a, 0)
    status, body = get(f"{server.url}/api/replay/{table}")
    data = json.loads(body)
    assert status == 200 and data["steps"][0]["action"] is None
    assert all(len(step["hands"]) == 2 for step in data["steps"])
    assert get(f"{server.url}/replay/{table}")[0] == 200
    status, body = get(f"{server.url}/api/record/{table}")
    record = Record.from_json(json.loads(body))
    final = replay(record, REGISTRY.get(record.game)).final
    outcome = REGISTRY.get(record.game).outcome(final)
    assert outcome is not None and outcome.to_json() == record.result


def test_unknown_tables_and_bad_requests(server: ServerProcess) -> None:
    assert get(f"{server.url}/t/nope")[0] == 404
    assert get(f"{server.url}/api/replay/nope")[0] == 404
    assert get(f"{server.url}/player/nope")[0] == 404
    req = urllib.request.Request(
        f"{server.url}/api/tables",
        data=json.dumps({"game": "royal-casino", "options": {"sweep": "on"}}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 400
    assert "did you mean 'sweeps'" in e.value.read().decode()


def test_the_lobby_form_is_generated_from_every_option_schema(server: ServerProcess) -> None:
    status, page = get(f"{server.url}/", lang="cs")
    assert status == 200 and '<html lang="cs">' in page
    for game in REGISTRY.games():
        name = game.info.name
        assert f'data-game="{name}"' in page
        for spec in game.info.options.specs:
            assert f'name="{name}.opt.{spec.name}"' in page, spec.name
        for i in range(game.info.max_players):
            assert f'name="{name}.seat.{i}"' in page
    # labels, help and choices in Czech, not the options' identifiers
    assert "Směr hry" in page and "proti směru hodinových ručiček" in page
    assert ">direction " not in page and ">LITTLE_CASINO<" not in page and ">handSize " not in page


def _used_messages() -> set[str]:
    used: set[str] = set()
    js = (SERVER / "static" / "app.js").read_text()
    used |= {m.group(1) for m in re.finditer(r'\bn?t\(\s*"([^"]+)"', js)}
    for py in SERVER.rglob("*.py"):
        src = py.read_text()
        used |= {m.group(1) for m in re.finditer(r'(?:gettext|fmt|nfmt)\(\s*"([^"]+)"', src)}
    return {u for u in used if not u.endswith(":")}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("game", REGISTRY.names())
def test_every_message_of_a_game_s_table_script_is_translated(game: str, lang: str) -> None:
    """What a game's own ``static/table.js`` shows comes from its catalog (or the server's)."""
    package = REGISTRY.get(game).resource_package()
    assert package is not None
    folder = Path(importlib.import_module(package).__file__ or "").parent
    js = (folder / "static" / "table.js").read_text(encoding="utf-8")
    used = {m.group(1) for m in re.finditer(r'\bk\.n?t\(\s*"([^"]+)"', js)}
    assert used, "the script shows translated words"
    ids: dict[str, Any] = {}
    for po in (LOCALE_DIR / lang, folder / "locale" / lang):
        with (po / "LC_MESSAGES" / "messages.po").open("rb") as fh:
            ids.update({m.id if isinstance(m.id, str) else m.id[0]: m for m in read_po(fh) if m.id})
    for message in sorted(u for u in used if not u.endswith(":")):
        assert message in ids, f"{message!r} ({game}) is in neither {lang} catalog"
        string = ids[message].string
        assert string and all(string), f"{message!r} has no {lang} translation"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_is_translated(lang: str) -> None:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    ids = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id}
    for message in sorted(_used_messages()):
        assert message in ids, f"{message!r} is not in the {lang} catalog"
        string = ids[message].string
        assert string and all(string), f"{message!r} has no {lang} translation"
    assert catalog.num_plurals == 3


def test_plural_forms() -> None:
    cs, ru, en = translator("cs"), translator("ru"), translator("en")
    assert [ru.nfmt("{num} card", "{num} cards", n) for n in (1, 2, 5, 11, 21, 22)] == [
        "1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты",
    ]  # fmt: skip
    assert cs.nfmt("{num} second left", "{num} seconds left", 3) == "zbývají 3 sekundy"
    assert en.nfmt("{num} card", "{num} cards", 1) == "1 card"
    assert cs.card_name("QS") == "dáma piků" and en.card_name("10D") == "ten of diamonds"
    assert en.client_catalog()["plural"]
