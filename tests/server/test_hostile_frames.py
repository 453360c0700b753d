"""Malformed websocket frames against a real server (issue 12, A and B).

Every malformed frame — binary, not JSON, nested too deep, the wrong shape, too long — gets an
``error`` with the code ``malformed``, the socket stays usable and nothing at the table
changes; a connection that goes on sending them is closed with 1008 and a reason.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from cardtable.server.routes.websocket import (
    CLOSE_ABUSE,
    MAX_DEPTH,
    MAX_FRAME_BYTES,
    MAX_MESSAGE,
)
from tests.serverproc import Player, ServerProcess, Socket

LIMIT = 6
"""The malformed messages a connection may send in a minute (set for these tests)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", {"CARDTABLE_MALFORMED_LIMIT": str(LIMIT)}).start()
    yield proc
    proc.stop()


def _table(server: ServerProcess) -> tuple[str, Socket, Player]:
    alice = Player(server, "alice-token")
    table = alice.create(game="royal-casino", seats=["human", "human"], name="Alice")
    a = alice.connect(table)
    assert a.hello()["seat"] == 0
    return table, a, alice


def _picture(msg: dict[str, Any]) -> tuple[Any, ...]:
    """What the table looks like to a seat (what must not change; who is connected may)."""
    seats = [{k: v for k, v in s.items() if k != "connected"} for s in msg["seats"]]
    return msg["version"], msg["to_act"], json.dumps(msg["view"]), json.dumps(seats)


def _usable(sock: Socket) -> None:
    sock.send({"type": "ping"})
    assert sock.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


# Each of these is one malformed frame; the binary one goes as bytes.
NESTED_1000 = "[" * 1000 + "]" * 1000
MALFORMED: dict[str, str | bytes] = {
    "binary": b'{"type":"ping"}',
    "binary_garbage": bytes(range(256)),
    "nested_1000_deep": NESTED_1000,
    "nested_objects_1000_deep": '{"a":' * 1000 + "1" + "}" * 1000,
    "too_deep_inside_a_message": json.dumps(
        {"type": "ping", "ref": json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))}
    ),
    "not_json": "hello there",
    "json_not_object": "[1, 2, 3]",
    "no_type": '{"kind": "ping"}',
    "type_not_text": '{"type": 7}',
    "unknown_type": '{"type": "shutdown"}',
    "too_long": json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE}),
    "hello_bad_version": '{"type": "hello", "version": "7"}',
}


@pytest.mark.parametrize("frame", list(MALFORMED), ids=list(MALFORMED))
def test_malformed_frame_gets_an_error_and_the_socket_stays_usable(
    server: ServerProcess, frame: str
) -> None:
    table, a, alice = _table(server)
    before = _picture(a.hello())
    a.send(MALFORMED[frame]) if isinstance(MALFORMED[frame], str) else a.ws.send(MALFORMED[frame])
    error = a.until(lambda m: m["type"] == "error")
    assert error["code"] == "malformed", error
    assert error["message"]
    assert error["version"] == before[0]
    _usable(a)
    assert _picture(a.hello()) == before
    other = alice.connect(table)  # a fresh connection sees the same table
    assert _picture(other.hello()) == before
    a.close()
    other.close()
    log = (server.data / "server.log").read_text()
    assert "Traceback" not in log, log


def test_a_nested_message_within_the_limit_is_accepted(server: ServerProcess) -> None:
    _table_id, a, _alice = _table(server)
    ref = json.loads("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))
    a.send({"type": "act", "action": "", "version": 0, "ref": ref})
    error = a.until(lambda m: m["type"] == "error")
    assert error["ref"] == ref  # parsed and answered as an act, its ref echoed
    a.close()


def test_repeated_malformed_frames_close_the_connection_with_a_reason(
    server: ServerProcess,
) -> None:
    table, a, alice = _table(server)
    bob = Player(server, "bob-token").connect(table)
    bob.hello()
    bob.send({"type": "sit", "seat": 1, "name": "Bob"})
    before = _picture(bob.until(lambda m: m["type"] == "update" and m["seat"] == 1))
    for i in range(LIMIT):
        a.ws.send(b"\x00" * (i + 1))
        assert a.until(lambda m: m["type"] == "error")["code"] == "malformed"
    _usable(a)  # up to the limit, the socket is fine
    a.send(NESTED_1000)  # one more: answered, then closed
    assert a.until(lambda m: m["type"] == "error")["code"] == "malformed"
    with pytest.raises(ConnectionClosed) as closed:
        a.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CLOSE_ABUSE
    assert "malformed" in closed.value.rcvd.reason
    # Nothing changed at the table; the player may come back on a new connection.
    _usable(bob)
    assert _picture(bob.hello()) == before
    again = alice.connect(table)
    assert again.hello()["seat"] == 0
    again.close()
    bob.close()


def test_a_huge_frame_closes_the_socket_with_1009_before_it_is_read(
    server: ServerProcess,
) -> None:
    table, a, alice = _table(server)
    before = _picture(a.hello())
    with contextlib.suppress(ConnectionClosed):
        a.send(json.dumps({"type": "ping", "pad": "x" * (MAX_FRAME_BYTES * 4)}))
    with pytest.raises(ConnectionClosed) as closed:
        a.until(lambda m: False)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009  # message too big
    again = alice.connect(table)
    assert _picture(again.hello()) == before
    again.close()
