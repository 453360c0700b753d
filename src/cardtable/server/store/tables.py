"""Tables and their actions: a table's row, its append-only action lines, and the
optimistic version check that lets only one process write a table's next action."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from cardtable.server.schema import daily_deals, table_actions, table_players, tables
from cardtable.server.store.base import StoreBase, utc_now

__all__ = ["ActionLine", "Append", "TableRow", "TableStore", "VersionConflictError"]


class VersionConflictError(Exception):
    """Another writer moved the table on: this process must reload it."""


@dataclass(frozen=True, slots=True)
class ActionLine:
    """One stored action: the version it produced, the seat that acted and its notation."""

    version: int
    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class Append:
    """Actions to append to one table (see :meth:`TableStore.append_many`): its lines, and its
    new status and result when they end the game."""

    table_id: str
    lines: tuple[ActionLine, ...]
    status: str | None = None
    result: Mapping[str, Any] | None = None


@dataclass(slots=True)
class TableRow:
    """A table as stored: its record's fields, the server's metadata and its actions."""

    id: str
    game: str
    players: int
    seed: int
    scope: str
    options: dict[str, Any]
    seats: list[str]
    start: str | None
    meta: dict[str, Any]
    status: str = "playing"
    version: int = 0
    result: dict[str, Any] | None = None
    rated: bool = False
    actions: list[ActionLine] = field(default_factory=list)
    updated_at: datetime | None = None
    """When the row last changed (as read from the database; ``None`` for a new row)."""


# The hot path (every stored move) as the driver's own SQL: no statement to compile and
# no parameters to process per call, which is most of the cost of a one-row statement.
_ADVANCE_SQL = (
    "UPDATE tables SET version = {new}, updated_at = {now},"
    " status = COALESCE({status}, status), result = COALESCE({result}, result)"
    " WHERE id = {id} AND version = {old}"
)
_ADVANCE_NAMES = ("new", "now", "status", "result", "id", "old")
_INSERT_SQL = (
    "INSERT INTO table_actions (table_id, version, seat, action) VALUES ({t}, {v}, {s}, {a})"
)
_INSERT_NAMES = ("t", "v", "s", "a")


@dataclass(frozen=True, slots=True)
class _DriverSQL:
    """The two hot statements in one driver's parameter style."""

    advance: str
    insert: str
    positional: bool

    def params(self, names: Sequence[str], values: dict[str, Any]) -> Any:
        return tuple(values[n] for n in names) if self.positional else values


_DRIVER_SQL: dict[str, _DriverSQL] = {}


def _driver_sql(dialect: Any) -> _DriverSQL:
    """The hot statements for ``dialect`` (its ``paramstyle``), built once."""
    got = _DRIVER_SQL.get(dialect.name)
    if got is not None:
        return got
    style = dialect.paramstyle
    if style in ("named", "pyformat"):
        mark = ":{}" if style == "named" else "%({})s"
        marks = {n: mark.format(n) for n in (*_ADVANCE_NAMES, *_INSERT_NAMES)}
        positional = False
    elif style in ("qmark", "format"):
        marks = {n: "?" if style == "qmark" else "%s" for n in (*_ADVANCE_NAMES, *_INSERT_NAMES)}
        positional = True
    else:
        raise ValueError(f"unsupported parameter style {style!r}")
    got = _DriverSQL(
        advance=_ADVANCE_SQL.format(**marks),
        insert=_INSERT_SQL.format(**marks),
        positional=positional,
    )
    _DRIVER_SQL[dialect.name] = got
    return got


def _row(r: Any) -> TableRow:
    """A :class:`TableRow` (without actions) from a row of ``tables``."""
    return TableRow(
        id=r.id,
        game=r.game,
        players=r.players,
        seed=r.seed,
        scope=r.scope,
        options=json.loads(r.options),
        seats=json.loads(r.seats),
        start=r.start,
        meta=json.loads(r.meta),
        status=r.status,
        version=r.version,
        result=None if r.result is None else json.loads(r.result),
        rated=bool(r.rated),
        updated_at=getattr(r, "updated_at", None),
    )


class TableStore(StoreBase):
    """Tables and their actions: create, append (the optimistic version check), load."""

    @staticmethod
    def create_table(conn: Connection, row: TableRow) -> None:
        """Insert a new table (version 0, no actions)."""
        now = utc_now()
        conn.execute(
            insert(tables).values(
                id=row.id,
                game=row.game,
                players=row.players,
                seed=row.seed,
                scope=row.scope,
                options=json.dumps(row.options),
                seats=json.dumps(row.seats),
                start=row.start,
                meta=json.dumps(row.meta),
                status=row.status,
                version=0,
                result=None,
                rated=row.rated,
                created_at=now,
                updated_at=now,
            )
        )

    @staticmethod
    def append_actions(
        conn: Connection,
        table_id: str,
        lines: Sequence[ActionLine],
        status: str | None = None,
        result: Mapping[str, Any] | None = None,
    ) -> None:
        """Append action lines if the table is still at the version before the first one."""
        TableStore.append_many(conn, [Append(table_id, tuple(lines), status, result)])

    @staticmethod
    def append_many(conn: Connection, appends: Sequence[Append]) -> None:
        """Append the actions of several tables (one :class:`Append` each) with two
        statements, each run for all of them; raise :class:`VersionConflictError` (and the
        transaction must be rolled back) if any table is no longer at the version before
        its first action."""
        if not appends:
            return
        sql = _driver_sql(conn.dialect)
        now = utc_now()  # passed as the driver adapts it, as the statements before this did
        advance = [
            sql.params(
                _ADVANCE_NAMES,
                {
                    "id": a.table_id,
                    "old": a.lines[0].version - 1,
                    "new": a.lines[-1].version,
                    "now": now,
                    "status": a.status,
                    "result": None if a.result is None else json.dumps(dict(a.result)),
                },
            )
            for a in appends
        ]
        # The driver's own cursor: these two statements are the whole cost of a stored
        # move, and going through the engine's execution layer doubled it.  The transaction
        # is still the connection's (its ``begin`` and commit).
        cur = conn.connection.cursor()
        try:
            if len(advance) == 1 or not conn.dialect.supports_sane_multi_rowcount:
                for a, params in zip(appends, advance, strict=True):
                    cur.execute(sql.advance, params)
                    if cur.rowcount != 1:
                        raise VersionConflictError(
                            f"table {a.table_id} is no longer at version {a.lines[0].version - 1}"
                        )
            else:
                cur.executemany(sql.advance, advance)
                if cur.rowcount != len(advance):
                    ids = ", ".join(a.table_id for a in appends)
                    raise VersionConflictError(f"one of the tables {ids} moved on meanwhile")
            inserts = [
                sql.params(
                    _INSERT_NAMES,
                    {"t": a.table_id, "v": line.version, "s": line.seat, "a": line.action},
                )
                for a in appends
                for line in a.lines
            ]
            if len(inserts) == 1:
                cur.execute(sql.insert, inserts[0])
            else:
                cur.executemany(sql.insert, inserts)
        finally:
            cur.close()

    @staticmethod
    def set_meta(
        conn: Connection,
        table_id: str,
        meta: Mapping[str, Any],
        status: str | None = None,
        seat_players: Mapping[int, str] | None = None,
    ) -> None:
        """Replace a table's metadata (seat owners, names, bots), optionally its status."""
        values: dict[str, Any] = {"meta": json.dumps(dict(meta)), "updated_at": utc_now()}
        if status is not None:
            values["status"] = status
        conn.execute(update(tables).where(tables.c.id == table_id).values(**values))
        for seat, player in (seat_players or {}).items():
            exists = conn.execute(
                select(table_players.c.seat).where(
                    table_players.c.table_id == table_id, table_players.c.seat == seat
                )
            ).first()
            if exists is None:
                conn.execute(
                    insert(table_players).values(table_id=table_id, seat=seat, player_id=player)
                )

    def load(self, table_id: str, with_actions: bool = True) -> TableRow | None:
        """A table with its actions, or ``None``."""
        with self.engine.connect() as conn:
            r = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if r is None:
                return None
            row = _row(r)
            if with_actions:
                row.actions = self._actions(conn, table_id, 0)
            return row

    def unfinished(self) -> list[TableRow]:
        """Every table still being played, with its actions (to rebuild them on start)."""
        with self.engine.connect() as conn:
            rows = [
                _row(r)
                for r in conn.execute(
                    select(tables).where(tables.c.status == "playing").order_by(tables.c.id)
                )
            ]
            for row in rows:
                row.actions = self._actions(conn, row.id, 0)
            return rows

    def actions_since(self, table_id: str, version: int) -> list[ActionLine]:
        """The stored actions after ``version``."""
        with self.engine.connect() as conn:
            return self._actions(conn, table_id, version)

    @staticmethod
    def _actions(conn: Connection, table_id: str, version: int) -> list[ActionLine]:
        rows = conn.execute(
            select(table_actions.c.version, table_actions.c.seat, table_actions.c.action)
            .where(table_actions.c.table_id == table_id, table_actions.c.version > version)
            .order_by(table_actions.c.version)
        )
        return [ActionLine(v, s, a) for v, s, a in rows]

    def finished(self, limit: int = 20) -> list[TableRow]:
        """The most recently finished tables (without actions), daily challenge deals
        excepted (they are listed on the day's leaderboard, for those who may see them)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables)
                .where(tables.c.status.in_(("finished", "abandoned")))
                .where(tables.c.id.not_in(select(daily_deals.c.table_id)))
                .order_by(tables.c.updated_at.desc())
                .limit(limit)
            )
            return [_row(r) for r in rows]
