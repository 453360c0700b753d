"""An in-memory :class:`~cardtable.server.ports.RoomStore` and a one-process bus, so a
:class:`~cardtable.server.room.Room` runs without a database, a hub or a web server."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.game import Outcome
from cardtable.core.registry import AnyGame
from cardtable.server.room import Room
from cardtable.server.seats import Meta, Seat
from cardtable.server.store import ActionLine, TableRow
from cardtable.tables.table import TableUpdate


class StoreConflict(Exception):
    """What the fake store raises on a failed optimistic version check."""


@dataclass
class MemoryStore:
    """Rows in a dict; the same version check as the database's."""

    rows: dict[str, TableRow] = field(default_factory=dict)
    ratings: list[tuple[str, tuple[str, ...], Outcome]] = field(default_factory=list)
    fail_next_write: bool = False

    def add(self, row: TableRow) -> None:
        self.rows[row.id] = copy.deepcopy(row)

    async def load(self, table_id: str, with_actions: bool = True) -> TableRow | None:
        row = self.rows.get(table_id)
        if row is None:
            return None
        out = copy.deepcopy(row)
        if not with_actions:
            out.actions = []
        return out

    async def actions_since(self, table_id: str, version: int) -> list[ActionLine]:
        return [a for a in self.rows[table_id].actions if a.version > version]

    async def save_actions(
        self,
        table_id: str,
        lines: Sequence[ActionLine],
        status: str | None,
        result: dict[str, Any] | None,
    ) -> None:
        row = self.rows[table_id]
        if self.fail_next_write or lines[0].version != row.version + 1:
            self.fail_next_write = False
            raise StoreConflict(f"table {table_id} is no longer at version {lines[0].version - 1}")
        row.actions.extend(lines)
        row.version = lines[-1].version
        if status is not None:
            row.status = status
        row.result = result

    async def save_meta(
        self,
        table_id: str,
        meta: dict[str, Any],
        status: str | None = None,
        seat_players: Mapping[int, str] | None = None,
    ) -> None:
        row = self.rows[table_id]
        row.meta = copy.deepcopy(meta)
        if status is not None:
            row.status = status

    async def save_ratings(
        self,
        game: str,
        players: Sequence[str],
        sides: Sequence[Sequence[int]],
        outcome: Outcome,
    ) -> None:
        self.ratings.append((game, tuple(players), outcome))


@dataclass
class OneProcessBus:
    """This process writes every table; what would go to other processes is kept."""

    published: list[tuple[str, int]] = field(default_factory=list)
    metas: list[tuple[str, str]] = field(default_factory=list)

    def owns(self, table_id: str) -> bool:
        return True

    async def publish_updates(self, table_id: str, updates: Sequence[TableUpdate]) -> None:
        self.published.extend((table_id, u.version) for u in updates)

    async def publish_meta(self, table_id: str, meta: dict[str, Any], status: str) -> None:
        self.metas.append((table_id, status))


def table_row(
    game: AnyGame,
    seats: Sequence[str],
    seed: int,
    table_id: str = "t1",
    rated: bool = False,
    timer: float | None = None,
) -> TableRow:
    """A stored table as the hub creates it: ``human:<player id>`` or ``bot:<level>`` seats."""
    meta_seats = []
    for spec in seats:
        kind, _, name = spec.partition(":")
        if kind == "human":
            meta_seats.append(Seat("human", name, owner=name or None))
        else:
            meta_seats.append(Seat("bot", name, level=name))
    meta = Meta(meta_seats, timer=timer, hints=not rated)
    return TableRow(
        id=table_id,
        game=game.info.name,
        players=len(seats),
        seed=seed,
        scope="unit",
        options=game.resolve_options({}).to_json(),
        seats=list(seats),
        start=None,
        meta=meta.to_json(),
        rated=rated,
    )


def open_room(
    game: AnyGame, seats: Sequence[str], seed: int, **kwargs: Any
) -> tuple[Room, MemoryStore, OneProcessBus]:
    """A room for a new table, its store and its bus (bots play without delay)."""
    store, bus = MemoryStore(), OneProcessBus()
    row = table_row(game, seats, seed, **kwargs)
    store.add(row)
    return Room(game, row, store, bus, bot_delay=0.0), store, bus


async def let_bots_play(room: Room) -> None:
    """Start the bots and wait until a person is to act or the game is over."""
    room.kick()
    while room.driver is not None and not room.driver.done():
        await room.driver
