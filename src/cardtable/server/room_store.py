"""The database behind :class:`~cardtable.server.ports.RoomStore`: reads in a worker
thread, writes through the group-committing :class:`~cardtable.server.store.Writer`."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection

from cardtable.core.game import Outcome
from cardtable.server.ratings import rate_table
from cardtable.server.store import ActionLine, Append, Store, TableRow, Writer

__all__ = ["DatabaseRoomStore"]


class DatabaseRoomStore:
    """Rooms' storage in the server's database (see :class:`~cardtable.server.ports.RoomStore`)."""

    def __init__(self, store: Store, writer: Writer) -> None:
        self.store = store
        self.writer = writer

    async def load(self, table_id: str, with_actions: bool = True) -> TableRow | None:
        """The table as stored (its actions too unless ``with_actions`` is false)."""
        return await asyncio.to_thread(self.store.load, table_id, with_actions)

    async def actions_since(self, table_id: str, version: int) -> list[ActionLine]:
        """The stored actions after ``version``, in order."""
        return await asyncio.to_thread(self.store.actions_since, table_id, version)

    async def save_actions(
        self,
        table_id: str,
        lines: Sequence[ActionLine],
        status: str | None,
        result: dict[str, Any] | None,
    ) -> None:
        """Append actions with the optimistic version check (raises on a conflict)."""
        await self.writer.append(Append(table_id, tuple(lines), status, result))

    async def save_meta(
        self,
        table_id: str,
        meta: dict[str, Any],
        status: str | None = None,
        seat_players: Mapping[int, str] | None = None,
    ) -> None:
        """Store a table's seats (and its status, and who owns which seat)."""
        await self.writer.run(lambda c: Store.set_meta(c, table_id, meta, status, seat_players))

    async def save_ratings(
        self,
        game: str,
        players: Sequence[str],
        sides: Sequence[Sequence[int]],
        outcome: Outcome,
    ) -> None:
        """Rate the players (ids by seat) of a finished rated table, in one transaction."""

        def write(conn: Connection) -> None:
            current = Store.get_ratings(conn, game, list(players))
            for pid, (mu, sigma, games) in rate_table(current, players, sides, outcome).items():
                Store.set_rating(conn, game, pid, mu, sigma, games)

        await self.writer.run(write)
