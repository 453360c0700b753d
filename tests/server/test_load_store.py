"""Batched writes (issue 12, per-move cost): the writer appends the actions of many tables
with two statements per transaction, keeps the optimistic version check of each table,
and answers nobody before their write is committed (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import secrets
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection

from cardtable.server.store import ActionLine, Append, Store, TableRow, VersionConflictError, Writer


def _row(table_id: str) -> TableRow:
    return TableRow(
        id=table_id,
        game="royal-casino",
        players=2,
        seed=1,
        scope="unit",
        options={},
        seats=["human", "human"],
        start=None,
        meta={},
        status="playing",
        version=0,
        result=None,
        rated=False,
        updated_at=datetime.now(UTC),
    )


def test_appends_of_many_tables_in_one_batch(database_url: str) -> None:
    store = Store(database_url)
    writer = Writer(store)
    ids = [f"load-{secrets.token_hex(4)}-{i}" for i in range(40)]

    async def run() -> list[Any]:
        def create(conn: Connection) -> None:
            for table_id in ids:
                Store.create_table(conn, _row(table_id))

        await writer.run(create)
        first = [writer.append(Append(t, (ActionLine(1, 0, "a"),))) for t in ids]
        await asyncio.gather(*first)
        # The second round: one table is written at a stale version.
        second = [
            writer.append(Append(t, (ActionLine(2, 1, "b"), ActionLine(3, 0, "c"))))
            for t in ids[1:]
        ]
        stale = writer.append(Append(ids[0], (ActionLine(1, 1, "x"),)))
        return await asyncio.gather(stale, *second, return_exceptions=True)

    try:
        results = asyncio.run(run())
        assert isinstance(results[0], VersionConflictError)
        assert results[1:] == [None] * (len(ids) - 1)
        assert store.actions_since(ids[0], 0) == [ActionLine(1, 0, "a")]
        for table_id in ids[1:]:
            assert store.actions_since(table_id, 0) == [
                ActionLine(1, 0, "a"),
                ActionLine(2, 1, "b"),
                ActionLine(3, 0, "c"),
            ]
            loaded = store.load(table_id, with_actions=False)
            assert loaded is not None and loaded.version == 3
    finally:
        writer.close()
        store.close()


def test_append_many_checks_every_table_and_writes_nothing_on_a_conflict(
    database_url: str,
) -> None:
    store = Store(database_url)
    a, b = f"load-{secrets.token_hex(4)}-a", f"load-{secrets.token_hex(4)}-b"

    def setup(conn: Connection) -> None:
        Store.create_table(conn, _row(a))
        Store.create_table(conn, _row(b))

    try:
        with store.engine.begin() as conn:
            setup(conn)
        try:
            with store.engine.begin() as conn:
                Store.append_many(
                    conn,
                    [Append(a, (ActionLine(1, 0, "a"),)), Append(b, (ActionLine(2, 0, "b"),))],
                )
        except VersionConflictError:
            pass
        else:
            raise AssertionError("table b is at version 0, not 1")
        assert store.actions_since(a, 0) == [] and store.actions_since(b, 0) == []
        with store.engine.begin() as conn:
            Store.append_many(
                conn,
                [
                    Append(a, (ActionLine(1, 0, "a"),)),
                    Append(b, (ActionLine(1, 1, "b"),), "finished", {"winner": 1}),
                ],
            )
        loaded = store.load(b, with_actions=False)
        assert loaded is not None and loaded.status == "finished"
        assert loaded.result == {"winner": 1}
        assert store.actions_since(a, 0) == [ActionLine(1, 0, "a")]
    finally:
        store.close()


def test_a_write_goes_through_when_the_writers_kept_connection_died(database_url: str) -> None:
    """The writer keeps its connection between transactions; when that connection is gone
    (the database dropped it), the next write is made on a fresh one, not failed."""
    store = Store(database_url)
    writer = Writer(store)
    table_id = f"load-{secrets.token_hex(4)}"

    async def run() -> None:
        await writer.run(lambda conn: Store.create_table(conn, _row(table_id)))
        await writer.append(Append(table_id, (ActionLine(1, 0, "a"),)))
        kept = writer._conn
        assert kept is not None
        raw = kept.connection.dbapi_connection
        assert raw is not None
        raw.close()
        await writer.append(Append(table_id, (ActionLine(2, 1, "b"),)))
        # A conflict is still a conflict (not retried into a success or another error).
        try:
            await writer.append(Append(table_id, (ActionLine(2, 0, "x"),)))
        except VersionConflictError:
            pass
        else:
            raise AssertionError("the table is at version 2, not 1")

    try:
        asyncio.run(run())
        assert store.actions_since(table_id, 0) == [ActionLine(1, 0, "a"), ActionLine(2, 1, "b")]
    finally:
        writer.close()
        store.close()


def test_a_busy_writer_waits_its_commit_delay_and_commits_the_writes_together(
    database_url: str,
) -> None:
    """Group commit under load: a writer that has just committed waits ``commit_delay``
    before the next commit, so a write arriving meanwhile joins it; an idle writer (or one
    without a delay) commits each write as it comes."""
    store = Store(database_url)
    ids = [f"load-{secrets.token_hex(4)}-{i}" for i in range(2)]

    async def run(writer: Writer) -> int:
        def create(conn: Connection) -> None:
            for table_id in ids:
                Store.create_table(conn, _row(table_id))

        await writer.run(create)  # the writer is busy from now on
        before = writer.commits
        first = asyncio.ensure_future(writer.append(Append(ids[0], (ActionLine(1, 0, "a"),))))
        await asyncio.sleep(0.25)
        await writer.append(Append(ids[1], (ActionLine(1, 0, "b"),)))
        await first
        return writer.commits - before

    try:
        delayed = Writer(store, commit_delay=2.0)
        try:
            assert asyncio.run(run(delayed)) == 1
        finally:
            delayed.close()
        ids[:] = [f"load-{secrets.token_hex(4)}-{i}" for i in range(2)]
        at_once = Writer(store)
        try:
            assert asyncio.run(run(at_once)) == 2
        finally:
            at_once.close()
        for table_id in ids:
            assert len(store.actions_since(table_id, 0)) == 1
    finally:
        store.close()


def test_sqlite_commits_on_the_event_loop_and_postgresql_in_the_writer_thread(
    database_url: str,
) -> None:
    """SQLite is written by the event loop's own thread (no hand-over of the interpreter
    lock to a writer thread for every commit); PostgreSQL, whose commits wait for the
    network, keeps the writer thread.  Either way every write is committed before its
    caller is answered, and the writes of one turn of the loop share a transaction."""
    store = Store(database_url)
    writer = Writer(store)
    sqlite = database_url.startswith("sqlite")
    ids = [f"load-{secrets.token_hex(4)}-{i}" for i in range(3)]

    async def run() -> tuple[int, set[int], int]:
        threads: set[int] = set()

        def create(conn: Connection) -> None:
            threads.add(threading.get_ident())
            for table_id in ids:
                Store.create_table(conn, _row(table_id))

        await writer.run(create)
        before = writer.commits
        await asyncio.gather(*(writer.append(Append(t, (ActionLine(1, 0, "a"),))) for t in ids))
        return threading.get_ident(), threads, writer.commits - before

    try:
        loop_thread, threads, commits = asyncio.run(run())
        assert writer.inline is sqlite
        assert (threads == {loop_thread}) is sqlite
        if sqlite:
            assert commits == 1  # queued in one turn of the loop: one transaction
        for table_id in ids:
            assert store.actions_since(table_id, 0) == [ActionLine(1, 0, "a")]
    finally:
        writer.close()
        store.close()


def test_closing_an_inline_writer_from_another_thread_commits_what_is_pending(
    tmp_path: Path,
) -> None:
    """The hub closes the writer from a worker thread at shutdown: writes still waiting for
    their commit delay are committed on the event loop, and their callers answered."""
    store = Store(f"sqlite:///{tmp_path / 'ct.sqlite3'}")
    writer = Writer(store, commit_delay=30.0)  # nothing would commit on its own in time
    table_id = f"load-{secrets.token_hex(4)}"

    async def run() -> None:
        await writer.run(lambda conn: Store.create_table(conn, _row(table_id)))  # busy now
        pending = asyncio.ensure_future(writer.append(Append(table_id, (ActionLine(1, 0, "a"),))))
        await asyncio.sleep(0.05)
        assert not pending.done()
        await asyncio.to_thread(writer.close)
        await asyncio.wait_for(pending, 5)

    try:
        asyncio.run(run())
        assert store.actions_since(table_id, 0) == [ActionLine(1, 0, "a")]
    finally:
        store.close()


def test_an_inline_writer_left_with_writes_by_a_finished_loop_commits_them_on_the_next(
    tmp_path: Path,
) -> None:
    """Writes pending when their event loop ended are not lost, nor do they stop the writer:
    the next loop's first write commits them with its own."""
    store = Store(f"sqlite:///{tmp_path / 'ct.sqlite3'}")
    writer = Writer(store)
    a, b = f"load-{secrets.token_hex(4)}-a", f"load-{secrets.token_hex(4)}-b"

    async def first() -> asyncio.Future[None]:
        await writer.run(lambda conn: Store.create_table(conn, _row(a)))
        await writer.run(lambda conn: Store.create_table(conn, _row(b)))  # busy from now on
        writer.commit_delay = 30.0  # (set only now: the tables above commit at once)
        left = asyncio.ensure_future(writer.append(Append(a, (ActionLine(1, 0, "a"),))))
        await asyncio.sleep(0)
        return left  # still waiting for its commit when the loop ends

    async def second() -> None:
        writer.commit_delay = 0.0
        await asyncio.wait_for(writer.append(Append(b, (ActionLine(1, 0, "b"),))), 5)

    try:
        assert asyncio.run(first()).cancelled()  # its loop ended before the commit
        asyncio.run(second())
        assert store.actions_since(a, 0) == [ActionLine(1, 0, "a")]
        assert store.actions_since(b, 0) == [ActionLine(1, 0, "b")]
    finally:
        writer.close()
        store.close()
