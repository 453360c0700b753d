"""The store's one writer: queued writes committed many to a transaction (group commit)."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection

from cardtable.server.store.base import StoreBase
from cardtable.server.store.tables import Append, TableStore, VersionConflictError

__all__ = ["BUSY", "MAX_BATCH", "Writer"]

T = TypeVar("T")


_Job = tuple[Callable[[Connection], Any] | Append, asyncio.Future[Any]]

MAX_BATCH = 500
"""The most writes one transaction takes."""
BUSY = 0.02
"""A writer whose last commit ended less than this many seconds ago is busy: it waits its
``commit_delay`` before committing (see :class:`Writer`)."""


class Writer:
    """One thread that runs queued writes, many per transaction (group commit).

    ``await writer.run(fn)`` returns ``fn(conn)``'s result once committed;
    ``await writer.append(Append(...))`` appends a table's actions.  Everything queued
    while a transaction commits goes into the next one, and the appends among it are
    written together (:meth:`TableStore.append_many`: two statements for all the tables), so the
    cost of a stored move shrinks as the load grows.  Nobody is answered before the
    transaction that holds their write has committed.  When a batch fails, its writes are
    retried one transaction each, so one conflict fails only its own caller.

    The thread keeps one connection from one transaction to the next; after a failure
    other than a version conflict it takes a fresh one from the pool (which checks it),
    and a single write that failed so is tried once more on it.

    **Commit delay.**  When the process is busy (its last commit ended less than
    :data:`BUSY` seconds ago), the writer waits ``commit_delay`` seconds after the first
    write of a batch before it takes the rest of the queue, so the writes arriving
    meanwhile share the transaction.  Handing a write to this thread and its answer back
    (waking the thread, passing the interpreter lock to and fro, waking the event loop)
    cost more CPU than the write itself; a few milliseconds of delay under load make those
    hand-overs a fraction of one per move.  An idle process commits at once.

    **SQLite commits on the event loop** (``inline``, the default for SQLite): there the
    writes are batched the same way (everything queued while the commit delay runs, or,
    when idle, everything queued in the same turn of the loop) but committed by the event
    loop's own thread, with no writer thread.  A SQLite commit of a batch takes about
    60 µs of CPU, and writing it from another thread cost five times that in handing the
    interpreter lock to and fro with a busy event loop (the thread holds and drops the
    lock around every statement): 17 % of the server's CPU under ``loadtest.py`` at 500
    tables.  A database across the network (PostgreSQL) keeps the thread, since a commit
    there waits for the server.  SQLite is for one process (docs/deploy.md), so no other
    process holds its write lock for long.
    """

    def __init__(
        self, store: StoreBase, commit_delay: float = 0.0, inline: bool | None = None
    ) -> None:
        self.store = store
        self.commit_delay = commit_delay
        self.inline = store.engine.dialect.name == "sqlite" if inline is None else inline
        """True when the event loop's thread commits (see the class's docs)."""
        self._last_commit = -BUSY
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._pending: list[_Job] = []
        self._flush_at: asyncio.Handle | None = None
        self._flush_loop: asyncio.AbstractEventLoop | None = None
        self._conn: Connection | None = None
        self._thread: threading.Thread | None = None
        if not self.inline:
            self._thread = threading.Thread(target=self._loop, name="cardtable-writer", daemon=True)
            self._thread.start()
        self.commits = 0

    async def run(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` in a transaction and wait until it is committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._submit((fn, future))
        return await future

    async def append(self, append: Append) -> None:
        """Append one table's actions (the optimistic version check) and wait until they
        are committed; raises :class:`VersionConflictError` if the table moved on."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._submit((append, future))
        await future

    def _submit(self, job: _Job) -> None:
        if not self.inline:
            self._queue.put(job)
            return
        loop = job[1].get_loop()
        if self._flush_at is not None and self._flush_loop is not loop:
            # The loop it was scheduled on is gone (a test's asyncio.run ended with writes
            # pending): commit those with the new ones, on this loop.
            self._flush_at.cancel()
            self._flush_at = None
        self._pending.append(job)
        if self._flush_at is None:
            self._flush_loop = loop
            if self.commit_delay and time.monotonic() - self._last_commit < BUSY:
                self._flush_at = loop.call_later(self.commit_delay, self._flush)
            else:  # idle: what the same turn of the loop queues joins it
                self._flush_at = loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Commit what is pending (``inline``: on the event loop's thread)."""
        self._flush_at = None
        batch, self._pending = self._pending, []
        for start in range(0, len(batch), MAX_BATCH):
            self._commit(batch[start : start + MAX_BATCH])
        self._last_commit = time.monotonic()

    def close(self) -> None:
        """Finish the queued writes and stop (the thread, or the pending commit)."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            return
        if self._flush_at is not None:
            self._flush_at.cancel()
            self._flush_at = None
        if self._pending:
            loop = self._pending[0][1].get_loop()
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop or not loop.is_running():
                self._flush()
            else:  # called from another thread (the hub's shutdown): commit on the loop
                done = threading.Event()

                def flush() -> None:
                    try:
                        self._flush()
                    finally:
                        done.set()

                loop.call_soon_threadsafe(flush)
                done.wait(timeout=10)
        self._disconnect()

    def _loop(self) -> None:
        try:
            self._serve()
        finally:
            self._disconnect()

    def _serve(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if self.commit_delay and time.monotonic() - self._last_commit < BUSY:
                time.sleep(self.commit_delay)  # busy: let the writes arriving meanwhile join
            batch = [item]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            self._last_commit = time.monotonic()
            if stop:
                return

    def _connection(self) -> Connection:
        """The writer's own connection, kept from one batch to the next (checking one out
        of the pool for every transaction cost as much as the writes of a small batch)."""
        if self._conn is None:
            self._conn = self.store.engine.connect()
        return self._conn

    def _disconnect(self) -> None:
        """Give the connection back (after a failure, so the next batch starts on a fresh
        one: the failure may have been the connection itself)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _commit(self, batch: list[_Job], retried: bool = False) -> None:
        try:
            conn = self._connection()
            with conn.begin():
                results = _run_batch(conn, batch)
            self.commits += 1
        except Exception as e:
            if not isinstance(e, VersionConflictError):
                self._disconnect()  # the failure may have been the kept connection itself
            if len(batch) > 1:  # one transaction each: one conflict fails only its caller
                for one in batch:
                    self._commit([one])
            elif not retried and not isinstance(e, VersionConflictError):
                self._commit(batch, retried=True)  # once more, on a fresh connection
            elif self.inline:
                _answer(batch[0][1], None, e)
            else:
                _settle(batch[0][1], None, e)
            return
        if self.inline:
            for (_, fut), result in zip(batch, results, strict=True):
                _answer(fut, result, None)
            return
        _settle_all([(fut, result) for (_, fut), result in zip(batch, results, strict=True)])


def _run_batch(conn: Connection, batch: list[_Job]) -> list[Any]:
    """Run a batch's writes in order; consecutive appends (to different tables) together."""
    results: list[Any] = []
    group: list[Append] = []

    def flush() -> None:
        TableStore.append_many(conn, group)
        results.extend([None] * len(group))
        group.clear()

    for job, _ in batch:
        if isinstance(job, Append):
            if any(a.table_id == job.table_id for a in group):
                flush()
            group.append(job)
            continue
        flush()
        results.append(job(conn))
    flush()
    return results


def _settle_all(done: list[tuple[asyncio.Future[Any], Any]]) -> None:
    """Answer a committed batch: one wake-up of each waiting event loop, not one per write."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
    for fut, result in done:
        by_loop.setdefault(fut.get_loop(), []).append((fut, result))
    for loop, items in by_loop.items():

        def answer(items: list[tuple[asyncio.Future[Any], Any]] = items) -> None:
            for fut, result in items:
                if not fut.cancelled():
                    fut.set_result(result)

        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(answer)


def _answer(fut: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """Answer a write on the event loop's own thread (``inline``)."""
    if fut.done():  # cancelled: nobody waits any more
        return
    with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits any more
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(result)


def _settle(fut: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    loop = fut.get_loop()

    def done() -> None:
        if fut.cancelled():
            return
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(result)

    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
        loop.call_soon_threadsafe(done)
