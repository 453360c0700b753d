"""Two server processes with Redis share one table: a player on each plays a whole hand."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.serverproc import Player, ServerProcess, Socket


def at_version(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "update" and m["version"] >= version


def test_two_processes_share_one_table(
    shared_database_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    env = {
        "DATABASE_URL": shared_database_url,
        "REDIS_URL": redis_url,
        "CARDTABLE_REDIS_PREFIX": redis_prefix,
    }
    one = ServerProcess(tmp_path / "one", env).start()
    two = ServerProcess(tmp_path / "two", env).start()
    try:
        alice, bob = Player(one, "alice-token"), Player(two, "bob-token")
        table = alice.create(game="royal-casino", seats=["human", "human"], unit=True)
        a, b = alice.connect(table), bob.connect(table)
        a.hello()
        assert b.hello()["seat"] is None
        b.send({"type": "sit", "seat": 1, "name": "Bob"})  # runs at process one, the owner
        b.until(lambda m: m["type"] == "update" and m["seat"] == 1)
        a.until(lambda m: m["type"] == "update" and not m["seats"][1]["open"])
        socks: dict[int, Socket] = {0: a, 1: b}
        moves = 0
        while a.last["status"] == "playing":
            seat = a.last["to_act"]
            sock = socks[seat]
            version = a.last["version"]
            if sock.last["version"] < version:
                sock.until(at_version(version))
            action = sock.last["legal"][0]["text"]
            sock.send({"type": "act", "action": action, "version": version})
            for s in (a, b):
                s.until(at_version(version + 1))
            moves += 1
        assert b.last["status"] == "finished"
        assert a.last["version"] == b.last["version"] == moves
        assert a.last["view"]["scores"] == b.last["view"]["scores"]
        # Each process sent its player only their own hand.
        assert a.last["seat"] == 0 and b.last["seat"] == 1
        a.close()
        b.close()
    finally:
        one.stop()
        two.stop()
