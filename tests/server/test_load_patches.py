"""Patches (issue 12, per-move cost): a client that applies ``patch`` messages ends every
version with exactly what a client of the same seat that gets whole ``update``s has, and
one that is out of step asks for a resync and gets a whole message."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.serverproc import Player, ServerProcess, Socket


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("patches")).start()
    yield proc
    proc.stop()


def _recv(sock: Socket) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(sock.ws.recv(timeout=20))
    return msg


def _apply(last: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    assert last["version"] == patch["base"]
    out = {**last, **patch["set"], "version": patch["version"], "events": patch["events"]}
    out["view"] = {**last["view"], **patch["view"]}
    return out


def _fields(msg: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in msg.items() if k != "type"}


def test_patches_rebuild_every_update_of_a_whole_hand(server: ServerProcess) -> None:
    from websockets.sync.client import connect

    player = Player(server, "patch-player")
    table = player.create(game="royal-casino", seats=["human", "bot:random"], unit=True)
    # This one reads nothing until the end: its client buffers without limit, so the server
    # never sees it fall behind (which would coalesce its updates).
    with connect(
        f"ws://127.0.0.1:{server.port}/ws/{table}?lang=en",
        additional_headers={"Cookie": "ct_player=patch-player"},
        max_queue=None,
    ) as whole:
        _play_and_compare(player, table, whole)


def _play_and_compare(player: Player, table: str, whole: Any) -> None:
    patched = player.connect(table)
    whole.send(json.dumps({"type": "hello", "version": None}))
    patched.send({"type": "hello", "version": None, "patches": True})
    first = _recv(patched)
    assert first["type"] == "state"
    seen: list[dict[str, Any]] = [_fields(first)]
    patches = 0
    last = first
    while True:
        if last["to_act"] == last["seat"] and last["legal"]:
            act = {"type": "act", "action": last["legal"][0]["text"], "version": last["version"]}
            patched.send(act)
        if last["status"] != "playing":
            break
        msg = _recv(patched)
        if msg["type"] == "patch":
            patches += 1
            msg = _apply(last, msg)
        elif msg["type"] not in ("state", "update"):
            continue
        last = msg
        seen.append(_fields(msg))
    assert patches > 20  # a hand is dozens of moves: patches, not whole updates
    # The other socket of the same seat got whole messages: after the first message of
    # each (the two hellos may have met different versions), version by version the same.
    expected: list[dict[str, Any]] = []
    while not expected or expected[-1]["status"] == "playing":
        msg = json.loads(whole.recv(timeout=20))
        if msg["type"] in ("state", "update"):
            expected.append(_fields(msg))
    start = max(seen[0]["version"], expected[0]["version"])
    got = {m["version"]: m for m in seen[1:] if m["version"] > start}
    want = {m["version"]: m for m in expected[1:] if m["version"] > start}
    assert len(got) > 20 and list(got) == list(want)
    for version, message in got.items():
        assert message == want[version], version
    patched.close()


def test_a_client_out_of_step_resyncs_with_a_whole_update(server: ServerProcess) -> None:
    # Two people and nobody else: nothing moves unless they do.
    alice, bob = Player(server, "resync-alice"), Player(server, "resync-bob")
    table = alice.create(game="royal-casino", seats=["human", "human"], unit=True)
    a, b = alice.connect(table), bob.connect(table)
    b.send({"type": "hello", "version": None, "patches": True})
    b.until(lambda m: m["type"] == "state")
    b.send({"type": "sit", "seat": 1, "name": "Bob"})
    state_b = _apply(b.last, b.until(lambda m: m["type"] == "patch"))
    assert state_b["seat"] == 1
    a.send({"type": "hello", "version": None, "patches": True})
    state_a = _recv(a)
    assert state_a["type"] == "state" and state_a["version"] == state_b["version"]
    actor, state = (a, state_a) if state_a["to_act"] == 0 else (b, state_b)
    version = state["version"]
    act = {"type": "act", "action": state["legal"][0]["text"], "version": version}
    actor.send(act)
    msg = _recv(actor)
    while msg["type"] != "patch":
        msg = _recv(actor)
    assert msg["base"] == version and msg["version"] == version + 1
    # Pretend the patch was lost: ask again from the version before it.
    actor.send({"type": "hello", "version": version, "patches": True})
    again = _recv(actor)
    assert again["type"] == "update" and again["version"] == version + 1
    assert {e["v"] for e in again["events"]} == {version + 1}
    assert _fields(_apply(state, msg)) == _fields(again)  # what the patch said, whole
    a.close()
    b.close()
