"""The hub of a server process: its live rooms, its players, the database and the bus.

The bus is local (one process) unless ``REDIS_URL`` is set; then tables are shared between
processes (:mod:`cardtable.server.cluster`).  Rooms get the hub's storage and bus as narrow
interfaces (:mod:`cardtable.server.ports`) and never call back into the hub.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection

from cardtable.core.errors import CardtableError, InvalidOptionError
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY, get_game
from cardtable.server.bus import Bus, LocalBus
from cardtable.server.cluster import RedisBus
from cardtable.server.config import Settings
from cardtable.server.limits import Limits
from cardtable.server.names import normalize_name
from cardtable.server.room import Room
from cardtable.server.room_store import DatabaseRoomStore
from cardtable.server.seats import Meta, Seat, fallback_level, levels
from cardtable.server.store import Store, TableRow, Writer
from cardtable.server.tasks import Tasks

__all__ = ["Hub", "player_id_of"]

log = logging.getLogger("cardtable.server")


def player_id_of(token: str) -> str:
    """The public id of the player holding a (secret) token."""
    return hashlib.sha256(b"player:" + token.encode()).hexdigest()[:16]


class Hub:
    """Everything one server process shares between requests."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.database_url)
        self.writer = Writer(self.store)
        self.room_store = DatabaseRoomStore(self.store, self.writer)
        self.rooms: dict[str, Room] = {}
        redis_url, prefix = settings.redis_url, settings.redis_prefix
        self.bus: Bus = RedisBus(redis_url, prefix) if redis_url else LocalBus()
        self.limits = Limits(settings)
        self._tasks = Tasks("hub")
        self._names: dict[str, str] = {}
        self._loading: dict[str, asyncio.Lock] = {}

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
        if pid not in self._names:
            found = await asyncio.to_thread(self.store.player_by_token, token)
            self._names[pid] = found[1] if found else ""
        return pid, self._names[pid]

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
    ) -> Room:
        """A new table; the creator takes the first human seat."""
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
        row = TableRow(
            id=secrets.token_urlsafe(12),
            game=game.info.name,
            players=players,
            seed=secrets.randbits(31),
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

        await self.writer.run(write)
        self.rooms[row.id] = room
        await self.bus.acquire(room)
        room.kick()
        return room

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
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table_id)
            if room is not None:
                return room
            row = await asyncio.to_thread(self.store.load, table_id)
            room = None if row is None else self._rebuild(row)
            if room is None:
                return None
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
