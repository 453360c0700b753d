"""How much hints slow an unrelated table (issue 12, D): one player asks for hints back to back
on several sockets while another player, at another table, pings; prints the ping's round
trip (p50/p99/max) for each setting of ``CARDTABLE_HINT_SEARCHES``.

    python lab/hint_pressure.py [--sockets 6] [--seconds 15] [--searches 1 6]

The hint rate limit is lifted for the run (so every hint runs a search); with the default
limits a player gets three hints and then one every ten seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.serverproc import Socket

ROOT = Path(__file__).resolve().parents[1]
"""The checkout, whose ``tests.serverproc`` starts the server processes."""


def _hinter(sock: Socket, stop: threading.Event, done: list[int]) -> None:
    while not stop.is_set():
        sock.send({"type": "hint"})
        msg = sock.until(lambda m: m["type"] in ("hint", "error"), timeout=60)
        if msg["type"] == "error":
            raise RuntimeError(msg)
        done.append(1)


def run(searches: int, sockets: int, seconds: float) -> dict[str, float]:
    """One server with ``searches`` concurrent hint searches: the pinger's round trips (ms)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.serverproc import Player, ServerProcess

    env = {
        "CARDTABLE_HINT_SEARCHES": str(searches),
        "CARDTABLE_HINT_BURST": "1000000",
        "CARDTABLE_HINT_RATE": "1000000",
        "CARDTABLE_MESSAGE_BURST": "1000000",
        "CARDTABLE_MESSAGE_RATE": "1000000",
    }
    server = ServerProcess(Path(tempfile.mkdtemp()), env).start()
    try:
        asker, pinger = Player(server, "asker"), Player(server, "pinger")
        table = asker.create(game="royal-casino", seats=["human", "bot:random"])
        other = pinger.create(game="royal-casino", seats=["human", "bot:random"])
        socks = [asker.connect(table) for _ in range(sockets)]
        for sock in socks:
            if sock.hello()["to_act"] != 0:
                sock.until(lambda m: m["type"] == "update" and m["to_act"] == 0)
        ping = pinger.connect(other)
        ping.hello()
        stop, done = threading.Event(), list[int]()
        threads = [threading.Thread(target=_hinter, args=(s, stop, done)) for s in socks]
        for t in threads:
            t.start()
        rtts: list[float] = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            start = time.perf_counter()
            ping.send({"type": "ping"})
            ping.until(lambda m: m["type"] == "pong")
            rtts.append((time.perf_counter() - start) * 1000)
            time.sleep(0.02)
        stop.set()
        for t in threads:
            t.join()
        rtts.sort()
        return {
            "searches": searches,
            "hints": len(done),
            "pings": len(rtts),
            "p50_ms": round(statistics.median(rtts), 1),
            "p99_ms": round(rtts[int(len(rtts) * 0.99) - 1], 1),
            "max_ms": round(rtts[-1], 1),
        }
    finally:
        server.stop()


def main() -> None:
    """Run each setting and print one JSON line per run, with the load average."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--searches", type=int, nargs="+", default=[1, 6])
    args = parser.parse_args()
    for searches in args.searches:
        result = run(searches, args.sockets, args.seconds)
        with open("/proc/loadavg") as fh:
            result["load_avg"] = float(fh.read().split()[0])
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
