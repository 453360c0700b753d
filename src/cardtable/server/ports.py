"""What a :class:`~cardtable.server.room.Room` needs from the process around it.

Two narrow interfaces, passed to each room: :class:`RoomStore` (its rows in the database)
and :class:`RoomBus` (other server processes holding a replica of the table).  A room never
reaches the hub; tests run a room against an in-memory store and a one-process bus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from cardtable.core.game import Outcome
from cardtable.server.store import ActionLine, TableRow
from cardtable.tables.table import TableUpdate

__all__ = ["RoomBus", "RoomStore"]


class RoomStore(Protocol):
    """A table's storage: its row, its actions, its seats and its players' ratings."""

    async def load(self, table_id: str, with_actions: bool = True) -> TableRow | None:
        """The table as stored (its actions too unless ``with_actions`` is false)."""
        ...

    async def actions_since(self, table_id: str, version: int) -> list[ActionLine]:
        """The stored actions after ``version``, in order."""
        ...

    async def save_actions(
        self,
        table_id: str,
        lines: Sequence[ActionLine],
        status: str | None,
        result: dict[str, Any] | None,
    ) -> None:
        """Append actions with the optimistic version check (raises on a conflict)."""
        ...

    async def save_meta(
        self,
        table_id: str,
        meta: dict[str, Any],
        status: str | None = None,
        seat_players: Mapping[int, str] | None = None,
    ) -> None:
        """Store a table's seats (and its status, and who owns which seat)."""
        ...

    async def save_ratings(
        self,
        game: str,
        players: Sequence[str],
        sides: Sequence[Sequence[int]],
        outcome: Outcome,
    ) -> None:
        """Rate the players (ids by seat) of a finished rated table."""
        ...


class RoomBus(Protocol):
    """Which process writes a table, and how the others hear about what it wrote."""

    def owns(self, table_id: str) -> bool:
        """True when this process may write the table now."""
        ...

    async def publish_updates(self, table_id: str, updates: Sequence[TableUpdate]) -> None:
        """Tell other processes about committed actions."""
        ...

    async def publish_meta(self, table_id: str, meta: dict[str, Any], status: str) -> None:
        """Tell other processes about a seat change."""
        ...
