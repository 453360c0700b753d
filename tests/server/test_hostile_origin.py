"""The websocket's Origin check on a real server (issue 12, H): a page of another origin is
closed with 4403 and a reason before it can do anything; the server's own origin, a client
that sends no Origin (not a browser) and the origins of ``CARDTABLE_ORIGINS`` may play."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardtable.server.routes.websocket import CLOSE_ORIGIN
from tests.serverproc import Player, ServerProcess, Socket

ALLOWED = "https://cards.example.org"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data").start()
    yield proc
    proc.stop()


@pytest.fixture
def configured(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", {"CARDTABLE_ORIGINS": f"{ALLOWED}/"}).start()
    yield proc
    proc.stop()


def _connect(server: ServerProcess, table: str, token: str, origin: str) -> Socket:
    stack = contextlib.ExitStack()
    ws = stack.enter_context(
        connect(
            f"ws://127.0.0.1:{server.port}/ws/{table}",
            additional_headers={"Cookie": f"ct_player={token}", "Origin": origin},
            open_timeout=10,
        )
    )
    return Socket(ws, stack)


def _refused(server: ServerProcess, table: str, origin: str) -> None:
    """A page of ``origin`` tries to take seat 1 and is closed instead."""
    sock = _connect(server, table, "mallory-token", origin)
    with contextlib.suppress(ConnectionClosed):
        sock.send({"type": "hello", "version": None})
        sock.send({"type": "sit", "seat": 1, "name": "Mallory"})
    with pytest.raises(ConnectionClosed) as closed:
        sock.recv(timeout=10)  # no state, no error: the close
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CLOSE_ORIGIN
    assert "origin" in closed.value.rcvd.reason
    sock.close()


def _table(server: ServerProcess) -> tuple[str, Socket]:
    alice = Player(server, "alice-token")
    table = alice.create(game="royal-casino", seats=["human", "human"], name="Alice")
    watcher = alice.connect(table)  # no Origin header: not a browser, allowed
    assert watcher.hello()["seat"] == 0
    return table, watcher


def _seat_one_open(watcher: Socket) -> bool:
    return bool(watcher.hello()["seats"][1]["open"])


def test_a_foreign_origin_cannot_act_and_the_own_origin_can(server: ServerProcess) -> None:
    table, watcher = _table(server)
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{server.port + 1}"):
        _refused(server, table, origin)
        assert _seat_one_open(watcher)
    own = _connect(server, table, "bob-token", f"http://127.0.0.1:{server.port}")
    assert own.hello()["seat"] is None
    own.send({"type": "sit", "seat": 1, "name": "Bob"})
    assert own.until(lambda m: m["type"] == "update" and m["seat"] == 1)
    assert not _seat_one_open(watcher)
    own.close()
    watcher.close()


def test_configured_origins_are_allowed_too(configured: ServerProcess) -> None:
    table, watcher = _table(configured)
    _refused(configured, table, "https://evil.example.org")
    assert _seat_one_open(watcher)
    sock = _connect(configured, table, "bob-token", ALLOWED)
    sock.hello()
    sock.send({"type": "sit", "seat": 1, "name": "Bob"})
    assert sock.until(lambda m: m["type"] == "update" and m["seat"] == 1)
    same = _connect(configured, table, "carol-token", f"http://127.0.0.1:{configured.port}")
    assert same.hello()["seat"] is None  # the server's own origin stays allowed
    for s in (sock, same, watcher):
        s.close()
