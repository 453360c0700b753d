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
is one process and one event loop (uvloop when installed): raw websocket clients that
apply the server's ``patch`` messages, parse with orjson, and build an action message by
formatting one precomputed template.  Its own CPU time is reported (``client_cpu_s``) so a
run can show it was not the bottleneck.  Not part of the unit suite.
"""

from __future__ import annotations

import argparse
import asyncio
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
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

HELLO = orjson.dumps({"type": "hello", "version": None, "patches": True}).decode()
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


async def create_table(http: httpx.AsyncClient, base: str, host_token: str) -> str:
    """A two-seat, one-hand Royal Casino table for two humans (retried on a dropped
    keep-alive connection)."""
    for attempt in range(3):
        try:
            r = await http.post(
                f"{base}/api/tables",
                json={"game": "royal-casino", "seats": ["human", "human"], "unit": True},
                cookies={"ct_player": host_token},
            )
            r.raise_for_status()
            return str(r.json()["id"])
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def play_seat(
    ws: ClientConnection, stats: Stats, think: tuple[float, float], rng: random.Random
) -> None:
    """Play one seat until the table is over, applying patches to the last full message."""
    last: dict[str, Any] = {}
    pending: dict[int, float] = {}
    async for text in ws:
        msg: dict[str, Any] = orjson.loads(text)
        kind = msg["type"]
        if kind == "patch":
            if last.get("version") != msg["base"]:
                stats.resyncs += 1
                await ws.send(
                    orjson.dumps(
                        {"type": "hello", "version": last.get("version"), "patches": True}
                    ).decode()
                )
                continue
            last.update(msg["set"])
            last["version"] = msg["version"]
        elif kind in ("state", "update"):
            last = msg
        elif kind == "error":
            stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
            pending.clear()
            await ws.send(HELLO)
            continue
        else:
            continue
        version = last["version"]
        now = time.perf_counter()
        if pending:
            for v in [v for v in pending if v < version]:
                sent = pending.pop(v)
                if stats.measuring:
                    stats.latencies.append(now - sent)
        if last["status"] != "playing":
            return
        if last["to_act"] == last["seat"] and last["legal"] and version not in pending:
            await asyncio.sleep(rng.uniform(*think))
            action = rng.choice(last["legal"])["text"]
            pending[version] = time.perf_counter()
            await ws.send(ACT.format(action=orjson.dumps(action).decode(), version=version))


async def run_table(
    base: str,
    ws_base: str,
    http: httpx.AsyncClient,
    stats: Stats,
    think: tuple[float, float],
    stop_at: float,
    seed: int,
) -> None:
    """Play tables one after another at one slot until ``stop_at``."""
    rng = random.Random(seed)
    while time.perf_counter() < stop_at:
        host, guest = secrets.token_hex(8), secrets.token_hex(8)
        table = await create_table(http, base, host)
        url = f"{ws_base}/ws/{table}"
        async with (
            connect(url, additional_headers={"Cookie": f"ct_player={host}"}, compression=None) as a,
            connect(
                url, additional_headers={"Cookie": f"ct_player={guest}"}, compression=None
            ) as b,
        ):
            await b.send(SIT)
            await a.send(HELLO)
            await b.send(HELLO)
            left = stop_at - time.perf_counter()
            try:
                await asyncio.wait_for(
                    asyncio.gather(
                        play_seat(a, stats, think, rng), play_seat(b, stats, think, rng)
                    ),
                    timeout=max(left, 0.1),
                )
                stats.finished_tables += 1
            except TimeoutError:
                return


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


async def main_async(args: argparse.Namespace, proc: Proc) -> int:
    """Run the load and print the figures."""
    base = args.url.rstrip("/")
    ws_base = "ws" + base[len("http") :]
    stats = Stats()
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
    soak = args.soak is not None
    seconds = args.soak * 60 if soak else args.seconds
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        start = time.perf_counter()
        stop_at = start + args.warmup + seconds
        tasks = []
        for i in range(args.tables):
            slot = run_table(
                base, ws_base, http, stats, (args.think_min, args.think_max), stop_at, args.seed + i
            )
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
                "  client_cpu_s  load_avg",
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
                print(
                    f"{(now - measured_from) / 60:6.1f}  {s['moves_per_s']:7.1f}  "
                    f"{s['p50_ms']}  {s['p99_ms']}  {s['max_ms']}  {_round(proc.rss_mb())}  "
                    f"{s['server_cpu_ms_per_move']}  {s['client_cpu_s']}  {s['load_avg']}",
                    flush=True,
                )
                mark, cpu_mark, cli_mark = now, cpu, cli
        results = await gathered
        measured = time.perf_counter() - measured_from
        cpu1, client1 = proc.cpu_s(), client_cpu_s()
    failures = [r for r in results if isinstance(r, BaseException)]
    server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    figures = summary(stats.latencies, measured, args.tables, server_cpu, client1 - client0)
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
    try:
        try:
            import uvloop
        except ImportError:
            return asyncio.run(main_async(args, proc))
        return uvloop.run(main_async(args, proc))
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
