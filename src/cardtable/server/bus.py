"""How the server processes share tables: the :class:`Bus` interface and the one-process bus.

With several processes (:mod:`cardtable.server.cluster`) one of them writes a table at a
time; the bus tells a process whether it is that one, hands commands to it, and fans out
what it committed.  The bus finds rooms through a :class:`RoomDirectory` (the hub), never
by importing it.
"""

from __future__ import annotations

from collections.abc import Coroutine, Sequence
from typing import Any, Protocol

from cardtable.server.errors import ClientError
from cardtable.server.ports import RoomBus
from cardtable.server.room import Room
from cardtable.tables.table import TableUpdate

__all__ = ["TOOK_OVER", "Bus", "LocalBus", "RoomDirectory", "notify"]

TOOK_OVER = "Another server took over this table; play on"
"""The notice (a catalog id) clients get when another process became the table's writer."""


def notify(room: Room, code: str, message: str) -> None:
    """Send every client of ``room`` (on this process) a ``notice``: ``code`` for programs,
    ``message`` (a catalog id) in the client's language.  A notice changes nothing."""
    for conn in list(room.conns):
        conn.send(
            {
                "type": "notice",
                "code": code,
                "message": conn.tr.gettext(message),
                "version": room.table.version,
            }
        )


class RoomDirectory(Protocol):
    """The rooms of this process, as a bus needs them."""

    def live(self, table_id: str) -> Room | None:
        """The room this process has in memory, if any."""
        ...

    def live_ids(self) -> list[str]:
        """The ids of the rooms this process has in memory."""
        ...

    async def get(self, table_id: str) -> Room | None:
        """A room by id, loaded from the database when this process has not got it."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a background task of the process."""
        ...


class Bus(RoomBus, Protocol):
    """How a process learns about, and hands over, other processes' tables."""

    async def acquire(self, room: Room) -> bool:
        """Become the table's writer if nobody is; True when this process is."""
        ...

    async def forward(self, room: Room, player: str | None, name: str, cmd: dict[str, Any]) -> None:
        """Run a command at the process that writes the table."""
        ...

    async def start(self, rooms: RoomDirectory) -> None:
        """Start listening."""
        ...

    async def close(self) -> None:
        """Stop listening and give up every table."""
        ...


class LocalBus:
    """One process: it owns every table."""

    def owns(self, table_id: str) -> bool:
        """Always."""
        return True

    async def acquire(self, room: Room) -> bool:
        """Always."""
        return True

    async def forward(self, room: Room, player: str | None, name: str, cmd: dict[str, Any]) -> None:
        """Never needed."""
        raise ClientError("conflict", "no other process")  # pragma: no cover

    async def publish_updates(self, table_id: str, updates: Sequence[TableUpdate]) -> None:
        """Nobody else to tell."""

    async def publish_meta(self, table_id: str, meta: dict[str, Any], status: str) -> None:
        """Nobody else to tell."""

    async def start(self, rooms: RoomDirectory) -> None:
        """Nothing to start."""

    async def close(self) -> None:
        """Nothing to stop."""
