#!/usr/bin/env python3
"""Load test: N concurrent bot-vs-bot tables played over real websockets on loopback.

Each table has two seats, each a websocket client that plays like a random bot: when its
update says it is to act, it waits a think time and sends one of its legal actions.  The
latency of a move is the time from sending the action to receiving the update (on the same
socket) that carries the new version: the server parsed, checked, applied and stored it
and built this seat's view.  Prints p50/p90/p99/max latency and the throughput.

    python scripts/loadtest.py --tables 500 --seconds 60
    python scripts/loadtest.py --url http://127.0.0.1:8000 --tables 100

Without ``--url`` it starts ``cardtable serve`` itself (SQLite in a temporary directory,
or ``DATABASE_URL`` if set).  Not part of the unit suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect


@dataclass
class Stats:
    """Latencies (seconds) and counters shared by every client."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished_tables: int = 0
    measuring: bool = False


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    """Play one seat until the table is over."""
    pending: dict[int, float] = {}
    async for text in ws:
        msg: dict[str, Any] = json.loads(text)
        kind = msg["type"]
        if kind == "error":
            stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
            pending.clear()
            await ws.send(json.dumps({"type": "hello", "version": None}))
            continue
        if kind not in ("state", "update"):
            continue
        now = time.perf_counter()
        for v in [v for v in pending if v < msg["version"]]:
            sent = pending.pop(v)
            if stats.measuring:
                stats.latencies.append(now - sent)
        if msg["status"] != "playing":
            return
        if msg["to_act"] == msg["seat"] and msg["legal"] and msg["version"] not in pending:
            version = msg["version"]
            await asyncio.sleep(rng.uniform(*think))
            action = rng.choice(msg["legal"])["text"]
            pending[version] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action, "version": version}))


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
            connect(url, additional_headers={"Cookie": f"ct_player={host}"}) as a,
            connect(url, additional_headers={"Cookie": f"ct_player={guest}"}) as b,
        ):
            await b.send(json.dumps({"type": "sit", "seat": 1, "name": "b"}))
            await a.send(json.dumps({"type": "hello", "version": None}))
            await b.send(json.dumps({"type": "hello", "version": None}))
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


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of some values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main_async(args: argparse.Namespace) -> int:
    """Run the load and print the figures."""
    base = args.url.rstrip("/")
    ws_base = "ws" + base[len("http") :]
    stats = Stats()
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        start = time.perf_counter()
        stop_at = start + args.warmup + args.seconds
        tasks = []
        for i in range(args.tables):
            tasks.append(
                asyncio.create_task(
                    run_table(
                        base,
                        ws_base,
                        http,
                        stats,
                        (args.think_min, args.think_max),
                        stop_at,
                        args.seed + i,
                    )
                )
            )
            if i % 50 == 49:
                await asyncio.sleep(0.05)
        await asyncio.sleep(max(0.0, start + args.warmup - time.perf_counter()))
        stats.measuring = True
        measured_from = time.perf_counter()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        measured = time.perf_counter() - measured_from
    failures = [r for r in results if isinstance(r, BaseException)]
    lat = stats.latencies
    if not lat:
        print("no moves measured", file=sys.stderr)
        return 1
    ms = [x * 1000 for x in lat]
    print(
        f"tables: {args.tables} concurrent (royal-casino, 2 websocket clients each, think "
        f"{args.think_min:g}-{args.think_max:g} s), measured {measured:.1f} s after "
        f"{args.warmup:g} s warm-up"
    )
    print(f"moves: {len(ms)}  throughput: {len(ms) / measured:.1f} moves/s")
    print(
        f"latency ms: p50 {percentile(ms, 0.5):.1f}  p90 {percentile(ms, 0.9):.1f}  "
        f"p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}  mean {statistics.fmean(ms):.1f}"
    )
    print(
        f"tables finished: {stats.finished_tables}  errors: {stats.errors or 'none'}  "
        f"client failures: {len(failures)}"
    )
    for failure in failures[:3]:
        print(f"  {type(failure).__name__}: {failure}", file=sys.stderr)
    return 0 if not failures else 1


def main() -> int:
    """Parse arguments, start a server if needed, run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured duration")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=1.5)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8 * args.tables + 256)), hard))
    server = None
    if args.url is None:
        port = free_port()
        data = tempfile.mkdtemp(prefix="cardtable-load-")
        env = {**os.environ, "CARDTABLE_DATA": data, "CARDTABLE_BOT_DELAY": "0"}
        server = subprocess.Popen(
            [sys.executable, "-m", "cardtable.cli.main", "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        args.url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                urllib.request.urlopen(args.url + "/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
    try:
        return asyncio.run(main_async(args))
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
