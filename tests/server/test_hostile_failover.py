"""Failover with no manual retry (issue 12, G): two real server processes, Redis and
PostgreSQL; the process that owns a table is killed with SIGKILL mid-game.

* With nobody sending anything, the other process takes the table over and its clients are
  told (``notice`` ``took_over``, in their language); the killed process's player reconnects
  to the survivor and the game plays on to its end, the bot included, without one error.
* A command sent right after the kill, by a player connected to the survivor, is answered
  with the move made (not a ``conflict``): the survivor takes the table over and runs it.

In both, every action a client had seen acknowledged is in the finished record at its
version.
"""

from __future__ import annotations

import json
import secrets
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.bus import TOOK_OVER
from cardtable.server.i18n import translator
from tests.serverproc import Player, ServerProcess, Socket

HUMANS = (0, 1)
"""Alice (seat 0, on the owner) and Bob (seat 1, on the other process); seat 2 is a bot."""


@pytest.fixture
def cluster(
    shared_database_url: str, redis_url: str, tmp_path: Path
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    env = {
        "DATABASE_URL": shared_database_url,
        "REDIS_URL": redis_url,
        "CARDTABLE_REDIS_PREFIX": "ct-test-" + secrets.token_hex(4),
    }
    one = ServerProcess(tmp_path / "one", env).start()
    two = ServerProcess(tmp_path / "two", env).start()
    yield one, two
    one.kill()
    two.stop()


def _after(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "update" and m["version"] > version


class Game:
    """Two people and a bot playing; what each acknowledged move was."""

    def __init__(self, socks: dict[int, Socket]) -> None:
        self.socks = socks
        self.acked: dict[int, str] = {}

    @property
    def latest(self) -> dict[str, Any]:
        return max((s.last for s in self.socks.values()), key=lambda m: int(m["version"]))

    def catch_up(self, version: int) -> None:
        for sock in self.socks.values():
            if sock.last["version"] < version:
                sock.until(lambda m: m["type"] == "update" and m["version"] >= version)

    def play(self, until: Callable[[dict[str, Any]], bool]) -> None:
        """Each person plays their first legal move until ``until`` holds (or the end)."""
        while self.latest["status"] == "playing" and not until(self.latest):
            state = self.latest
            version, seat = int(state["version"]), state["to_act"]
            if seat not in self.socks:  # the bot's turn: it moves by itself
                self.socks[0].until(_after(version))
                continue
            self.act(seat, version)

    def act(self, seat: int, version: int) -> None:
        sock = self.socks[seat]
        self.catch_up(version)
        action = sock.last["legal"][0]["text"]
        sock.send({"type": "act", "action": action, "version": version})
        answer = sock.until(lambda m: m["type"] == "error" or _after(version)(m))
        assert answer["type"] == "update", answer
        self.acked[version + 1] = action
        self.catch_up(version + 1)


def _start(one: ServerProcess, two: ServerProcess) -> tuple[str, Player, Game]:
    alice, bob = Player(one, "alice-token"), Player(two, "bob-token")
    table = alice.create(game="royal-casino", seats=["human", "human", "bot:random"], unit=True)
    a, b = alice.connect(table, lang="cs"), bob.connect(table, lang="ru")
    a.hello()
    b.hello()
    b.send({"type": "sit", "seat": 1, "name": "Bob"})  # forwarded to process one, the owner
    b.until(lambda m: m["type"] == "update" and m["seat"] == 1)
    return table, alice, Game({0: a, 1: b})


def _record(server: ServerProcess, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/record/{table}", timeout=10) as r:
        record: dict[str, Any] = json.loads(r.read())
    return record


def _finish(game: Game, two: ServerProcess, table: str, kill_at: int) -> None:
    game.play(lambda m: False)
    game.catch_up(int(game.latest["version"]))
    assert all(s.last["status"] == "finished" for s in game.socks.values())
    actions = _record(two, table)["actions"]
    assert len(actions) == game.latest["version"]
    for version, action in game.acked.items():
        assert actions[version - 1] == action, (version, action)
    assert any(v > kill_at for v in game.acked), "people played on after the kill"
    for sock in game.socks.values():
        errors = [json.loads(f) for f in sock.frames if json.loads(f)["type"] == "error"]
        assert errors == [], errors
        sock.close()


def _notice(sock: Socket, lang: str) -> None:
    """The notice that the table moved (received already, or the next one)."""
    seen = [m for m in map(json.loads, sock.frames) if m["type"] == "notice"]
    notice = seen[0] if seen else sock.until(lambda m: m["type"] == "notice")
    assert notice["code"] == "took_over"
    assert notice["message"] == translator(lang).gettext(TOOK_OVER) != TOOK_OVER


def test_the_survivor_takes_over_with_no_command(
    cluster: tuple[ServerProcess, ServerProcess],
) -> None:
    one, two = cluster
    table, alice, game = _start(one, two)
    game.play(lambda m: m["version"] >= 6 and m["to_act"] == 0)
    seen = int(game.latest["version"])
    one.kill()
    game.socks.pop(0).close()  # Alice's connection went down with its process
    _notice(game.socks[1], "ru")  # nobody sent anything
    back = Player(two, alice.token).connect(table, lang="cs")  # Alice reconnects elsewhere
    assert back.hello(seen)["version"] >= seen
    game.socks[0] = back
    _finish(game, two, table, seen)


def test_a_command_right_after_the_kill_is_run_by_the_survivor(
    cluster: tuple[ServerProcess, ServerProcess],
) -> None:
    one, two = cluster
    table, alice, game = _start(one, two)
    game.play(lambda m: m["version"] >= 4 and m["to_act"] == 1)
    seen = int(game.latest["version"])
    one.kill()
    game.socks.pop(0).close()  # Alice's connection went down with its process
    game.act(1, seen)  # Bob, on the survivor, plays at once: his move is made
    _notice(game.socks[1], "ru")
    back = Player(two, alice.token).connect(table, lang="cs")
    back.hello(seen)
    game.socks[0] = back
    _finish(game, two, table, seen)
