"""The websocket protocol against a real server process, on SQLite and on PostgreSQL.

Illegal, out-of-turn, wrong-seat, stale-version and malformed messages are rejected with a
clear error and change nothing; a killed server resumes an unfinished game on restart.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.serverproc import Player, ServerProcess, Socket


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Any:
    proc = ServerProcess(tmp_path / "data", {"DATABASE_URL": database_url}).start()
    yield proc
    proc.stop()


def _two_humans(server: ServerProcess) -> tuple[str, Socket, Socket, Socket]:
    alice, bob, carol = (Player(server, t) for t in ("alice-token", "bob-token", "carol-token"))
    table = alice.create(game="royal-casino", seats=["human", "human"], unit=True, name="Alice")
    a, b, c = alice.connect(table), bob.connect(table), carol.connect(table)
    assert a.hello()["seat"] == 0
    assert b.hello()["seat"] is None
    b.send({"type": "sit", "seat": 1, "name": "Bob"})
    b.until(lambda m: m["type"] == "update" and m["seat"] == 1)
    c.hello()
    return table, a, b, c


def test_rejected_messages_change_nothing(server: ServerProcess) -> None:
    _table, a, b, spectator = _two_humans(server)
    by_seat = {0: a, 1: b}
    state = a.hello()
    version = state["version"]
    actor = by_seat[state["to_act"]]
    other = by_seat[1 - state["to_act"]]
    legal = actor.hello()["legal"]
    assert legal, "the player to act has legal actions"
    move = legal[0]["text"]

    def rejected(sock: Socket, message: Any, code: str | tuple[str, ...]) -> None:
        error = sock.error(message)
        codes = (code,) if isinstance(code, str) else code
        assert error["code"] in codes, error
        assert error["message"]
        assert error["version"] == version

    rejected(other, {"type": "act", "action": move, "version": version}, "not_your_turn")
    rejected(spectator, {"type": "act", "action": move, "version": version}, "wrong_seat")
    seat = state["to_act"]
    rejected(
        actor, {"type": "act", "action": move, "version": version, "seat": 1 - seat}, "wrong_seat"
    )
    rejected(actor, {"type": "act", "action": move, "version": version + 7}, "stale_version")
    rejected(actor, "this is not json", "malformed")
    rejected(actor, "[1, 2]", "malformed")
    rejected(actor, {"type": "act", "action": move}, "malformed")
    rejected(actor, {"type": "act", "action": 5, "version": version}, "malformed")
    rejected(actor, {"type": "act", "action": move, "version": "0"}, "malformed")
    rejected(actor, {"type": "dance"}, "malformed")
    rejected(
        actor, {"type": "act", "action": "capture ZZ: 99", "version": version}, "invalid_notation"
    )
    loose = actor.last["view"]["loose"]
    rejected(
        actor,
        {"type": "act", "action": f"trail {loose[0]}", "version": version},
        ("illegal", "invalid_notation"),
    )
    rejected(spectator, {"type": "sit", "seat": 0}, "wrong_seat")
    rejected(spectator, {"type": "replace", "seat": 0}, "wrong_seat")
    rejected(spectator, {"type": "leave"}, "wrong_seat")

    # Nothing changed: same version, same hand, and the move is still legal.
    again = actor.hello()
    assert again["version"] == version
    assert [x["text"] for x in again["legal"]] == [x["text"] for x in legal]

    # The move itself goes through, and then the old version is stale.
    actor.send({"type": "act", "action": move, "version": version})
    actor.until(lambda m: m["type"] == "update" and m["version"] == version + 1)
    other.until(lambda m: m["type"] == "update" and m["version"] == version + 1)
    spectator.until(lambda m: m["type"] == "update" and m["version"] == version + 1)
    nxt = other.last
    if nxt["to_act"] == nxt["seat"] and nxt["legal"]:
        error = other.error({"type": "act", "action": nxt["legal"][0]["text"], "version": version})
        assert error["code"] == "stale_version"
        assert error["version"] == version + 1
    for sock in (a, b, spectator):
        sock.close()


def _play_my_moves(sock: Socket, seat: int, count: int) -> int:
    """Play ``count`` moves (the first legal one) whenever this seat is to act."""
    played = 0
    msg = sock.last
    while played < count and msg["status"] == "playing":
        seen = msg["version"]
        if msg["to_act"] == seat and msg["legal"]:
            sock.send({"type": "act", "action": msg["legal"][0]["text"], "version": seen})
            played += 1
        # Wait for news (a refresh of the same version, e.g. a seat connecting, is not news).

        def news(m: dict[str, Any], seen: int = seen) -> bool:
            return bool(m["type"] == "error" or (m["type"] == "update" and m["version"] > seen))

        msg = sock.until(news)
        if msg["type"] == "error":
            msg = sock.hello()
    return played


def test_a_killed_server_resumes_the_game(database_url: str, tmp_path: Path) -> None:
    env = {"DATABASE_URL": database_url}
    first = ServerProcess(tmp_path / "data", env).start()
    alice = Player(first, "alice-token")
    table = alice.create(game="royal-casino", seats=["human", "bot:random"], unit=True)
    sock = alice.connect(table)
    sock.hello()
    assert _play_my_moves(sock, 0, 3) == 3
    # Wait until the bot has answered, so the table waits for Alice.
    while not (sock.last["to_act"] == 0 and sock.last["legal"]):
        sock.until(lambda m: m["type"] == "update")
    before = sock.last
    sock.close()
    first.kill()

    second = ServerProcess(tmp_path / "data", env, port=first.port).start()
    try:
        sock = Player(second, "alice-token").connect(table)
        after = sock.hello()
        assert after["type"] == "state"
        assert after["seat"] == 0
        assert after["version"] == before["version"]
        assert after["view"] == before["view"]
        assert [x["text"] for x in after["legal"]] == [x["text"] for x in before["legal"]]
        _play_my_moves(sock, 0, 100)
        assert sock.last["status"] == "finished"
        with urllib.request.urlopen(f"{second.url}/api/replay/{table}", timeout=10) as r:
            data = json.loads(r.read())
        assert len(data["steps"]) == sock.last["version"] + 1
        assert all(all(h is not None for h in step["hands"]) for step in data["steps"])
        sock.close()
    finally:
        second.stop()
