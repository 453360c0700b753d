#!/usr/bin/env python3
"""Load test: N concurrent two-seat tables played over real websockets on loopback.

Each table has two seats, each a websocket client that plays like a random bot: when the
table says it is to act, it waits a think time and sends one of its legal actions.  The
latency of a move is the time from sending the action to receiving the message (on the
same socket) that carries the new version: the server parsed, checked, applied and stored
it and built this seat's view.  A finished table is replaced by a new one.

    python scripts/loadtest.py --tables 500 --seconds 30 --json
    python scripts/loadtest.py --tables 1000 --seconds 30 --json
    python scripts/loadtest.py --tables 500 --soak 30          # memory and latency over time
    python scripts/loadtest.py --url http://127.0.0.1:8000 --server-pid 1234 --tables 100

Without ``--url`` it starts ``cardtable serve`` itself (SQLite in a temporary directory, or
``DATABASE_URL`` if set) and measures that process's CPU time and memory.  The generator
is one process and one event loop (uvloop when installed): websocket clients written
against the protocol (asyncio protocols that parse frames themselves, no task per seat,
timers for the think time) that apply the server's ``patch`` messages, parse with orjson,
and build an action message by formatting one precomputed template.  Its own CPU time is
reported (``client_cpu_s``) so a run can show it was not the bottleneck.  Not part of the
unit suite.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import orjson

HELLO_OBJ: dict[str, Any] = {"type": "hello", "version": None, "patches": True}
HELLO = orjson.dumps(HELLO_OBJ).decode()
ACT = '{{"type":"act","action":{action},"version":{version}}}'
SIT = orjson.dumps({"type": "sit", "seat": 1, "name": "b"}).decode()
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Stats:
    """Latencies (seconds) and counters shared by every client."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished_tables: int = 0
    resyncs: int = 0
    measuring: bool = False


@dataclass
class Proc:
    """The server process being measured (CPU seconds and resident memory from /proc)."""

    pid: int | None

    def cpu_s(self) -> float | None:
        """User + system CPU seconds so far (``None`` when the process is unknown)."""
        if self.pid is None:
            return None
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss_mb(self) -> float | None:
        """Resident memory in MB."""
        if self.pid is None:
            return None
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def client_cpu_s() -> float:
    """This process's CPU seconds (user + system)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


CREATE_BODY = orjson.dumps({"game": "royal-casino", "seats": ["human", "human"], "unit": True})


async def create_table(host: str, port: int, host_token: str) -> str:
    """A two-seat, one-hand Royal Casino table for two humans (one plain HTTP/1.1 request
    on its own connection: cheaper for the generator than a client library)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(
            (
                f"POST /api/tables HTTP/1.1\r\nHost: {host}:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(CREATE_BODY)}\r\n"
                f"Cookie: ct_player={host_token}\r\nConnection: close\r\n\r\n"
            ).encode()
            + CREATE_BODY
        )
        response = await reader.read()
    finally:
        writer.close()
    head, _, body = response.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"creating a table: {head[:80]!r}")
    if b"chunked" in head.lower():
        body = body.split(b"\r\n", 1)[1].rsplit(b"\r\n0\r\n", 1)[0]
    return str(orjson.loads(body)["id"])


class Seat(asyncio.Protocol):
    """One seat's websocket client, written against the protocol directly (the generator
    must cost far less than the server): it parses the server's unmasked frames, sends
    its own with an all-zero mask (so the payload goes out as it is), applies patches to
    the last whole message, and acts from a timer callback, with no task per seat."""

    def __init__(
        self,
        path: str,
        host: str,
        token: str,
        stats: Stats,
        think: tuple[float, float],
        rng: random.Random,
    ) -> None:
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: bG9hZHRlc3Rsb2FkdGVzdA==\r\n"
            f"Sec-WebSocket-Version: 13\r\nCookie: ct_player={token}\r\n\r\n"
        ).encode()
        self.stats, self.think, self.rng = stats, think, rng
        self.transport: asyncio.Transport | None = None
        self.buf = b""
        self.upgraded: asyncio.Future[None] = loop.create_future()
        self.done: asyncio.Future[None] = loop.create_future()
        self.last: dict[str, Any] = {}
        self.pending: dict[int, float] = {}

    # -- the socket ---------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Connected: ask for the websocket upgrade."""
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.transport.write(self.request)

    def connection_lost(self, exc: Exception | None) -> None:
        """Gone: whoever waits on this seat learns it."""
        for fut in (self.upgraded, self.done):
            if not fut.done():
                fut.set_exception(ConnectionError(f"connection lost: {exc}"))

    def send(self, text: str) -> None:
        """One masked text frame (mask 0: the payload is unchanged)."""
        if self.transport is None or self.transport.is_closing():
            return
        data = text.encode()
        n = len(data)
        if n < 126:
            head = bytes((0x81, 0x80 | n))
        elif n < 65536:
            head = bytes((0x81, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x81, 0x80 | 127)) + n.to_bytes(8, "big")
        self.transport.write(head + b"\0\0\0\0" + data)

    def data_received(self, data: bytes) -> None:
        """The upgrade's answer, then whole frames (a partial one waits for the rest)."""
        buf = self.buf + data
        if not self.upgraded.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                self.buf = buf
                return
            if not buf.startswith(b"HTTP/1.1 101"):
                self.upgraded.set_exception(ConnectionError(buf[:80].decode(errors="replace")))
                return
            self.upgraded.set_result(None)
            buf = buf[end + 4 :]
        pos, size = 0, len(buf)
        while size - pos >= 2:
            opcode, n = buf[pos] & 0x0F, buf[pos + 1] & 0x7F
            start = pos + 2
            if n == 126:
                n, start = int.from_bytes(buf[pos + 2 : pos + 4], "big"), pos + 4
            elif n == 127:
                n, start = int.from_bytes(buf[pos + 2 : pos + 10], "big"), pos + 10
            if size < start + n:
                break
            payload = buf[start : start + n]
            pos = start + n
            if opcode == 1:
                self.on_message(orjson.loads(payload))
            elif opcode == 9 and self.transport is not None:  # ping: pong, masked
                self.transport.write(bytes((0x8A, 0x80 | len(payload))) + b"\0\0\0\0" + payload)
            elif opcode == 8 and self.transport is not None:
                self.transport.close()
        self.buf = buf[pos:]

    # -- the player ---------------------------------------------------------------------
    def on_message(self, msg: dict[str, Any]) -> None:
        """One message: apply it, measure what it answers, and plan the next action."""
        kind = msg["type"]
        last = self.last
        if kind == "patch":
            if last.get("version") != msg["base"]:
                self.stats.resyncs += 1
                self.send(orjson.dumps({**HELLO_OBJ, "version": last.get("version")}).decode())
                return
            last.update(msg["set"])
            last["version"] = msg["version"]
        elif kind in ("state", "update"):
            last = self.last = msg
        elif kind == "error":
            self.stats.errors[msg["code"]] = self.stats.errors.get(msg["code"], 0) + 1
            self.pending.clear()
            self.send(HELLO)
            return
        else:
            return
        version = last["version"]
        if self.pending:
            now = time.perf_counter()
            for v in [v for v in self.pending if v < version]:
                sent = self.pending.pop(v)
                if self.stats.measuring:
                    self.stats.latencies.append(now - sent)
        if last["status"] != "playing":
            if not self.done.done():
                self.done.set_result(None)
            return
        if last["to_act"] == last["seat"] and last["legal"] and version not in self.pending:
            self.pending[version] = 0.0  # chosen, not sent yet
            self.loop.call_later(self.rng.uniform(*self.think), self.act, version)

    def act(self, version: int) -> None:
        """Play a random legal action for ``version`` (if the table is still there)."""
        if self.last.get("version") != version:
            self.pending.pop(version, None)
            return
        action = self.rng.choice(self.last["legal"])["text"]
        self.pending[version] = time.perf_counter()
        self.send(ACT.format(action=orjson.dumps(action).decode(), version=version))

    def close(self) -> None:
        """Hang up."""
        if self.transport is not None:
            self.transport.close()


def _factory(seat: Seat) -> Callable[[], Seat]:
    return lambda: seat


async def run_table(
    base: str,
    stats: Stats,
    think: tuple[float, float],
    stop_at: float,
    seed: int,
) -> None:
    """Play tables one after another at one slot until ``stop_at``."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    address = base.split("://", 1)[1]
    host, port = address.rsplit(":", 1)
    while time.perf_counter() < stop_at:
        host_token, guest_token = secrets.token_hex(8), secrets.token_hex(8)
        table = await create_table(host, int(port), host_token)
        seats = []
        try:
            for token in (host_token, guest_token):
                seat = Seat(f"/ws/{table}", address, token, stats, think, rng)
                await loop.create_connection(_factory(seat), host, int(port))
                await seat.upgraded
                seats.append(seat)
            a, b = seats
            b.send(SIT)
            a.send(HELLO)
            b.send(HELLO)
            left = stop_at - time.perf_counter()
            try:
                await asyncio.wait_for(asyncio.gather(a.done, b.done), timeout=max(left, 0.1))
                stats.finished_tables += 1
            except TimeoutError:
                return
        finally:
            for seat in seats:
                seat.close()


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of some values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(
    lat: list[float], seconds: float, tables: int, server_cpu: float | None, client_cpu: float
) -> dict[str, Any]:
    """The figures of one measured window."""
    ms = sorted(x * 1000 for x in lat)
    n = len(ms)
    return {
        "tables": tables,
        "moves": n,
        "moves_per_s": round(n / seconds, 1) if seconds else 0.0,
        "p50_ms": round(percentile(ms, 0.5), 1) if n else None,
        "p90_ms": round(percentile(ms, 0.9), 1) if n else None,
        "p99_ms": round(percentile(ms, 0.99), 1) if n else None,
        "max_ms": round(ms[-1], 1) if n else None,
        "server_cpu_ms_per_move": (
            round(server_cpu * 1000 / n, 3) if server_cpu is not None and n else None
        ),
        "client_cpu_s": round(client_cpu, 2),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }


def server_gc(base: str) -> dict[str, Any] | None:
    """The server's garbage-collector figures from ``/healthz`` (``cardtable serve`` gives
    them: pauses so far, longest young and full), or ``None``."""
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=5) as response:
            found = orjson.loads(response.read()).get("gc")
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _gc_columns(gc_figures: dict[str, Any] | None) -> str:
    """The soak line's collector columns: longest young and full pause so far, reclaims."""
    if gc_figures is None:
        return "-  -  -"
    return (
        f"{gc_figures.get('longest_ms')}  {gc_figures.get('longest_full_ms')}  "
        f"{gc_figures.get('reclaims')}"
    )


async def main_async(args: argparse.Namespace, proc: Proc) -> int:
    """Run the load and print the figures."""
    base = args.url.rstrip("/")
    stats = Stats()
    soak = args.soak is not None
    seconds = args.soak * 60 if soak else args.seconds
    start = time.perf_counter()
    stop_at = start + args.warmup + seconds
    tasks = []
    for i in range(args.tables):
        slot = run_table(base, stats, (args.think_min, args.think_max), stop_at, args.seed + i)
        tasks.append(asyncio.create_task(slot))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    await asyncio.sleep(max(0.0, start + args.warmup - time.perf_counter()))
    stats.measuring = True
    measured_from = time.perf_counter()
    cpu0, client0 = proc.cpu_s(), client_cpu_s()
    gathered = asyncio.gather(*tasks, return_exceptions=True)
    if soak:
        print(
            "minute  moves/s  p50_ms  p99_ms  max_ms  server_rss_mb  server_cpu_ms/move"
            "  client_cpu_s  load_avg  gc_longest_ms  gc_longest_full_ms  gc_reclaims",
            flush=True,
        )
        mark, seen, cpu_mark, cli_mark = measured_from, 0, cpu0, client0
        while not gathered.done():
            await asyncio.wait([gathered], timeout=args.every)
            now, cpu, cli = time.perf_counter(), proc.cpu_s(), client_cpu_s()
            window = stats.latencies[seen:]
            if not window and gathered.done():
                break
            seen = len(stats.latencies)
            used = None if cpu is None or cpu_mark is None else cpu - cpu_mark
            s = summary(window, now - mark, args.tables, used, cli - cli_mark)
            collector = await asyncio.to_thread(server_gc, base)
            print(
                f"{(now - measured_from) / 60:6.1f}  {s['moves_per_s']:7.1f}  "
                f"{s['p50_ms']}  {s['p99_ms']}  {s['max_ms']}  {_round(proc.rss_mb())}  "
                f"{s['server_cpu_ms_per_move']}  {s['client_cpu_s']}  {s['load_avg']}  "
                f"{_gc_columns(collector)}",
                flush=True,
            )
            mark, cpu_mark, cli_mark = now, cpu, cli
    results = await gathered
    measured = time.perf_counter() - measured_from
    cpu1, client1 = proc.cpu_s(), client_cpu_s()
    failures = [r for r in results if isinstance(r, BaseException)]
    server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    figures = summary(stats.latencies, measured, args.tables, server_cpu, client1 - client0)
    figures["server_gc"] = await asyncio.to_thread(server_gc, base)
    if args.json:
        print(orjson.dumps(figures).decode())
    else:
        print(
            f"tables: {args.tables} concurrent (royal-casino, 2 websocket clients each, think "
            f"{args.think_min:g}-{args.think_max:g} s), measured {measured:.1f} s after "
            f"{args.warmup:g} s warm-up"
        )
        print(f"moves: {figures['moves']}  throughput: {figures['moves_per_s']} moves/s")
        print(
            f"latency ms: p50 {figures['p50_ms']}  p90 {figures['p90_ms']}  "
            f"p99 {figures['p99_ms']}  max {figures['max_ms']}"
        )
        print(
            f"server CPU: {figures['server_cpu_ms_per_move']} ms/move, server memory "
            f"{_round(proc.rss_mb())} MB; load generator CPU: {figures['client_cpu_s']} s; "
            f"load average {figures['load_avg']}"
        )
        print(f"server collector: {figures['server_gc'] or 'not reported'}")
    print(
        f"tables finished: {stats.finished_tables}  errors: {stats.errors or 'none'}  "
        f"resyncs: {stats.resyncs}  client failures: {len(failures)}",
        file=sys.stderr,
    )
    for failure in failures[:3]:
        print(f"  {type(failure).__name__}: {failure}", file=sys.stderr)
    return 0 if not failures and stats.latencies else 1


def main() -> int:
    """Parse arguments, start a server if needed, run."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured duration")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=1.5)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--server-pid", type=int, help="its process, to measure (with --url)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--soak", type=float, metavar="MINUTES", help="run this long, printing")
    parser.add_argument("--every", type=float, default=60.0, help="soak: seconds between lines")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8 * args.tables + 256)), hard))
    server = None
    proc = Proc(args.server_pid)
    if args.url is None:
        port = free_port()
        data = tempfile.mkdtemp(prefix="cardtable-load-")
        env = {**os.environ, "CARDTABLE_DATA": data, "CARDTABLE_BOT_DELAY": "0"}
        server = subprocess.Popen(
            [sys.executable, "-m", "cardtable.cli.main", "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        proc = Proc(server.pid)
        args.url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(args.url + "/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
    # The generator must stay light: the same collector settings as the server's, so its
    # own full collections do not show up as the server's latency.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    try:
        try:
            import uvloop
        except ImportError:
            return asyncio.run(main_async(args, proc))
        return uvloop.run(main_async(args, proc))
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:  # still closing sockets: no need to wait
                server.kill()
                server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
