"""Records, players and ratings in a SQL database (SQLite by default, PostgreSQL by URL).

Every write goes through :class:`Writer`, one thread that commits whatever is queued in one
transaction (group commit), so a process with many busy tables makes few commits and an
action is acknowledged only once it is durable.  Appending actions is an optimistic version
check: the row in ``tables`` moves from version ``v`` to ``v + n`` only if it was at ``v``,
so two processes can never both write the same table's next action.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from cardtable.server.schema import (
    daily_attempts,
    daily_deals,
    players,
    rating_history,
    ratings,
    server_secrets,
    table_actions,
    table_players,
    tables,
)

__all__ = [
    "BUSY",
    "ActionLine",
    "Append",
    "Attempt",
    "DayWinner",
    "LeaderRow",
    "PlayerGame",
    "RatingPoint",
    "Store",
    "TableRow",
    "VersionConflictError",
    "Writer",
    "hash_token",
    "migrate",
]

T = TypeVar("T")
MIGRATIONS = Path(__file__).with_name("migrations")


class VersionConflictError(Exception):
    """Another writer moved the table on: this process must reload it."""


def hash_token(token: str) -> str:
    """The stored form of a player token (the token itself is only in the player's cookie)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class ActionLine:
    """One stored action: the version it produced, the seat that acted and its notation."""

    version: int
    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class Append:
    """Actions to append to one table (see :meth:`Store.append_many`): its lines, and its
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


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One table a player sat at, for the player page."""

    table_id: str
    game: str
    seat: int
    status: str
    result: dict[str, Any] | None
    rated: bool
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Attempt:
    """A player's daily challenge of one game and day: the deals' tables and scores so far.

    ``deals`` lists ``(deal index, table id, score or None)`` in order; ``score`` (the sum)
    is set once every one of the ``count`` deals is over.
    """

    day: date
    game: str
    player_id: str
    name: str
    count: int
    deals: tuple[tuple[int, str, int | None], ...]
    score: int | None
    finished_at: datetime | None

    @property
    def finished(self) -> bool:
        """True once every deal is played and the attempt is scored."""
        return self.finished_at is not None


@dataclass(frozen=True, slots=True)
class DayWinner:
    """A past day of one game's challenge: how many finished it, and the best of them."""

    day: date
    game: str
    entries: int
    winner_id: str
    winner: str
    score: int


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a game's rating leaderboard."""

    player_id: str
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        """The shown rating, a cautious ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating in one game after one more rated game."""

    at: datetime
    mu: float
    sigma: float
    games: int


def seat_score(result: Mapping[str, Any], seat: int) -> int | None:
    """The score of the side ``seat`` belongs to in a stored outcome.

    >>> seat_score({"sides": [[0, 2], [1, 3]], "scores": [7, 4], "winners": [0]}, 3)
    4
    """
    for side, score in zip(result.get("sides", []), result.get("scores", []), strict=False):
        if seat in side:
            return int(score)
    return None


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL mode and a busy timeout."""
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)


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


class Store:
    """Synchronous database access; the server writes through :class:`Writer`."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        migrate(self.engine)

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    # -- tables ---------------------------------------------------------------------------
    @staticmethod
    def create_table(conn: Connection, row: TableRow) -> None:
        """Insert a new table (version 0, no actions)."""
        now = _now()
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
        Store.append_many(conn, [Append(table_id, tuple(lines), status, result)])

    @staticmethod
    def append_many(conn: Connection, appends: Sequence[Append]) -> None:
        """Append the actions of several tables (one :class:`Append` each) with two
        statements, each run for all of them; raise :class:`VersionConflictError` (and the
        transaction must be rolled back) if any table is no longer at the version before
        its first action."""
        if not appends:
            return
        sql = _driver_sql(conn.dialect)
        now = _now()  # passed as the driver adapts it, as the statements before this did
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
        values: dict[str, Any] = {"meta": json.dumps(dict(meta)), "updated_at": _now()}
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

    # -- players --------------------------------------------------------------------------
    def player_by_token(self, token: str) -> tuple[str, str] | None:
        """``(id, name)`` of the player holding ``token``."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(players.c.id, players.c.name).where(
                    players.c.token_hash == hash_token(token)
                )
            ).first()
            return None if r is None else (r.id, r.name)

    @staticmethod
    def save_player(conn: Connection, player_id: str, token: str, name: str) -> None:
        """Insert a player or rename them, in one statement: two processes saving the same
        new player at once (two tabs, a daily start sent to both) must not collide."""
        dialect = conn.dialect.name
        new = {"id": player_id, "token_hash": hash_token(token), "name": name}
        if dialect in ("postgresql", "sqlite"):
            upsert = (pg_insert if dialect == "postgresql" else sqlite_insert)(players)
            conn.execute(
                upsert.values(**new, created_at=_now()).on_conflict_do_update(
                    index_elements=[players.c.id], set_={"name": name}
                )
            )
            return
        exists = conn.execute(select(players.c.id).where(players.c.id == player_id)).first()
        if exists is None:
            conn.execute(insert(players).values(**new, created_at=_now()))
        else:
            conn.execute(update(players).where(players.c.id == player_id).values(name=name))

    def player(
        self, player_id: str
    ) -> tuple[str, list[PlayerGame], dict[str, tuple[float, float, int]]] | None:
        """A player's name, tables and ratings by game ``(mu, sigma, games)``."""
        with self.engine.connect() as conn:
            r = conn.execute(select(players.c.name).where(players.c.id == player_id)).first()
            if r is None:
                return None
            games = [
                PlayerGame(
                    g.id,
                    g.game,
                    g.seat,
                    g.status,
                    None if g.result is None else json.loads(g.result),
                    bool(g.rated),
                    g.updated_at,
                )
                for g in conn.execute(
                    select(
                        tables.c.id,
                        tables.c.game,
                        table_players.c.seat,
                        tables.c.status,
                        tables.c.result,
                        tables.c.rated,
                        tables.c.updated_at,
                    )
                    .join(table_players, table_players.c.table_id == tables.c.id)
                    .where(table_players.c.player_id == player_id)
                    .where(tables.c.id.not_in(select(daily_deals.c.table_id)))
                    .order_by(tables.c.updated_at.desc())
                    .limit(200)
                )
            ]
            rates = {
                x.game: (x.mu, x.sigma, x.games)
                for x in conn.execute(select(ratings).where(ratings.c.player_id == player_id))
            }
            return r.name, games, rates

    @staticmethod
    def get_ratings(
        conn: Connection, game: str, ids: Sequence[str]
    ) -> dict[str, tuple[float, float, int]]:
        """Current ratings ``(mu, sigma, games)`` of some players in one game."""
        rows = conn.execute(
            select(ratings).where(ratings.c.game == game, ratings.c.player_id.in_(list(ids)))
        )
        return {r.player_id: (r.mu, r.sigma, r.games) for r in rows}

    @staticmethod
    def set_rating(
        conn: Connection, game: str, player_id: str, mu: float, sigma: float, games: int
    ) -> None:
        """Store one rating."""
        done = conn.execute(
            update(ratings)
            .where(ratings.c.game == game, ratings.c.player_id == player_id)
            .values(mu=mu, sigma=sigma, games=games)
        )
        if done.rowcount == 0:
            conn.execute(
                insert(ratings).values(
                    player_id=player_id, game=game, mu=mu, sigma=sigma, games=games
                )
            )
        conn.execute(
            insert(rating_history).values(
                player_id=player_id, game=game, mu=mu, sigma=sigma, games=games, at=_now()
            )
        )

    def rating_history(self, player_id: str) -> dict[str, list[RatingPoint]]:
        """Every rating a player had, by game, oldest first."""
        out: dict[str, list[RatingPoint]] = {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rating_history)
                .where(rating_history.c.player_id == player_id)
                .order_by(rating_history.c.id)
            )
            for r in rows:
                out.setdefault(r.game, []).append(RatingPoint(r.at, r.mu, r.sigma, r.games))
        return out

    def leaderboard(self, game: str, min_games: int, limit: int = 100) -> list[LeaderRow]:
        """The rated players of ``game`` with at least ``min_games`` games, best first
        (by ``mu - 3 sigma``); bots have no player row and are left out."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(players.c.id, players.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
                .join(ratings, ratings.c.player_id == players.c.id)
                .where(ratings.c.game == game, ratings.c.games >= min_games)
                .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), players.c.id)
                .limit(limit)
            )
            return [LeaderRow(r.id, r.name, r.mu, r.sigma, r.games) for r in rows]

    # -- server secrets -------------------------------------------------------------------
    def secret(self, name: str, fresh: str) -> str:
        """The stored secret ``name``; ``fresh`` is stored first if there is none yet.

        Two processes starting together may both try: the primary key lets one win and
        both read the winner's value.
        """
        with contextlib.suppress(IntegrityError), self.engine.begin() as conn:
            found = conn.execute(
                select(server_secrets.c.value).where(server_secrets.c.name == name)
            ).first()
            if found is not None:
                return str(found.value)
            conn.execute(insert(server_secrets).values(name=name, value=fresh))
        with self.engine.connect() as conn:
            value = conn.execute(
                select(server_secrets.c.value).where(server_secrets.c.name == name)
            ).scalar_one()
            return str(value)

    # -- the daily challenge --------------------------------------------------------------
    @staticmethod
    def start_attempt(conn: Connection, day: date, game: str, player_id: str, count: int) -> None:
        """Begin a player's attempt; raises ``IntegrityError`` when they have one that day."""
        conn.execute(
            insert(daily_attempts).values(
                day=day, game=game, player_id=player_id, deals=count, started_at=_now()
            )
        )

    @staticmethod
    def add_deal(
        conn: Connection, day: date, game: str, player_id: str, deal: int, table_id: str
    ) -> None:
        """Note the table of one deal of an attempt (``IntegrityError`` if it has one)."""
        conn.execute(
            insert(daily_deals).values(
                day=day, game=game, player_id=player_id, deal=deal, table_id=table_id
            )
        )

    def attempt(self, day: date, game: str, player_id: str) -> Attempt | None:
        """A player's attempt of a day's challenge, if they started one."""
        with self.engine.connect() as conn:
            found = self._attempts(conn, day, game, player_id)
            return found[0] if found else None

    def attempts(self, day: date, game: str) -> list[Attempt]:
        """Every attempt of a day's challenge of one game."""
        with self.engine.connect() as conn:
            return self._attempts(conn, day, game, None)

    def player_attempts(self, player_id: str, limit: int = 60) -> list[Attempt]:
        """A player's attempts, newest first."""
        with self.engine.connect() as conn:
            keys = conn.execute(
                select(daily_attempts.c.day, daily_attempts.c.game)
                .where(daily_attempts.c.player_id == player_id)
                .order_by(daily_attempts.c.day.desc(), daily_attempts.c.game)
                .limit(limit)
            ).all()
            return [a for d, g in keys for a in self._attempts(conn, d, g, player_id)]

    @staticmethod
    def _attempts(conn: Connection, day: date, game: str, player_id: str | None) -> list[Attempt]:
        query = (
            select(daily_attempts, players.c.name)
            .join(players, players.c.id == daily_attempts.c.player_id)
            .where(daily_attempts.c.day == day, daily_attempts.c.game == game)
        )
        deals_q = select(daily_deals).where(daily_deals.c.day == day, daily_deals.c.game == game)
        if player_id is not None:
            query = query.where(daily_attempts.c.player_id == player_id)
            deals_q = deals_q.where(daily_deals.c.player_id == player_id)
        deals: dict[str, list[tuple[int, str, int | None]]] = {}
        for d in conn.execute(deals_q.order_by(daily_deals.c.deal)):
            deals.setdefault(d.player_id, []).append((d.deal, d.table_id, d.score))
        return [
            Attempt(
                a.day,
                a.game,
                a.player_id,
                a.name,
                a.deals,
                tuple(deals.get(a.player_id, ())),
                a.score,
                a.finished_at,
            )
            for a in conn.execute(query.order_by(daily_attempts.c.player_id))
        ]

    @staticmethod
    def settle(conn: Connection, day: date, game: str, player_id: str) -> None:
        """Score the attempt's finished deals (the player's seat is seat 0) and, once all
        its deals are scored, the attempt itself."""
        attempt = conn.execute(
            select(daily_attempts).where(
                daily_attempts.c.day == day,
                daily_attempts.c.game == game,
                daily_attempts.c.player_id == player_id,
            )
        ).first()
        if attempt is None or attempt.finished_at is not None:
            return
        rows = conn.execute(
            select(daily_deals.c.deal, daily_deals.c.score, tables.c.status, tables.c.result)
            .join(tables, tables.c.id == daily_deals.c.table_id)
            .where(
                daily_deals.c.day == day,
                daily_deals.c.game == game,
                daily_deals.c.player_id == player_id,
            )
        ).all()
        scores: dict[int, int] = {}
        for r in rows:
            score = r.score
            if score is None and r.status == "finished" and r.result is not None:
                score = seat_score(json.loads(r.result), 0)
                if score is not None:
                    conn.execute(
                        update(daily_deals)
                        .where(
                            daily_deals.c.day == day,
                            daily_deals.c.game == game,
                            daily_deals.c.player_id == player_id,
                            daily_deals.c.deal == r.deal,
                        )
                        .values(score=score)
                    )
            if score is not None:
                scores[r.deal] = score
        if len(scores) == attempt.deals:
            conn.execute(
                update(daily_attempts)
                .where(
                    daily_attempts.c.day == day,
                    daily_attempts.c.game == game,
                    daily_attempts.c.player_id == player_id,
                )
                .values(score=sum(scores.values()), finished_at=_now())
            )

    def has_finished(self, day: date, game: str, player_id: str) -> bool:
        """True when the player finished that day's challenge of that game."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(daily_attempts.c.finished_at).where(
                    daily_attempts.c.day == day,
                    daily_attempts.c.game == game,
                    daily_attempts.c.player_id == player_id,
                )
            ).first()
            return found is not None and found.finished_at is not None

    def daily_table(self, table_id: str) -> tuple[date, str, str, int] | None:
        """``(day, game, player id, deal)`` when a table is a daily challenge deal."""
        with self.engine.connect() as conn:
            r = conn.execute(select(daily_deals).where(daily_deals.c.table_id == table_id)).first()
            return None if r is None else (r.day, r.game, r.player_id, r.deal)

    def past_days(self, before: date, limit: int = 30) -> list[DayWinner]:
        """The days before ``before`` with finished attempts, newest first, each game with
        its number of entries and its winner (the best score; the first to finish on a tie)."""
        out: list[DayWinner] = []
        with self.engine.connect() as conn:
            done = daily_attempts.c.finished_at.is_not(None)
            keys = conn.execute(
                select(daily_attempts.c.day, daily_attempts.c.game, func.count().label("n"))
                .where(daily_attempts.c.day < before, done)
                .group_by(daily_attempts.c.day, daily_attempts.c.game)
                .order_by(daily_attempts.c.day.desc(), daily_attempts.c.game)
                .limit(limit)
            ).all()
            for k in keys:
                best = conn.execute(
                    select(daily_attempts.c.player_id, daily_attempts.c.score, players.c.name)
                    .join(players, players.c.id == daily_attempts.c.player_id)
                    .where(daily_attempts.c.day == k.day, daily_attempts.c.game == k.game, done)
                    .order_by(daily_attempts.c.score.desc(), daily_attempts.c.finished_at)
                    .limit(1)
                ).one()
                out.append(DayWinner(k.day, k.game, k.n, best.player_id, best.name, best.score))
        return out


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
    written together (:meth:`Store.append_many`: two statements for all the tables), so the
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

    def __init__(self, store: Store, commit_delay: float = 0.0, inline: bool | None = None) -> None:
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
        Store.append_many(conn, group)
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
