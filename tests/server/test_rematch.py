"""Rematch: a finished table's players start it again (same seats, owners, options and
settings, a new seed); everyone at the old table, spectators too, is sent to the new one."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.hub import rematch_id
from tests.server.test_daily import SCRIPTED_ENV, play_table, scripted_settings
from tests.serverproc import Player, ServerProcess


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(scripted_settings(database_url))) as c:
        yield c


def _new_table(client: TestClient, token: str) -> str:
    client.cookies.set("ct_player", token)
    body = {
        "game": "royal-mastheads",
        "seats": ["human", "bot:random", "bot:greedy", "bot:random"],
        "options": {"deals": 1},
        "unit": True,
        "timer": 30,
        "rated": True,
        "name": "Eva",
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def test_a_rematch_keeps_seats_and_options_with_a_new_seed_and_spectators_follow(
    client: TestClient,
) -> None:
    old = _new_table(client, "eva-token")
    play_table(client, old)
    hub = cast(Any, client.app).state.hub
    watcher = TestClient(client.app)
    watcher.cookies.set("ct_player", "watcher-token")
    with watcher.websocket_connect(f"/ws/{old}") as spectator:
        spectator.send_json({"type": "hello", "version": None})
        first = spectator.receive_json()
        assert first["seat"] is None and first["status"] == "finished" and first["next"] is None
        # A spectator may not start it.
        refused = watcher.post(f"/t/{old}/rematch", follow_redirects=False)
        assert refused.status_code == 403
        # A seated player may; asking twice gives the same table.
        r = client.post(f"/t/{old}/rematch", follow_redirects=False)
        assert r.status_code == 303
        new = r.headers["location"].rsplit("/", 1)[1]
        assert new == rematch_id(old) != old
        again = client.post(f"/t/{old}/rematch", follow_redirects=False)
        assert again.headers["location"] == f"/t/{new}"
        # The spectator is told where the game goes on.
        while True:
            msg = spectator.receive_json()
            if msg.get("next"):
                break
        assert msg["next"] == f"/t/{new}"
    old_record = hub.rooms[old].table.record
    room = hub.rooms[new]
    assert room.table.record.seed != old_record.seed
    assert room.table.record.options == old_record.options
    assert room.table.record.seats == old_record.seats
    assert room.table.record.scope == old_record.scope
    assert room.rated and room.meta.timer == 30 and room.status == "playing"
    assert [s.to_json() for s in room.meta.seats] == [
        s.to_json() for s in hub.rooms[old].meta.seats
    ]
    # The player is seated again and plays it out; the old table still replays.
    end = play_table(client, new)
    assert end["seat"] == 0 and end["status"] == "finished"
    assert client.get(f"/api/replay/{old}").status_code == 200
    frames = json.dumps(client.get(f"/api/record/{new}").json())
    assert str(room.table.record.seed) in frames


def test_no_rematch_before_the_end(client: TestClient) -> None:
    table = _new_table(client, "ann-token")
    r = client.post(f"/t/{table}/rematch", follow_redirects=False)
    assert r.status_code == 403
    assert rematch_id(table) not in cast(Any, client.app).state.hub.rooms


def test_a_rematch_asked_at_another_process_moves_everyone(
    shared_database_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    """The table's writes belong to process one; the rematch is asked at process two, and
    a spectator of process one is moved too."""
    env = {
        "DATABASE_URL": shared_database_url,
        "REDIS_URL": redis_url,
        "CARDTABLE_REDIS_PREFIX": redis_prefix,
        **SCRIPTED_ENV,
    }
    one = ServerProcess(tmp_path / "one", env).start()
    two = ServerProcess(tmp_path / "two", env).start()
    try:
        eva = Player(one, "eva-token")
        old = eva.create(game="royal-casino", seats=["human", "bot:random"], unit=True)
        sock = eva.connect(old)
        msg = sock.hello()
        while msg["status"] == "playing":
            if msg["to_act"] == msg["seat"] and msg["legal"]:
                sock.send(
                    {"type": "act", "action": msg["legal"][0]["text"], "version": msg["version"]}
                )
            msg = sock.until(lambda m: m["type"] == "update")
        watcher = Player(one, "watcher-token").connect(old)
        assert watcher.hello()["seat"] is None
        req = urllib.request.Request(
            f"{two.url}/t/{old}/rematch", data=b"", headers={"Cookie": "ct_player=eva-token"}
        )
        with urllib.request.urlopen(req, timeout=20) as r:  # follows the redirect
            assert r.url.endswith(f"/t/{rematch_id(old)}")
        moved = watcher.until(lambda m: bool(m.get("next")))
        assert moved["next"] == f"/t/{rematch_id(old)}"
        assert sock.until(lambda m: bool(m.get("next")))["next"] == moved["next"]
        on_one = Player(one, "eva-token").connect(rematch_id(old)).hello()
        assert on_one["seat"] == 0 and on_one["status"] == "playing"
    finally:
        one.stop()
        two.stop()
