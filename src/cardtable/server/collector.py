"""The garbage collector's schedule while serving: short pauses, whatever the load.

CPython 3.11's collector pauses the whole process, for a time proportional to the objects
it looks at.  A server with a thousand tables keeps about 150 tracked objects alive per
move for a second or two (the new state, its views, the log entry, the sockets' pending
reads), and replaces them at every move.  Python starts a young collection when
allocations *minus deallocations* pass the threshold, so objects that replace older ones
barely move the count: the young generation grew to 100,000–180,000 objects between
collections, and each collection paused the server for 100–400 ms (docs/server.md, Load;
measured on 2 December 2026).  Smaller thresholds do not help for the same reason.

So :class:`Collector` takes the schedule over:

* **a young collection every** ``interval`` **seconds** (50 ms), on the event loop: it
  only looks at what was made since the previous one, a few thousand objects;
* **survivors are frozen** (:func:`gc.freeze`) after every collection, so no collection
  looks at them again: the moves' objects that live on are either freed by reference
  counting when the next move replaces them, which needs no collector, or stay (tables,
  the games' move tables);
* **every** ``reclaim_every`` **seconds** (30 minutes) everything is unfrozen and
  collected once, which frees the reference cycles that died while frozen: the one long
  pause (0.6–2 s at 500 tables on a 2-core machine, growing with what the process
  holds; docs/server.md), rare.  Serving makes few
  such cycles: ``cardtable serve`` parses HTTP with h11, because httptools' protocol
  object is left in a cycle by every websocket upgrade; what remains are connections
  dropped mid-message (a few kilobytes each).

Python's own trigger stays, with a high threshold, as a safety net for a loop that is
blocked; its collections freeze their survivors too.

>>> c = Collector(CollectorPolicy(interval=0.05, reclaim_every=1800.0))
>>> c.due(10.0), c.due(1799.9), c.due(1800.0)
('young', 'young', 'reclaim')
"""

from __future__ import annotations

import asyncio
import gc
import time
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Collector", "CollectorPolicy", "CollectorStats"]

SAFETY_THRESHOLD = (100_000, 10, 10)
"""Python's own trigger while the collector runs: only for a loop blocked for long."""


@dataclass(frozen=True, slots=True)
class CollectorPolicy:
    """How often the young generation is collected and the frozen objects reclaimed
    (seconds; the server's settings read them from ``CARDTABLE_GC_INTERVAL`` and
    ``CARDTABLE_GC_RECLAIM``)."""

    interval: float = 0.05
    reclaim_every: float = 1800.0

    def __post_init__(self) -> None:
        if not 0 < self.interval <= self.reclaim_every:
            raise ValueError(
                f"the collector needs 0 < interval <= reclaim_every "
                f"(got {self.interval} and {self.reclaim_every})"
            )


@dataclass(slots=True)
class CollectorStats:
    """What the collections cost so far: the scheduled young collections and reclaims, the
    longest pause of a young (or middle) collection and of a full one, all pauses together
    (ms)."""

    young: int = 0
    reclaims: int = 0
    longest_ms: float = 0.0
    longest_full_ms: float = 0.0
    total_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures, rounded, for ``/healthz``, with the objects frozen now (counting
        them walks the frozen list: for a request now and then, not for every tick)."""
        return {
            "young": self.young,
            "reclaims": self.reclaims,
            "longest_ms": round(self.longest_ms, 1),
            "longest_full_ms": round(self.longest_full_ms, 1),
            "total_ms": round(self.total_ms, 1),
            "frozen": gc.get_freeze_count(),
        }


@dataclass(slots=True)
class Collector:
    """The schedule of :mod:`gc` in a serving process (see the module's docstring).

    :meth:`install` once the application is built, :meth:`run` as a task on the event
    loop, :meth:`uninstall` when serving stops.
    """

    policy: CollectorPolicy = field(default_factory=CollectorPolicy)
    stats: CollectorStats = field(default_factory=CollectorStats)
    _last_reclaim: float = 0.0
    _started: float = 0.0
    _saved: tuple[int, int, int] | None = None

    def due(self, elapsed: float) -> Literal["young", "reclaim"]:
        """Which collection is due ``elapsed`` seconds after the last reclaim."""
        return "reclaim" if elapsed >= self.policy.reclaim_every else "young"

    def install(self, now: float) -> None:
        """Collect and freeze what exists now (the application, the imported modules) and
        take Python's trigger down to a safety net."""
        if self._saved is not None:
            return
        self._saved = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*SAFETY_THRESHOLD)
        gc.callbacks.append(self._on_collection)
        self._last_reclaim = now

    def uninstall(self) -> None:
        """Give the collector back its thresholds; what is frozen stays frozen."""
        if self._saved is None:
            return
        gc.callbacks.remove(self._on_collection)
        gc.set_threshold(*self._saved)
        self._saved = None

    def tick(self, now: float) -> None:
        """Run the collection that is due at ``now`` (loop time, seconds)."""
        if self.due(now - self._last_reclaim) == "reclaim":
            self._last_reclaim = now
            gc.unfreeze()
            gc.collect()
            self.stats.reclaims += 1
        else:
            gc.collect(0)
            self.stats.young += 1

    async def run(self) -> None:
        """Tick every ``interval`` seconds until cancelled."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.policy.interval)
            self.tick(loop.time())

    def _on_collection(self, phase: str, info: dict[str, Any]) -> None:
        """Freeze the survivors of every collection, and time it."""
        if phase == "start":
            self._started = time.perf_counter()
            return
        gc.freeze()
        ms = (time.perf_counter() - self._started) * 1000
        self.stats.total_ms += ms
        if info["generation"] == 2:
            self.stats.longest_full_ms = max(self.stats.longest_full_ms, ms)
        else:
            self.stats.longest_ms = max(self.stats.longest_ms, ms)
