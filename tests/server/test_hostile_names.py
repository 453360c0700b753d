"""Names are normalized in one place at every entry (issue 12, E and F), on SQLite and on
PostgreSQL: ``POST /api/tables``, the lobby form (``POST /new``) and the websocket's ``sit``
refuse a name with a NUL, a newline, a tab, a lone surrogate or a bidirectional override, an
empty one and one longer than 40 characters, with a clear message in the client's language
and nothing stored; an accepted name is stored trimmed and in NFC.  On PostgreSQL a NUL used
to give 500 (the API and the form) and drop the socket (``sit``).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from cardtable.server.config import normalise_database_url
from cardtable.server.i18n import translator
from cardtable.server.names import MAX_NAME, InvalidName, normalize_name
from cardtable.server.schema import players, tables
from tests.serverproc import Player, ServerProcess

BAD = {
    "nul": "Eve\x00",
    "newline": "Eve\nMallory",
    "tab": "Eve\tMallory",
    "lone_surrogate": "Eve\ud800",
    "bidi_override": "Eve\u202emalloM",
    "line_separator": "Eve\u2028",
    "blank": "   ",
    "too_long": "x" * (MAX_NAME + 1),
    "huge_with_controls": "Eve" * 1200 + "\n\t\x00",
}
"""Names every entry refuses."""
CS = translator("cs")
CONTROL = CS.gettext("A name may not contain control characters")
TOO_LONG = CS.nfmt("Enter at most {num} character", "Enter at most {num} characters", MAX_NAME)
EMPTY = CS.gettext("Enter your name")
EXPECTED = {
    "blank": EMPTY,
    "too_long": TOO_LONG,
}
"""The Czech message for each refused name (the others contain control characters)."""


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", {"DATABASE_URL": database_url}).start()
    yield proc
    proc.stop()


def _stored(database_url: str) -> tuple[int, list[str]]:
    """The number of tables and the names of the players stored."""
    engine = create_engine(normalise_database_url(database_url))
    try:
        with engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(tables)).scalar_one()
            names = [r.name for r in conn.execute(select(players.c.name))]
            return int(n), sorted(names)
    finally:
        engine.dispose()


def _post(server: ServerProcess, path: str, body: bytes, kind: str, token: str) -> tuple[int, str]:
    req = urllib.request.Request(
        server.url + path, data=body, headers={"Content-Type": kind, "Cookie": f"ct_player={token}"}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def _api(server: ServerProcess, name: str) -> tuple[int, str]:
    body = json.dumps({"game": "royal-casino", "name": name, "seats": ["human", "human"]}).encode()
    return _post(server, "/api/tables?lang=cs", body, "application/json", "api-token")


def _form(server: ServerProcess, name: str) -> tuple[int, str]:
    fields = {
        "game": "royal-casino",
        "name": name,
        "royal-casino.players": "2",
        "royal-casino.seat.0": "human",
        "royal-casino.seat.1": "bot:random",
    }
    body = urllib.parse.urlencode(fields).encode()
    return _post(server, "/new?lang=cs", body, "application/x-www-form-urlencoded", "form-token")


@pytest.mark.parametrize("name", list(BAD), ids=list(BAD))
def test_every_entry_refuses_a_bad_name_and_stores_nothing(
    server: ServerProcess, database_url: str, name: str
) -> None:
    raw = BAD[name]
    expected = EXPECTED.get(name, CONTROL)
    host = Player(server, "host-token")
    table = host.create(game="royal-casino", seats=["human", "human"], name="Host")
    before = _stored(database_url)

    status, body = _api(server, raw)
    assert status == 400, body
    assert json.loads(body)["errors"]["name"] == expected

    if name != "lone_surrogate":  # a form is UTF-8: it cannot carry one (JSON can)
        status, page = _form(server, raw)
        assert status == 400, page
        assert expected in page.replace("&#x27;", "'")

    guest = Player(server, "guest-token").connect(table, lang="cs")
    assert guest.hello()["seats"][1]["open"]
    error = guest.error({"type": "sit", "seat": 1, "name": raw})
    assert error["code"] == "invalid_name", error
    assert error["message"] == expected
    guest.send({"type": "ping"})  # the socket is still there
    assert guest.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    seats = guest.hello()["seats"]
    assert seats[1]["open"] and seats[1]["name"] != raw

    assert _stored(database_url) == before
    guest.close()
    assert "Traceback" not in (server.data / "server.log").read_text()


def test_every_entry_stores_a_name_trimmed_and_composed(
    server: ServerProcess, database_url: str
) -> None:
    decomposed = "  Jir\u030ci\u0301   Nova\u0301k  "  # Jiří Novák, accents apart, spaced
    status, body = _api(server, decomposed)
    assert status == 200, body
    table = json.loads(body)["id"]
    status, _page = _form(server, "\u00a0Eva\u00a0")
    assert status == 200  # followed the redirect to the new table
    bob = Player(server, "bob-token").connect(table)
    bob.hello()
    bob.send({"type": "sit", "seat": 1, "name": " B\u0065\u0301la\t"[:-1] + " "})
    seat = bob.until(lambda m: m["type"] == "update" and m["seat"] == 1)["seats"]
    assert [s["name"] for s in seat] == ["Jiří Novák", "Béla"]
    assert _stored(database_url)[1] == sorted(["Jiří Novák", "Eva", "Béla"])
    # A name of exactly the longest length, with a joiner emoji, is fine.
    longest = "👩\u200d💻" + "y" * (MAX_NAME - 3)
    assert normalize_name(longest) == longest
    bob.close()


def test_one_function_decides_and_names_its_problem() -> None:
    for raw in BAD.values():
        with pytest.raises(InvalidName):
            normalize_name(raw)
    with pytest.raises(InvalidName):
        normalize_name(None)
    assert normalize_name("Ann\u200cBeth") == "Ann\u200cBeth"  # ZWNJ is part of a word
