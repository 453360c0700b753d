"""Every field of a new table is checked by the server before anything is stored, on
SQLite and on PostgreSQL: the lobby form comes back (400) with the player's values and a
Czech message by the wrong field; the JSON API answers 400 with a message by field; and a
stored table that its game refuses is skipped at start with one log line."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from cardtable.games import get_game
from cardtable.server.config import normalise_database_url
from cardtable.server.forms import InvalidRequest, Problem, check_new_table
from cardtable.server.i18n import LANGUAGES, translator
from cardtable.server.schema import players, tables
from cardtable.server.store import Store
from tests.server.fakes import table_row
from tests.serverproc import ServerProcess

FORMS = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "server" / "forms.py"


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", {"DATABASE_URL": database_url}).start()
    yield proc
    proc.stop()


def _count(database_url: str) -> tuple[int, int]:
    """Tables and players stored."""
    engine = create_engine(normalise_database_url(database_url))
    try:
        with engine.connect() as conn:
            n_tables = conn.execute(select(func.count()).select_from(tables)).scalar_one()
            n_players = conn.execute(select(func.count()).select_from(players)).scalar_one()
            return int(n_tables), int(n_players)
    finally:
        engine.dispose()


def _post(url: str, body: bytes, content_type: str) -> tuple[int, str]:
    req = urllib.request.Request(
        url, data=body, headers={"Content-Type": content_type, "Cookie": "ct_player=form-test"}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def _form(server: ServerProcess, fields: dict[str, str]) -> tuple[int, str]:
    body = urllib.parse.urlencode(fields).encode()
    return _post(f"{server.url}/new?lang=cs", body, "application/x-www-form-urlencoded")


def _field_error(page: str, field: str) -> str | None:
    ident = "err-" + re.sub(r"[^0-9A-Za-z]", "-", field)
    found = re.search(rf'<span class="field-error" id="{re.escape(ident)}">([^<]*)</span>', page)
    return None if found is None else unescape(found.group(1))


CASINO = {
    "game": "royal-casino",
    "name": "Jiří",
    "royal-casino.players": "2",
    "royal-casino.seat.0": "human",
    "royal-casino.seat.1": "bot:random",
    "timer": "0",
}
RUMMY = {
    "game": "rummy",
    "name": "Jiří",
    "rummy.players": "2",
    "rummy.seat.0": "human",
    "rummy.seat.1": "bot:random",
}

FORM_CASES: list[tuple[dict[str, str], str, str]] = [
    ({**CASINO, "name": "  "}, "name", "Zadejte své jméno"),
    ({**CASINO, "name": "Ji\x07ří"}, "name", "Jméno nesmí obsahovat řídicí znaky"),
    ({**CASINO, "name": "x" * 41}, "name", "Zadejte nejvýše 40 znaků"),
    ({**CASINO, "timer": "abc"}, "timer", "Zadejte počet sekund od 0 do 600"),
    ({**CASINO, "timer": "601"}, "timer", "Zadejte počet sekund od 0 do 600"),
    ({**CASINO, "timer": "-1"}, "timer", "Zadejte počet sekund od 0 do 600"),
    ({**CASINO, "timer": "nan"}, "timer", "Zadejte počet sekund od 0 do 600"),
    ({**CASINO, "royal-casino.players": "1"}, "royal-casino.players", "Zvolte 2 až 4 hráčů"),
    ({**CASINO, "royal-casino.players": "abc"}, "royal-casino.players", "Zvolte 2 až 4 hráčů"),
    (
        {**CASINO, "royal-casino.seat.1": "bot:ismcts:5"},
        "royal-casino.seat.1",
        "Vyberte, kdo tu sedí",
    ),
    ({**CASINO, "royal-casino.seat.1": "robot"}, "royal-casino.seat.1", "Vyberte, kdo tu sedí"),
    (
        {**CASINO, "royal-casino.seat.0": "bot:random"},
        "royal-casino.seat.0",
        "Aspoň jedno místo musí patřit člověku",
    ),
    ({**CASINO, "game": "chess"}, "game", "Vyberte hru ze seznamu"),
    (
        {**CASINO, "royal-casino.opt.sweeps": "maybe"},
        "royal-casino.opt.sweeps",
        "Vyberte jednu z nabízených možností",
    ),
    ({**RUMMY, "rummy.opt.jokers": "maybe"}, "rummy.opt.jokers", "Zvolte zapnuto, nebo vypnuto"),
    (
        {**CASINO, "royal-casino.opt.rule20": "X"},
        "royal-casino.opt.rule20",
        "Vyberte jednu z nabízených možností",
    ),
    (
        {**CASINO, "royal-casino.opt.sweep": "on"},
        "form",  # no such field: the message stands above the form
        "Neznámé nastavení sweep; nemysleli jste sweeps?",
    ),
    ({**RUMMY, "rummy.opt.handSize": "abc"}, "rummy.opt.handSize", "Zadejte celé číslo"),
    ({**RUMMY, "rummy.opt.handSize": "-1"}, "rummy.opt.handSize", "Zadejte celé číslo, nejméně 0"),
    ({**RUMMY, "rummy.opt.decks": "3"}, "rummy.opt.decks", "Zadejte celé číslo, nejvýše 2"),
    (
        {**RUMMY, "rummy.opt.handSize": "999"},
        "rummy.opt.handSize",
        "Tato hodnota nejde dohromady s ostatním nastavením",
    ),
    (
        {**RUMMY, "rummy.opt.gameMode": "rounds(ž)"},
        "rummy.opt.gameMode",
        "Tato hodnota nejde dohromady s ostatním nastavením",
    ),
]


def test_the_lobby_form_checks_every_field_and_stores_nothing(
    server: ServerProcess, database_url: str
) -> None:
    for fields, field, message in FORM_CASES:
        status, page = _form(server, fields)
        assert status == 400, (field, status)
        assert _field_error(page, field) == message, (field, fields.get(field))
        assert 'id="form-errors"' in page and '<html lang="cs">' in page
    # a refused form keeps what was typed, the wrong value included
    status, page = _form(server, {**RUMMY, "rummy.opt.handSize": "999", "timer": "700"})
    assert status == 400
    assert 'name="rummy.opt.handSize" value="999"' in page and 'value="700"' in page
    assert re.search(r'<option value="rummy" selected>', page)
    assert _count(database_url) == (0, 0)  # neither a table nor a player
    # a good form: the name is trimmed and the table is created
    status, _ = _form(server, {**CASINO, "name": "  Jiří   Novák  ", "timer": "30"})
    assert status == 200  # redirected to the new table's page
    engine = create_engine(normalise_database_url(database_url))
    with engine.connect() as conn:
        assert conn.execute(select(players.c.name)).scalar_one() == "Jiří Novák"
    engine.dispose()
    assert _count(database_url) == (1, 1)


API_CASES: list[tuple[dict[str, Any], str]] = [
    ({"name": ""}, "name"),
    ({"name": "a\nb"}, "name"),
    ({"name": "x" * 41}, "name"),
    ({"name": 7}, "name"),
    ({"timer": "abc"}, "timer"),
    ({"timer": 600.5}, "timer"),
    ({"timer": True}, "timer"),
    ({"players": 5}, "players"),
    ({"players": "two"}, "players"),
    ({"seats": ["human", "bot:nobody"]}, "seat.1"),
    ({"seats": ["bot:random", "bot:random"]}, "seat.0"),
    ({"seats": ["human"]}, "players"),
    ({"options": {"sweep": "on"}}, "opt.sweep"),
    ({"options": {"sweeps": "maybe"}}, "opt.sweeps"),
    ({"game": "rummy", "options": {"handSize": 999}}, "opt.handSize"),
    ({"game": "rummy", "options": {"gameMode": "rounds(ž)"}}, "opt.gameMode"),
    ({"game": "rummy", "options": {"decks": "x"}}, "opt.decks"),
    ({"game": "chess"}, "game"),
    ({"options": ["sweeps"]}, "options"),
]


def test_the_api_checks_every_field_and_stores_nothing(
    server: ServerProcess, database_url: str
) -> None:
    for body, field in API_CASES:
        data = json.dumps({"game": "royal-casino", **body}).encode()
        status, text = _post(f"{server.url}/api/tables", data, "application/json")
        assert status == 400, (body, status, text)
        answer = json.loads(text)
        assert field in answer["errors"], (body, answer)
        assert answer["error"] and "Traceback" not in answer["error"]
    status, text = _post(f"{server.url}/api/tables", b"[1, 2]", "application/json")
    assert status == 400 and json.loads(text)["error"] == "Send a JSON object"
    status, text = _post(
        f"{server.url}/api/tables",
        json.dumps({"options": {"sweep": "on"}}).encode(),
        "application/json",
    )
    assert "did you mean 'sweeps'" in json.loads(text)["error"]  # the schema's own reason too
    assert _count(database_url) == (0, 0)


def test_a_stored_table_its_game_refuses_is_skipped_at_start(
    database_url: str, tmp_path: Path
) -> None:
    """A row written before the checks existed (Rummy with ``handSize=999``) neither stops the
    server nor prints a traceback: one log line, and its page is not found."""
    store = Store(normalise_database_url(database_url))
    rummy = get_game("rummy")
    row = table_row(rummy, ["human:p1", "bot:random"], 7, table_id="bad-table")
    row.options = {**row.options, "handSize": 999}
    with store.engine.begin() as conn:
        Store.create_table(conn, row)
    store.close()
    proc = ServerProcess(tmp_path / "data", {"DATABASE_URL": database_url}).start()
    try:
        with urllib.request.urlopen(proc.url + "/healthz", timeout=10) as r:
            assert json.loads(r.read())["tables"] == 0
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(proc.url + "/t/bad-table", timeout=10)
        assert e.value.code == 404
    finally:
        proc.stop()
    log = (tmp_path / "data" / "server.log").read_text()
    assert "Traceback" not in log
    assert [line for line in log.splitlines() if "bad-table" in line] == [
        line for line in log.splitlines() if "does not replay" in line
    ]
    assert sum("bad-table" in line for line in log.splitlines()) == 2  # at start, at the page


def test_the_checks_name_the_option_to_blame() -> None:
    rummy = get_game("rummy")
    with pytest.raises(InvalidRequest) as e:
        check_new_table(rummy, options={"handSize": 999, "gameMode": "rounds(ž)", "jokers": True})
    assert sorted(p.field for p in e.value.problems) == ["opt.gameMode", "opt.handSize"]
    assert all(p.reason for p in e.value.problems)  # the game's own reason, for the API
    ok = check_new_table(rummy, players="3", options={"handSize": 7}, name=" Ann ", timer="0")
    assert (ok.players, ok.name, ok.timer, ok.seats) == (
        3,
        "Ann",
        None,
        ("human",) + ("bot:random",) * 2,
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_form_message_is_translated(lang: str) -> None:
    """Each message a check can give is in the catalog (in Czech and Russian, translated)."""
    source = FORMS.read_text(encoding="utf-8")
    ids = set(re.findall(r'Problem\(\s*(?:"[^"]*"|[^,]+),\s*"([^"]+)"', source))
    names = FORMS.with_name("names.py").read_text(encoding="utf-8")  # the name's problems
    ids |= set(re.findall(r'InvalidName\(\s*"([^"]+)"', names))
    assert len(ids) >= 15
    tr, en = translator(lang), translator("en")
    for message in ids:
        assert tr.has(message), (message, lang)
        if lang != "en":
            text = Problem("x", message, {"num": 3, "min": 1, "max": 2}).text(tr)
            assert text != Problem("x", message, {"num": 3, "min": 1, "max": 2}).text(en)
