"""Per-player rate limits on a real server (issue 12, D): messages and hints draw on one
token bucket per player across all of that player's sockets; beyond it a message gets
``rate_limited`` with ``retry_after`` and a message in the client's language, changes
nothing and leaves the socket open; other players are not affected."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.server.i18n import translator
from cardtable.server.limits import Buckets, origin_allowed
from tests.serverproc import Player, ServerProcess, Socket

CS = translator("cs")


def _too_fast(seconds: int) -> str:
    return CS.nfmt(
        "Too fast: try again in {num} second", "Too fast: try again in {num} seconds", seconds
    )


def _limited(sock: Socket, message: dict[str, object]) -> dict[str, object]:
    error = sock.error(message)
    assert error["code"] == "rate_limited", error
    retry = error["retry_after"]
    assert isinstance(retry, int) and retry >= 1
    assert error["message"] == _too_fast(retry)
    return error


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[ServerProcess]:
    """Six messages at once per player, then one every 20 seconds."""
    env = {"CARDTABLE_MESSAGE_BURST": "6", "CARDTABLE_MESSAGE_RATE": "0.05"}
    proc = ServerProcess(tmp_path / "strict", env).start()
    yield proc
    proc.stop()


@pytest.fixture
def one_hint(tmp_path: Path) -> Iterator[ServerProcess]:
    """One hint per player, then one every 100 seconds."""
    env = {"CARDTABLE_HINT_BURST": "1", "CARDTABLE_HINT_RATE": "0.01"}
    proc = ServerProcess(tmp_path / "hints", env).start()
    yield proc
    proc.stop()


def _pong(sock: Socket) -> None:
    sock.send({"type": "ping"})
    assert sock.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_messages_are_limited_per_player_across_sockets(strict: ServerProcess) -> None:
    alice, bob = Player(strict, "alice-token"), Player(strict, "bob-token")
    table = alice.create(game="royal-casino", seats=["human", "human"], name="Alice")
    first, second = alice.connect(table, lang="cs"), alice.connect(table, lang="cs")
    watcher = bob.connect(table)
    before = watcher.hello()
    first.hello()
    second.hello()
    for _ in range(2):
        _pong(first)
        _pong(second)
    # Six messages spent over two sockets: the player's next one, on either, is refused.
    _limited(second, {"type": "ping"})
    _limited(first, {"type": "act", "action": "trail 2C", "version": 0})
    _limited(first, {"type": "leave"})
    # Nothing changed, and another player is not held back.
    _pong(watcher)
    after = watcher.hello()
    assert (after["version"], after["seats"]) == (before["version"], before["seats"])
    assert after["seats"][0]["name"] == "Alice" and not after["seats"][0]["open"]
    for sock in (first, second, watcher):
        sock.close()


def test_hints_are_limited_per_player_across_sockets(one_hint: ServerProcess) -> None:
    alice, bob = Player(one_hint, "alice-token"), Player(one_hint, "bob-token")
    tables = [p.create(game="royal-casino", seats=["human", "bot:random"]) for p in (alice, bob)]
    first, second = alice.connect(tables[0], lang="cs"), alice.connect(tables[0], lang="cs")
    other = bob.connect(tables[1])
    for sock in (first, second, other):
        sock.hello()
        if sock.last["to_act"] != 0:
            sock.until(lambda m: m["type"] == "update" and m["to_act"] == 0)
    first.send({"type": "hint"})
    assert first.until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
    _limited(second, {"type": "hint"})
    _limited(first, {"type": "hint"})
    _pong(second)  # other messages still go through
    other.send({"type": "hint"})
    assert other.until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
    for sock in (first, second, other):
        sock.close()


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "ok"),
    [
        (None, "cards.example.org", (), True),  # not a browser
        ("https://cards.example.org", "cards.example.org", (), True),  # behind a TLS proxy
        ("https://cards.example.org", "cards.example.org:443", (), True),
        ("http://cards.example.org:8000", "cards.example.org:8000", (), True),
        ("http://[::1]:8000", "[::1]:8000", (), True),
        ("http://cards.example.org:8001", "cards.example.org:8000", (), False),
        ("https://cards.example.org.evil.example", "cards.example.org", (), False),
        ("null", "cards.example.org", (), False),
        ("file://", "cards.example.org", (), False),
        ("https://app.example.org", "cards.example.org", ("https://APP.example.org",), True),
        ("https://evil.example", "cards.example.org", ("*",), True),
        ("https://evil.example", None, (), False),
    ],
)
def test_origin_rules(
    origin: str | None, host: str | None, allowed: tuple[str, ...], ok: bool
) -> None:
    assert origin_allowed(origin, host, allowed) is ok


def test_buckets_refill_and_forget_idle_players() -> None:
    clock = [0.0]
    buckets = Buckets(burst=2, rate=1.0, clock=lambda: clock[0])
    assert [buckets.take("ann") for _ in range(3)] == [0.0, 0.0, 1.0]
    clock[0] = 0.5
    assert buckets.take("ann") == 0.5  # half a token there: half a second to go
    clock[0] = 10.0
    assert buckets.take("ann") == 0.0
    for i in range(5000):
        buckets.take(f"p{i}")
    clock[0] = 20.0
    buckets.take("new")  # the idle, full buckets are dropped when there are many
    assert len(buckets) < 5000
