"""The hub of a server process: its live rooms, its players, the database and the bus.

The bus is local (one process) unless ``REDIS_URL`` is set; then tables are shared between
processes (:mod:`cardtable.server.cluster`).  Rooms get the hub's storage and bus as narrow
interfaces (:mod:`cardtable.server.ports`) and never call back into the hub.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import secrets
from collections.abc import Callable, Coroutine, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from cardtable.core.errors import CardtableError, InvalidOptionError
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY, get_game
from cardtable.server.bus import Bus, LocalBus
from cardtable.server.cluster import RedisBus
from cardtable.server.config import Settings
from cardtable.server.errors import ClientError
from cardtable.server.limits import Limits
from cardtable.server.names import normalize_name
from cardtable.server.room import Room
from cardtable.server.room_store import DatabaseRoomStore
from cardtable.server.seats import Meta, Seat, fallback_level, levels
from cardtable.server.store import Store, TableRow, Writer
from cardtable.server.tasks import Tasks

__all__ = ["NAMES_KEPT", "SWEEP_S", "Hub", "player_id_of", "rematch_id"]

log = logging.getLogger("cardtable.server")

SWEEP_S = 60.0
"""Seconds between two looks for rooms to forget (:meth:`Hub.forget_idle`): a table that is
over and unwatched stays in memory one to two of these."""
NAMES_KEPT = 100_000
"""Player names a process remembers before it starts over (they are in the database)."""


def player_id_of(token: str) -> str:
    """The public id of the player holding a (secret) token."""
    return hashlib.sha256(b"player:" + token.encode()).hexdigest()[:16]


def rematch_id(table_id: str) -> str:
    """The id of a table's rematch: derived from its id, so two players (or two processes)
    asking at once create one table, not two.  Whoever knows a table's id may watch it,
    so knowing its rematch's id grants nothing more.

    >>> rematch_id("abc") == rematch_id("abc") != rematch_id("abd")
    True
    """
    digest = hashlib.sha256(b"rematch:" + table_id.encode()).digest()[:12]
    return base64.urlsafe_b64encode(digest).decode()


class Hub:
    """Everything one server process shares between requests."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.database_url)
        self.writer = Writer(self.store, commit_delay=settings.commit_delay)
        self.room_store = DatabaseRoomStore(self.store, self.writer)
        self.rooms: dict[str, Room] = {}
        redis_url, prefix = settings.redis_url, settings.redis_prefix
        self.bus: Bus = RedisBus(redis_url, prefix) if redis_url else LocalBus()
        self.limits = Limits(settings)
        self._tasks = Tasks("hub")
        self._names: dict[str, str] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    def _room(self, game: AnyGame, row: TableRow) -> Room:
        """A room for a stored table, wired to this process's storage and bus."""
        return Room(
            game,
            row,
            self.room_store,
            self.bus,
            bot_delay=self.settings.bot_delay,
            leave_grace=self.settings.leave_grace,
        )

    # -- life -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every unfinished table from its record, then let bots and timers run."""
        await self.bus.start(self)
        rows = await asyncio.to_thread(self.store.unfinished)
        rebuilt = 0
        for row in rows:
            room = self._rebuild(row)
            if room is None:
                continue
            self.rooms[row.id] = room
            rebuilt += 1
            if await self.bus.acquire(room):
                room.kick()
        log.info("rebuilt %d unfinished tables", rebuilt)
        self.spawn(self._sweep())

    async def _sweep(self) -> None:
        """Every :data:`SWEEP_S` seconds, forget the rooms that :meth:`forget_idle` finds."""
        seen: set[str] = set()
        while True:
            await asyncio.sleep(SWEEP_S)
            seen = self.forget_idle(seen)

    def forget_idle(self, seen: set[str]) -> set[str]:
        """Drop from memory the rooms of tables that are over and that nobody has watched
        since the last look (their ids are ``seen``); the rooms that are over and unwatched
        now, to look at next time.  A table that is over changes no more and is stored
        whole: whoever opens it again gets it from the database (:meth:`get`).  Without
        this, every table a process ever held stayed in its memory."""
        idle = {
            table_id
            for table_id, room in self.rooms.items()
            if room.status != "playing" and not room.conns
        }
        for table_id in idle & seen:
            self.rooms.pop(table_id).close()
        return idle - seen

    def _rebuild(self, row: TableRow) -> Room | None:
        """The room of a stored table, or ``None`` (and one log line, no traceback) for a
        row that does not replay: an unknown game, options the game refuses, a bad action."""
        try:
            return self._room(get_game(row.game), row)
        except (CardtableError, ValueError, KeyError, TypeError) as e:
            log.warning("table %s does not replay (%s); skipped", row.id, e)
            return None

    async def stop(self) -> None:
        """Stop bots, timers and the bus; finish the queued writes."""
        for room in self.rooms.values():
            room.close()
        self._tasks.cancel_all()
        await self.bus.close()
        await asyncio.to_thread(self.writer.close)
        self.store.close()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a background task and keep a reference until it is done."""
        self._tasks.spawn(coro)

    # -- players --------------------------------------------------------------------------
    async def player(self, token: str | None) -> tuple[str | None, str]:
        """``(id, name)`` of a cookie's player (``None`` id without a cookie)."""
        if not token:
            return None, ""
        pid = player_id_of(token)
        name = self._names.get(pid)
        if name is None:
            found = await asyncio.to_thread(self.store.player_by_token, token)
            if len(self._names) >= NAMES_KEPT:  # a cache: the database has them all
                self._names.clear()
            name = self._names[pid] = found[1] if found else ""
        return pid, name

    async def save_player(self, token: str, name: str) -> str:
        """Store (or rename) the player holding ``token``; their id.  The name is normalized
        (:func:`~cardtable.server.names.normalize_name`); a refused one raises
        :class:`~cardtable.server.names.InvalidName` and stores nothing."""
        pid = player_id_of(token)
        name = normalize_name(name)
        self._names[pid] = name
        await self.writer.run(lambda c: Store.save_player(c, pid, token, name))
        return pid

    # -- tables ---------------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        players: int,
        options: Mapping[str, object],
        seats: Sequence[str],
        creator: str,
        creator_name: str,
        rated: bool = False,
        timer: float | None = None,
        hints: bool = True,
        unit: bool = False,
        seed: int | None = None,
        daily: Mapping[str, Any] | None = None,
        also: Callable[[Connection, str], None] | None = None,
    ) -> Room:
        """A new table; the creator takes the first human seat.

        ``seed`` fixes the deal (a new random one by default); ``daily`` marks a deal of the
        daily challenge; ``also(conn, table_id)`` runs in the transaction that stores the
        table (when it raises, nothing is stored and no room is made).
        """
        game = get_game(game_name)
        game.check_players(players)
        opts = game.resolve_options(options)
        if len(seats) != players:
            raise InvalidOptionError(f"{players} players need {players} seats; got {len(seats)}")
        specs: list[Seat] = []
        for i, spec in enumerate(seats):
            if spec == "human":
                specs.append(Seat("human", f"#{i + 1}"))
            else:
                level = spec.removeprefix("bot:")
                specs.append(Seat("bot", level, level=level))
        humans = [i for i, s in enumerate(specs) if s.kind == "human"]
        if not humans:
            raise InvalidOptionError("a table needs at least one human seat")
        first = specs[humans[0]]
        first.owner, first.name = creator, creator_name
        meta = Meta(specs, timer if timer and timer > 0 else None, hints and not rated, unit)
        meta.daily = dict(daily) if daily is not None else None
        row = TableRow(
            id=secrets.token_urlsafe(12),
            game=game.info.name,
            players=players,
            seed=secrets.randbits(31) if seed is None else seed,
            scope="unit" if unit else "match",
            options=opts.to_json(),
            seats=[("human:" + s.name) if s.kind == "human" else f"bot:{s.level}" for s in specs],
            start=None,
            meta=meta.to_json(),
            rated=rated,
        )

        room = self._room(game, row)  # its table builds the bots: an unknown one raises here

        def write(conn: Connection) -> None:
            Store.create_table(conn, row)
            Store.set_meta(conn, row.id, row.meta, seat_players={humans[0]: creator})
            if also is not None:
                also(conn, row.id)

        await self.writer.run(write)
        self.rooms[row.id] = room
        await self.bus.acquire(room)
        room.kick()
        return room

    async def rematch(self, room: Room, player: str | None) -> str:
        """Start (or join) the rematch of a finished table: same game, players, options,
        seats, owners and settings, a new seed.  Any person seated at the table may start
        it; the others, bots and spectators follow (the old table's ``next``).  Its id."""
        if room.seat_of(player) is None:
            raise ClientError("wrong_seat", "only the players at the table may start a rematch")
        if room.meta.daily is not None:
            raise ClientError("forbidden", "a daily challenge deal is played once")
        if room.status != "finished":
            raise ClientError("invalid", f"the game is {room.status}")
        new_id = rematch_id(room.id)
        if room.meta.next is None:
            await self._create_rematch(room, new_id)
            await self.submit(room, player, "", {"type": "follow", "table": new_id})
        return new_id

    async def _create_rematch(self, room: Room, new_id: str) -> None:
        """Store the rematch table ``new_id`` unless someone (here or elsewhere) did."""
        if await self.get(new_id) is not None:
            return
        old = room.table.record
        seats = [Seat(s.kind, s.name, s.owner, s.level) for s in room.meta.seats]
        meta = Meta(seats, room.meta.timer, room.meta.hints, room.meta.unit)
        row = TableRow(
            id=new_id,
            game=old.game,
            players=old.players,
            seed=secrets.randbits(31),
            scope=old.scope,
            options=dict(old.options),
            seats=list(old.seats),
            start=old.start,
            meta=meta.to_json(),
            rated=room.rated,
        )
        new = self._room(room.game, row)
        owners = {i: s.owner for i, s in enumerate(seats) if s.kind == "human" and s.owner}

        def write(conn: Connection) -> None:
            Store.create_table(conn, row)
            Store.set_meta(conn, row.id, row.meta, seat_players=owners)

        try:
            await self.writer.run(write)
        except IntegrityError:  # another process created it first
            return
        self.rooms.setdefault(new_id, new)
        if await self.bus.acquire(new):
            new.kick()

    async def may_watch(self, room: Room, player: str | None, replay: bool = False) -> bool:
        """Whether ``player`` may watch a table (``replay``: its replay and record).

        Every table may be watched except a deal of the daily challenge: while its day
        lasts only its player may watch it live, and its replay is for its player, for
        those who finished that day's challenge of that game, and for everyone once the
        (UTC) day is over.
        """
        daily = room.meta.daily
        if daily is None or room.seat_of(player) is not None:
            return True
        if not replay:
            return False
        day = date.fromisoformat(str(daily["day"]))
        if day < _today():
            return True
        if player is None:
            return False
        return await asyncio.to_thread(self.store.has_finished, day, str(daily["game"]), player)

    def live(self, table_id: str) -> Room | None:
        """The room this process has in memory, if any."""
        return self.rooms.get(table_id)

    def live_ids(self) -> list[str]:
        """The ids of the rooms this process has in memory."""
        return list(self.rooms)

    async def get(self, table_id: str) -> Room | None:
        """A table by id, loaded from the database when this process has not got it."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if len(table_id) > 40:
            return None
        # One load per table however many ask at once; forgotten once done (a lock kept per
        # id asked for grew with every table, and every unknown id, ever asked for).
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> Room | None:
        """Load a table from the database into this process (``None``: no such table)."""
        row = await asyncio.to_thread(self.store.load, table_id)
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        room = None if row is None else self._rebuild(row)
        if room is not None:
            self.rooms[table_id] = room
        return room

    async def submit(self, room: Room, player: str | None, name: str, cmd: dict[str, Any]) -> None:
        """Run a command where the table's writes happen (here, or the owning process)."""
        if await self.bus.acquire(room):
            await room.execute(player, name, cmd)
        else:
            await self.bus.forward(room, player, name, cmd)

    # -- reading --------------------------------------------------------------------------
    def games(self) -> list[AnyGame]:
        """The registered games."""
        return REGISTRY.games()

    def levels(self, game: AnyGame) -> list[str]:
        """The bots (levels first) that can sit at ``game``."""
        return levels(game)

    def default_level(self, game: AnyGame) -> str:
        """The bot a newcomer plays against."""
        return fallback_level(game)


def _today() -> date:
    """The day of the daily challenge (UTC)."""
    return datetime.now(UTC).date()
