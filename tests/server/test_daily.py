"""The daily challenge: secret seeds, one attempt per player and day (kept by the database,
also across two processes), the day's board, and deals nobody sees before playing them."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.exc import IntegrityError
from starlette.websockets import WebSocketDisconnect

from cardtable.games import REGISTRY, get_game
from cardtable.server.app import create_app
from cardtable.server.config import Settings, normalise_database_url
from cardtable.server.daily import DEALS_BY_UNIT, Daily, DailyConfig, daily_seed, rank_field, today
from cardtable.server.store import Attempt, Store
from tests.serverproc import Player, ServerProcess

DAY = date(2026, 12, 1)


# -- seeds -----------------------------------------------------------------------------------
@given(
    secret=st.binary(min_size=16, max_size=32),
    days=st.integers(0, 3000),
    deal=st.integers(0, 5),
    game=st.sampled_from(REGISTRY.names()),
)
def test_seeds_differ_from_day_to_day_and_deal_to_deal(
    secret: bytes, days: int, deal: int, game: str
) -> None:
    day = DAY + timedelta(days=days)
    seed = daily_seed(secret, game, day, deal)
    assert seed == daily_seed(secret, game, day, deal)  # every process deals the same
    assert seed != daily_seed(secret, game, day + timedelta(days=1), deal)
    assert seed != daily_seed(secret, game, day, deal + 1)
    assert 0 <= seed < 2**63  # fits the tables' BIGINT seed


@given(a=st.binary(min_size=16, max_size=32), b=st.binary(min_size=16, max_size=32))
def test_another_secret_gives_other_seeds(a: bytes, b: bytes) -> None:
    """Without the secret the date tells nothing: another key deals other cards."""
    if a == b:
        return
    seeds_a = [daily_seed(a, "rummy", DAY, i) for i in range(3)]
    seeds_b = [daily_seed(b, "rummy", DAY, i) for i in range(3)]
    assert seeds_a != seeds_b


def test_the_seed_is_the_hmac_of_game_date_and_deal() -> None:
    import hashlib
    import hmac

    digest = hmac.new(b"key", b"royal-casino|2026-12-01|2", hashlib.sha256).digest()
    assert daily_seed(b"key", "royal-casino", DAY, 2) == int.from_bytes(digest[:8], "big") >> 1


def test_the_secret_is_generated_once_and_shared(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    one, two = Store(url), Store(url)
    first = one.secret("daily", "aaaa")
    assert first == "aaaa" and two.secret("daily", "bbbb") == "aaaa"  # a restart keeps it
    one.close()
    two.close()


def test_a_configured_secret_is_used_and_changes_the_deals(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'x.sqlite3'}")
    game = get_game("rummy")

    class _Hub:
        store = Store(settings.database_url)

        def default_level(self, _game: Any) -> str:
            return "medium"

    hub: Any = _Hub()
    mine = Daily(hub, DailyConfig(secret="configured"))
    generated = Daily(hub, DailyConfig())
    assert mine.seed(game, DAY, 0) == daily_seed(b"configured", "rummy", DAY, 0)
    assert generated.seed(game, DAY, 0) != mine.seed(game, DAY, 0)
    assert Daily(hub, DailyConfig()).seed(game, DAY, 0) == generated.seed(game, DAY, 0)
    assert mine.seats(game)[0] == "human" and all(s == "bot:medium" for s in mine.seats(game)[1:])
    assert [mine.deals(g) for g in REGISTRY.games()] == [
        DEALS_BY_UNIT[g.info.unit] for g in REGISTRY.games()
    ]
    hub.store.close()


# -- the board -------------------------------------------------------------------------------
def _attempt(player: str, score: int | None, minute: int = 0) -> Attempt:
    finished = None if score is None else datetime(2026, 12, 1, 12, minute)
    return Attempt(DAY, "rummy", player, player.title(), 2, (), score, finished)


def test_the_board_ranks_by_score_ties_share_a_rank_and_unfinished_are_left_out() -> None:
    ranked = rank_field(
        [_attempt("a", 10), _attempt("b", 30), _attempt("c", 10, 5), _attempt("d", None)]
    )
    assert [(r.attempt.player_id, r.rank, r.percentile) for r in ranked] == [
        ("b", 1, 100.0),
        ("a", 2, 25.0),
        ("c", 2, 25.0),
    ]
    assert rank_field([_attempt("x", -5)])[0].percentile == 100.0


# -- the one-attempt rule in the database ----------------------------------------------------
def test_the_database_refuses_a_second_attempt(database_url: str) -> None:
    store = Store(normalise_database_url(database_url))
    with store.engine.begin() as conn:
        Store.save_player(conn, "p1", "token-1", "Eva")
        Store.start_attempt(conn, DAY, "rummy", "p1", 2)
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        Store.start_attempt(conn, DAY, "rummy", "p1", 2)
    with store.engine.begin() as conn:  # another game or another day is another attempt
        Store.start_attempt(conn, DAY, "royal-casino", "p1", 3)
        Store.start_attempt(conn, DAY + timedelta(days=1), "rummy", "p1", 2)
    store.close()


# -- a whole day in one process (SQLite and PostgreSQL) ---------------------------------------
SCRIPTED_ENV = {"CARDTABLE_MESSAGE_RATE": "1000", "CARDTABLE_MESSAGE_BURST": "1000"}
"""What a server process needs to be played by a script: a message rate no person reaches
(the limit has its own tests)."""


def scripted_settings(database_url: str) -> Settings:
    """An in-process server played by a script: no bot delay, the message rate lifted."""
    return Settings(
        database_url=normalise_database_url(database_url),
        bot_delay=0,
        message_rate=1000.0,
        message_burst=1000.0,
    )


@pytest.fixture
def client(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("CARDTABLE_DAILY_DEALS", "2")
    monkeypatch.setenv("CARDTABLE_DAILY_LEVEL", "random")
    monkeypatch.delenv("CARDTABLE_DAILY_SECRET", raising=False)
    with TestClient(create_app(scripted_settings(database_url))) as c:
        yield c


def _as(client: TestClient, token: str) -> TestClient:
    client.cookies.clear()
    client.cookies.set("ct_player", token)
    return client


def play_table(client: TestClient, table: str, frames: list[str] | None = None) -> dict[str, Any]:
    """Play a table's human seat (the first legal move each time) to its end; the last
    message."""
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "version": None})
        while True:
            text = ws.receive_text()
            if frames is not None:
                frames.append(text)
            msg = json.loads(text)
            if msg["type"] == "error":
                # Acting on a state a newer one already replaced is refused, and that newer
                # state is on its way or here; any other refusal would leave us waiting.
                assert msg["code"] == "stale_version", msg
                continue
            if msg["type"] not in ("state", "update"):
                continue
            if msg["status"] != "playing":
                return dict(msg)
            if msg["to_act"] == msg["seat"] and msg["legal"]:
                ws.send_json(
                    {"type": "act", "action": msg["legal"][0]["text"], "version": msg["version"]}
                )


def _start(client: TestClient, game: str, name: str) -> Any:
    return client.post(f"/daily/{game}/start", data={"name": name}, follow_redirects=False)


def _table_of(location: str) -> str:
    assert location.startswith("/t/"), location
    return location.rsplit("/", 1)[1]


def _play_day(client: TestClient, token: str, name: str, game: str) -> list[str]:
    """Start and play a whole day's challenge; the tables of its deals."""
    _as(client, token)
    r = _start(client, game, name)
    assert r.status_code == 303
    tables = []
    location = r.headers["location"]
    while location.startswith("/t/"):
        tables.append(_table_of(location))
        end = play_table(client, tables[-1])
        assert end["daily"]["deal"] == len(tables) - 1 and end["next"] is None
        location = client.get(f"/daily/{game}/play", follow_redirects=False).headers["location"]
    assert location == f"/daily/{game}/{today().isoformat()}"
    return tables


def test_two_players_play_the_same_deals_once_each_and_are_ranked(client: TestClient) -> None:
    game = "royal-casino"
    eva = _play_day(client, "eva-token", "Eva", game)
    # Before playing, Jan sees neither Eva's deals nor their seeds.
    _as(client, "jan-token")
    client.get("/")  # a player with a cookie, no attempt yet
    for path in (f"/api/record/{eva[0]}", f"/api/replay/{eva[0]}", f"/replay/{eva[0]}"):
        assert client.get(path).status_code == 403, path
    assert client.get(f"/t/{eva[0]}").status_code == 403
    board = client.get(f"/daily/{game}/{today().isoformat()}").text
    assert "/vs/" not in board and "Eva" in board
    jan = _play_day(client, "jan-token", "Jan", game)
    assert set(jan).isdisjoint(eva)

    # The same cards: every deal's record has the same seed, game, options and seats.
    records = [[client.get(f"/api/record/{t}").json() for t in tables] for tables in (eva, jan)]
    for mine, theirs in zip(*records, strict=True):
        assert mine["seed"] == theirs["seed"]
        assert mine["options"] == theirs["options"]
        assert mine["seats"][1:] == theirs["seats"][1:]  # the same bots; the player in P1
        assert mine["seats"][0].startswith("human:") and theirs["seats"][0].startswith("human:")
    first_hands = [
        [client.get(f"/api/replay/{t}").json()["steps"][0]["hands"] for t in tables]
        for tables in (eva, jan)
    ]
    assert first_hands[0] == first_hands[1]  # the very same cards in every hand
    assert records[0][0]["seed"] != records[0][1]["seed"]

    # One attempt each: starting again is refused, and no new table is made.
    again = _start(client, game, "Jan")
    assert again.status_code == 409
    assert client.get(f"/daily/{game}/play", follow_redirects=False).headers["location"] == (
        f"/daily/{game}/{today().isoformat()}"
    )

    # The board: by score, best first, with each deal's score and a link to compare.
    scores = {
        name: sum(r["result"]["scores"][0] for r in recs)
        for name, recs in zip(("Eva", "Jan"), records, strict=True)
    }
    html = client.get(f"/daily/{game}/{today().isoformat()}").text
    rows = re.findall(
        r'<td class="rank">(\d+)</td><td><a[^>]*>([^<]+)</a></td><td class="score">(-?\d+)', html
    )
    assert [(n, int(s)) for _, n, s in rows] == sorted(
        scores.items(), key=lambda kv: (-kv[1], kv[0] != "Eva")
    )
    assert int(rows[0][0]) == 1
    assert html.count("/vs/") == 2  # Jan has played: the replays are open to him
    eva_id = re.search(
        r'data-player="([0-9a-f]+)"[^>]*><td class="rank">\d+</td><td><a[^>]*>Eva', html
    )
    assert eva_id is not None
    compare = client.get(f"/daily/{game}/{today().isoformat()}/vs/{eva_id.group(1)}?deal=1").text
    # One page, two boards: the deal's tables named by their players, Jan's first.
    boot = re.search(r'<script id="replay-boot" type="application/json">(.*?)</script>', compare)
    assert boot is not None
    boards = [(b["name"], b["table"]) for b in json.loads(boot.group(1))["boards"]]
    assert boards == [("Jan", jan[1]), ("Eva", eva[1])]
    # The day page shows the result; the player page the day's score.
    assert re.search(r"rank [12] of 2", client.get("/daily").text)


def test_a_challenge_left_half_way_is_resumed_where_it_was(client: TestClient) -> None:
    _as(client, "ida-token")
    first = _table_of(_start(client, "rummy", "Ida").headers["location"])
    # Starting again (another tab, a reload) goes back to the same deal.
    assert _table_of(_start(client, "rummy", "Ida").headers["location"]) == first
    assert (
        _table_of(client.get("/daily/rummy/play", follow_redirects=False).headers["location"])
        == first
    )
    play_table(client, first)
    second = _table_of(client.get("/daily/rummy/play", follow_redirects=False).headers["location"])
    assert second != first
    assert "Deal 2 of 2" in client.get("/daily").text


def test_nobody_watches_a_daily_deal_and_no_message_carries_its_seed(client: TestClient) -> None:
    _as(client, "ola-token")
    table = _table_of(_start(client, "royal-casino", "Ola").headers["location"])
    frames: list[str] = []
    play_table(client, table, frames)
    seed = str(client.get(f"/api/record/{table}").json()["seed"])
    assert frames and not any(seed in f for f in frames)
    assert "seed" not in json.loads(frames[0])
    _as(client, "spy-token")
    with client.websocket_connect(f"/ws/{table}") as ws, pytest.raises(WebSocketDisconnect):
        ws.receive_text()  # closed (4403) before any message
    assert seed not in client.get("/daily").text
    assert table not in client.get("/").text  # daily deals are not in the finished list
    # A daily deal is played to its end: no leaving it to a bot.
    _as(client, "ola-token")
    second = _table_of(
        client.get("/daily/royal-casino/play", follow_redirects=False).headers["location"]
    )
    with client.websocket_connect(f"/ws/{second}") as ws:
        ws.send_json({"type": "hello", "version": None})
        ws.receive_json()
        ws.send_json({"type": "leave"})
        reply = ws.receive_json()
        for _ in range(50):  # the bots' moves may come first
            if reply["type"] == "error":
                break
            reply = ws.receive_json()
        assert reply["code"] == "forbidden"


def test_past_days_list_their_winner_and_the_player_page_charts_ratings(
    client: TestClient,
) -> None:
    hub = cast(Any, client.app).state.hub
    yesterday = today() - timedelta(days=1)
    with hub.store.engine.begin() as conn:
        for pid, name in (("p1", "Ann"), ("p2", "Bea")):
            Store.save_player(conn, pid, pid + "-token", name)
            Store.start_attempt(conn, yesterday, "rummy", pid, 0)
            Store.settle(conn, yesterday, "rummy", pid)  # no deals: scored 0 at once
        conn.exec_driver_sql(
            "UPDATE daily_attempts SET score = CASE player_id WHEN 'p1' THEN 7 ELSE 12 END"
        )
        for mu in (25.0, 27.0, 30.0):
            Store.set_rating(conn, "rummy", "p2", mu, 6.0, 1)
    html = client.get("/daily").text
    past = html[html.index("past-days") :]
    assert yesterday.isoformat() in past and "Bea" in past and "12" in past
    page = client.get("/player/p2").text
    assert "<svg" in page and page.count("<circle") == 3
    board = client.get("/leaderboard").text
    assert "Bea" not in board  # one rated game each: fewer than three


# -- two processes behind Redis ---------------------------------------------------------------
def _post(server: ServerProcess, path: str, token: str) -> tuple[int, str]:
    class _NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(_NoRedirect)
    req = urllib.request.Request(
        server.url + path, data=b"name=Eva", headers={"Cookie": f"ct_player={token}"}
    )
    try:
        with opener.open(req, timeout=20) as r:
            return r.status, r.headers.get("location", "")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("location", "") or ""


def test_two_processes_keep_one_attempt_and_deal_the_same_cards(
    shared_database_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    env = {
        "DATABASE_URL": shared_database_url,
        "REDIS_URL": redis_url,
        "CARDTABLE_REDIS_PREFIX": redis_prefix,
        **SCRIPTED_ENV,
        "CARDTABLE_DAILY_DEALS": "1",
        "CARDTABLE_DAILY_LEVEL": "random",
    }
    one = ServerProcess(tmp_path / "one", env).start()
    two = ServerProcess(tmp_path / "two", env).start()
    try:
        # The same player asks both processes at once: one attempt, one table.
        with ThreadPoolExecutor(4) as pool:
            answers = list(
                pool.map(
                    lambda s: _post(s, "/daily/rummy/start", "eva-token"), [one, two, one, two]
                )
            )
        assert {status for status, _ in answers} == {303}
        tables = {loc for _, loc in answers}
        assert len(tables) == 1 and next(iter(tables)).startswith("/t/")
        eva_table = next(iter(tables)).rsplit("/", 1)[1]
        # Another player, on the other process: the same deal (one generated secret).
        status, where = _post(two, "/daily/rummy/start", "jan-token")
        jan_table = where.rsplit("/", 1)[1]
        assert status == 303 and jan_table != eva_table
        for table, server, token in ((eva_table, one, "eva-token"), (jan_table, two, "jan-token")):
            sock = Player(server, token).connect(table)
            msg = sock.hello()
            while msg["status"] == "playing":
                if msg["to_act"] == msg["seat"] and msg["legal"]:
                    act = {"type": "act", "action": msg["legal"][0]["text"]}
                    sock.send({**act, "version": msg["version"]})
                msg = sock.until(lambda m: m["type"] == "update")
            sock.stack.close()
        seeds = []
        for table, token in ((eva_table, "eva-token"), (jan_table, "jan-token")):
            req = urllib.request.Request(
                f"{one.url}/api/record/{table}", headers={"Cookie": f"ct_player={token}"}
            )
            with urllib.request.urlopen(req, timeout=10) as r:
                seeds.append(json.loads(r.read())["seed"])
        assert seeds[0] == seeds[1]
        # Finished through one process, refused by both.
        assert _post(two, "/daily/rummy/start", "eva-token")[0] == 409
        assert _post(one, "/daily/rummy/start", "eva-token")[0] == 409
    finally:
        one.stop()
        two.stop()


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_the_new_pages_and_scripts_words_are_translated(lang: str) -> None:
    """sorting.js's words and the message ids kept in constants are in every catalog
    (the words of app.js and of ``gettext("…")`` calls are checked by test_features)."""
    from babel.messages.pofile import read_po

    from cardtable.server import boards
    from cardtable.server.i18n import LOCALE_DIR
    from cardtable.server.routes import pages

    js = (LOCALE_DIR.parent / "static" / "sorting.js").read_text()
    used = {m.group(1) for m in re.finditer(r'\bt\(\s*"([^"]+)"', js)}
    assert used == {"Sort your hand", "Sort by suit", "Sort by rank"}
    used |= {boards.RULE, boards.REPLAYS_LATER, pages.PRIVATE}
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalog = {m.id: m.string for m in read_po(fh, locale=lang) if m.id}
    for message in used:
        assert catalog.get(message), f"{message!r} has no {lang} translation"


def test_the_migrations_build_the_tables_schema_py_describes(database_url: str) -> None:
    """Alembic's scripts (0002 included) and ``schema.py`` agree, on both databases."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from cardtable.server.schema import METADATA

    store = Store(normalise_database_url(database_url))
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), METADATA) == []
    store.close()
