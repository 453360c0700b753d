"""Records, players and ratings in a SQL database (SQLite by default, PostgreSQL by URL).

Every write goes through :class:`Writer`, one thread that commits whatever is queued in one
transaction (group commit), so a process with many busy tables makes few commits and an
action is acknowledged only once it is durable.  Appending actions is an optimistic version
check: the row in ``tables`` moves from version ``v`` to ``v + n`` only if it was at ``v``,
so two processes can never both write the same table's next action.

One module per concern: :mod:`.tables` (tables and their actions), :mod:`.players`
(players and ratings), :mod:`.daily` (the daily challenge), :mod:`.writer` (the group
commit) and :mod:`.base` (the engine, the migrations, the server's secrets).  :class:`Store`
puts the three together, the one object the server opens.
"""

from __future__ import annotations

from cardtable.server.store.base import MIGRATIONS, make_engine, migrate
from cardtable.server.store.daily import Attempt, DailyStore, DayWinner, seat_score
from cardtable.server.store.players import (
    LeaderRow,
    PlayerGame,
    PlayerStore,
    RatingPoint,
    hash_token,
)
from cardtable.server.store.tables import (
    ActionLine,
    Append,
    TableRow,
    TableStore,
    VersionConflictError,
)
from cardtable.server.store.writer import BUSY, MAX_BATCH, Writer

__all__ = [
    "BUSY",
    "MAX_BATCH",
    "MIGRATIONS",
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
    "make_engine",
    "migrate",
    "seat_score",
]


class Store(TableStore, PlayerStore, DailyStore):
    """Synchronous database access; the server writes through :class:`Writer`.

    The tables and their actions (:class:`TableStore`), the players and their ratings
    (:class:`PlayerStore`) and the daily challenge (:class:`DailyStore`) on one engine.
    """
