"""The hub of a server process: its live tables, the database writer and the bus.

The bus is local (one process) unless ``REDIS_URL`` is set; then tables are shared between
processes (:mod:`cardtable.server.cluster`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, Protocol

from cardtable.core.errors import CardtableError, InvalidOptionError
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY, get_game
from cardtable.server.config import Settings
from cardtable.server.ratings import rate_table
from cardtable.server.rooms import ClientError, Meta, Room, Seat, fallback_level
from cardtable.server.store import ActionLine, Store, TableRow, Writer
from cardtable.tables.table import TableUpdate

__all__ = ["Bus", "Hub", "LocalBus", "player_id_of"]

log = logging.getLogger("cardtable.server")


def player_id_of(token: str) -> str:
    """The public id of the player holding a (secret) token."""
    return hashlib.sha256(b"player:" + token.encode()).hexdigest()[:16]


class Bus(Protocol):
    """How a process learns about, and hands over, other processes' tables."""

    def owns(self, room: Room) -> bool:
        """True when this process may write the table now."""
        ...

    async def acquire(self, room: Room) -> bool:
        """Become the table's writer if nobody is; True when this process is."""
        ...

    async def forward(self, room: Room, player: str | None, name: str, cmd: dict[str, Any]) -> None:
        """Run a command at the process that writes the table."""
        ...

    async def publish_updates(self, room: Room, updates: Sequence[TableUpdate]) -> None:
        """Tell other processes about committed actions."""
        ...

    async def publish_meta(self, room: Room) -> None:
        """Tell other processes about a seat change."""
        ...

    async def start(self, hub: Hub) -> None:
        """Start listening."""
        ...

    async def close(self) -> None:
        """Stop listening and give up every table."""
        ...


class LocalBus:
    """One process: it owns every table."""

    def owns(self, room: Room) -> bool:
        """Always."""
        return True

    async def acquire(self, room: Room) -> bool:
        """Always."""
        return True

    async def forward(self, room: Room, player: str | None, name: str, cmd: dict[str, Any]) -> None:
        """Never needed."""
        raise ClientError("conflict", "no other process")  # pragma: no cover

    async def publish_updates(self, room: Room, updates: Sequence[TableUpdate]) -> None:
        """Nobody else to tell."""

    async def publish_meta(self, room: Room) -> None:
        """Nobody else to tell."""

    async def start(self, hub: Hub) -> None:
        """Nothing to start."""

    async def close(self) -> None:
        """Nothing to stop."""


class Hub:
    """Everything one server process shares between requests."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.database_url)
        self.writer = Writer(self.store)
        self.rooms: dict[str, Room] = {}
        self.bus: Bus
        if settings.redis_url:
            from cardtable.server.cluster import RedisBus

            self.bus = RedisBus(settings.redis_url)
        else:
            self.bus = LocalBus()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._names: dict[str, str] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    # -- life -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every unfinished table from its record, then let bots and timers run."""
        await self.bus.start(self)
        rows = await asyncio.to_thread(self.store.unfinished)
        for row in rows:
            try:
                room = Room(self, get_game(row.game), row)
            except CardtableError:
                log.exception("table %s does not replay; skipped", row.id)
                continue
            self.rooms[row.id] = room
            if await self.bus.acquire(room):
                room.kick()
        log.info("rebuilt %d unfinished tables", len(rows))

    async def stop(self) -> None:
        """Stop bots, timers and the bus; finish the queued writes."""
        for room in self.rooms.values():
            room._cancel_timer()
            if room.driver is not None:
                room.driver.cancel()
        for task in list(self._tasks):
            task.cancel()
        await self.bus.close()
        await asyncio.to_thread(self.writer.close)
        self.store.close()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a background task and keep a reference until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

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
        """Store (or rename) the player holding ``token``; their id."""
        pid = player_id_of(token)
        name = " ".join(name.split())[:40] or "Player"
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
        from cardtable.bots.base import make_bot

        specs: list[Seat] = []
        for i, spec in enumerate(seats):
            if spec == "human":
                specs.append(Seat("human", f"#{i + 1}"))
            else:
                level = spec.removeprefix("bot:")
                make_bot(level, game)
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

        def write(conn: Any) -> None:
            Store.create_table(conn, row)
            Store.set_meta(conn, row.id, row.meta, seat_players={humans[0]: creator})

        await self.writer.run(write)
        room = Room(self, game, row)
        self.rooms[row.id] = room
        await self.bus.acquire(room)
        room.kick()
        return room

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
            if row is None:
                return None
            room = Room(self, get_game(row.game), row)
            self.rooms[table_id] = room
            return room

    async def catch_up(self, room: Room) -> None:
        """Apply actions other processes stored since this process last saw the table."""
        lines = await asyncio.to_thread(self.store.actions_since, room.id, room.table.version)
        row = await asyncio.to_thread(self.store.load, room.id, False)
        if row is not None:
            room.meta = Meta.from_json(row.meta)
            room._sync_bots()
            if row.status != "playing":
                room.status = row.status
        updates = room.apply_remote(lines)
        if updates:
            room.broadcast(updates)
        else:
            room.refresh_all()

    async def reload(self, room: Room) -> None:
        """Rebuild a table from the database (after a failed write) and resend its state."""
        row = await asyncio.to_thread(self.store.load, room.id)
        if row is None:
            return
        fresh = Room(self, room.game, row)
        fresh.conns = room.conns
        self.rooms[room.id] = fresh
        room.conns = set()
        room._cancel_timer()
        fresh.refresh_all()

    async def submit(self, room: Room, player: str | None, name: str, cmd: dict[str, Any]) -> None:
        """Run a command where the table's writes happen (here, or the owning process)."""
        if await self.bus.acquire(room):
            await self.rooms.get(room.id, room).execute(player, name, cmd)
        else:
            await self.bus.forward(room, player, name, cmd)

    async def store_actions(
        self, room: Room, lines: Sequence[ActionLine], result: dict[str, Any] | None
    ) -> None:
        """Append actions with the optimistic version check (raises on a conflict)."""
        status = room.status if room.status != "playing" else None
        table_id = room.id
        await self.writer.run(
            lambda c: Store.append_actions(c, table_id, list(lines), status, result)
        )

    async def store_meta(
        self, room: Room, status: str | None = None, seat_players: Mapping[int, str] | None = None
    ) -> None:
        """Store a table's seats (and status)."""
        meta = room.meta.to_json()
        await self.writer.run(lambda c: Store.set_meta(c, room.id, meta, status, seat_players))

    async def finished(self, room: Room) -> None:
        """Rate a finished rated table."""
        outcome = room.table.outcome()
        if not room.rated or outcome is None:
            return
        game = room.game.info.name
        ids = [
            s.owner if s.kind == "human" and s.owner else f"bot:{s.level}" for s in room.meta.seats
        ]
        sides = room.game.sides(len(ids))

        def write(conn: Any) -> None:
            current = Store.get_ratings(conn, game, ids)
            for pid, (mu, sigma, games) in rate_table(current, ids, sides, outcome).items():
                Store.set_rating(conn, game, pid, mu, sigma, games)

        await self.writer.run(write)

    # -- reading --------------------------------------------------------------------------
    def games(self) -> list[AnyGame]:
        """The registered games."""
        return REGISTRY.games()

    def levels(self, game: AnyGame) -> list[str]:
        """The bots (levels first) that can sit at ``game``."""
        from cardtable.bots.base import available_bots

        names = available_bots(game)
        order = ["easy", "medium", "hard", "expert"]
        return [n for n in order if n in names] + [n for n in names if n not in order]

    def default_level(self, game: AnyGame) -> str:
        """The bot a newcomer plays against."""
        return fallback_level(game)
