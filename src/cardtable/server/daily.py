"""The daily challenge: every player plays the same seeded deals of a game against the same
bots, once a day, and is compared with the field on those cards.

The day is the UTC date.  Each game's challenge is a few deals (hands of Royal Casino,
rounds of Rummy, deals of Royal Mastheads: :data:`DEALS_BY_UNIT`), each a one-unit table
(``scope="unit"``) whose seed is ``HMAC-SHA256(secret, "game|date|deal")``: without the
server's secret the deals cannot be guessed, and a published record of one deal tells
nothing of the next.  The player sits in seat 1 (``P1``) and the other seats are bots of one
fixed level.

The rules, enforced in the database so that they hold across server processes:

* one attempt per player, game and day (the primary key of ``daily_attempts``);
* one table per deal of an attempt (the key of ``daily_deals``);
* an attempt is resumed (the deal in progress, else the next one) only on its own day; an
  attempt not finished when the day ends is not ranked;
* a deal is played to its end (no leaving it to a bot), by its player alone: nobody watches
  it live, and its replay opens to those who finished that day's challenge of that game
  and to everyone once the day is over.

An attempt's score is the sum of the player's points over its deals.  The day's board
ranks the finished attempts by score (equal scores share a rank) with a percentile: the
share of the rest of the field one beat, a tie counting half (bridge's matchpoints).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from cardtable.core.registry import AnyGame
from cardtable.server.hub import Hub
from cardtable.server.seats import levels
from cardtable.server.store import Attempt, Store

__all__ = [
    "DEALS_BY_UNIT",
    "AlreadyPlayedError",
    "Daily",
    "DailyConfig",
    "Ranked",
    "daily_seed",
    "rank_field",
    "today",
]

DEALS_BY_UNIT = {"hand": 3, "round": 2, "deal": 3}
"""Deals of a day's challenge by what one unit of the game is called: about ten minutes
of play (three Royal Casino hands, two Rummy rounds, three Royal Mastheads deals)."""

SECRET_NAME = "daily"
"""The name of the seed key in the database's ``server_secrets``."""


def today() -> date:
    """The challenge's day: the current UTC date."""
    return datetime.now(UTC).date()


def daily_seed(secret: bytes, game: str, day: date, deal: int) -> int:
    """The seed of one deal: the first 63 bits of ``HMAC-SHA256(secret, "game|day|deal")``.

    >>> s = daily_seed(b"k", "rummy", date(2026, 12, 1), 0)
    >>> s == daily_seed(b"k", "rummy", date(2026, 12, 1), 0), 0 <= s < 2**63
    (True, True)
    >>> s == daily_seed(b"other", "rummy", date(2026, 12, 1), 0)
    False
    """
    message = f"{game}|{day.isoformat()}|{deal}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class DailyConfig:
    """How the challenge is set up (from ``CARDTABLE_DAILY_*`` variables).

    ``secret``: the seed key (``CARDTABLE_DAILY_SECRET``); without it one is generated once
    and kept in the database, so it survives restarts and every process shares it.
    ``level``: the bots' level (``medium``).  ``deals``: the same number of deals for every
    game instead of :data:`DEALS_BY_UNIT` (for tests).  ``min_games``: rated games a player
    needs to appear on a rating leaderboard (``CARDTABLE_LEADERBOARD_MIN_GAMES``, 3).
    """

    secret: str | None = None
    level: str = "medium"
    deals: int | None = None
    min_games: int = 3

    @classmethod
    def from_env(cls) -> DailyConfig:
        """The configuration from the environment."""
        deals = os.environ.get("CARDTABLE_DAILY_DEALS", "")
        return cls(
            secret=os.environ.get("CARDTABLE_DAILY_SECRET") or None,
            level=os.environ.get("CARDTABLE_DAILY_LEVEL") or "medium",
            deals=int(deals) if deals.strip() else None,
            min_games=int(os.environ.get("CARDTABLE_LEADERBOARD_MIN_GAMES") or 3),
        )


@dataclass(frozen=True, slots=True)
class Ranked:
    """A finished attempt on the day's board: its rank (1 best; ties share it) and
    percentile (0–100)."""

    rank: int
    percentile: float
    attempt: Attempt


def rank_field(attempts: Sequence[Attempt]) -> list[Ranked]:
    """The finished attempts, best first, with rank and percentile.

    A percentile is the share of the other finished attempts one scored above, a tie
    counting half; alone in the field, 100.

    >>> from datetime import date, datetime
    >>> def a(p, s):
    ...     return Attempt(date(2026, 1, 1), "g", p, p, 1, (), s, datetime(2026, 1, 1))
    >>> [(r.rank, r.percentile, r.attempt.player_id) for r in rank_field([a("x", 3), a("y", 9),
    ...  a("z", 3)])]
    [(1, 100.0, 'y'), (2, 25.0, 'x'), (2, 25.0, 'z')]
    """
    done = [a for a in attempts if a.finished and a.score is not None]
    done.sort(key=lambda a: (-(a.score or 0), a.finished_at or datetime.min, a.player_id))
    scores = [a.score or 0 for a in done]
    n = len(done)
    out = []
    for a in done:
        score = a.score or 0
        above = sum(1 for s in scores if s > score)
        below = sum(1 for s in scores if s < score)
        ties = n - above - below - 1
        pct = 100.0 if n == 1 else round(100 * (below + ties / 2) / (n - 1), 1)
        out.append(Ranked(above + 1, pct, a))
    return out


class AlreadyPlayedError(Exception):
    """The player has finished this day's challenge of this game."""


class Daily:
    """The daily challenge of one server process (every rule is kept by the database)."""

    def __init__(self, hub: Hub, config: DailyConfig) -> None:
        self.hub = hub
        self.config = config
        key = config.secret or hub.store.secret(SECRET_NAME, secrets.token_hex(32))
        self._secret = key.encode()

    def deals(self, game: AnyGame) -> int:
        """How many deals the day's challenge of ``game`` has."""
        if self.config.deals is not None:
            return self.config.deals
        return DEALS_BY_UNIT.get(game.info.unit, 3)

    def seats(self, game: AnyGame) -> list[str]:
        """The challenge's seats: the player first, then bots of the configured level."""
        offered = levels(game)
        level = self.config.level if self.config.level in offered else self.hub.default_level(game)
        return ["human"] + [f"bot:{level}"] * (game.info.default_players - 1)

    def seed(self, game: AnyGame, day: date, deal: int) -> int:
        """The seed of one deal of a day (secret: never sent to a client before the deal
        is over)."""
        return daily_seed(self._secret, game.info.name, day, deal)

    async def attempt(self, game: AnyGame, day: date, player: str) -> Attempt | None:
        """A player's attempt, its finished deals scored first."""
        name = game.info.name
        found = await asyncio.to_thread(self.hub.store.attempt, day, name, player)
        if found is None or found.finished:
            return found
        await self.hub.writer.run(lambda c: Store.settle(c, day, name, player))
        return await asyncio.to_thread(self.hub.store.attempt, day, name, player)

    async def board(self, game: AnyGame, day: date) -> tuple[list[Ranked], list[Attempt]]:
        """The day's ranked attempts and those not finished (after scoring what is over)."""
        name = game.info.name
        found = await asyncio.to_thread(self.hub.store.attempts, day, name)
        pending = [a.player_id for a in found if not a.finished]
        if pending:

            def settle(conn: Connection) -> None:
                for pid in pending:
                    Store.settle(conn, day, name, pid)

            await self.hub.writer.run(settle)
            found = await asyncio.to_thread(self.hub.store.attempts, day, name)
        return rank_field(found), [a for a in found if not a.finished]

    async def may_see(self, game: AnyGame, day: date, player: str | None) -> bool:
        """Whether ``player`` may see the day's deals: after the day, or once they have
        finished it."""
        if day < today():
            return True
        if player is None:
            return False
        return await asyncio.to_thread(self.hub.store.has_finished, day, game.info.name, player)

    async def start(self, game: AnyGame, player: str, name: str) -> str | None:
        """Begin (or resume) today's attempt; the table to play, or ``None`` when the
        attempt is over.  Raises :class:`AlreadyPlayedError` after a finished attempt."""
        day, count = today(), self.deals(game)
        try:
            await self.hub.writer.run(
                lambda c: Store.start_attempt(c, day, game.info.name, player, count)
            )
        except IntegrityError:
            found = await self.attempt(game, day, player)
            if found is not None and found.finished:
                raise AlreadyPlayedError(game.info.name) from None
        return await self.resume(game, player, name)

    async def resume(self, game: AnyGame, player: str, name: str) -> str | None:
        """The table of today's attempt to play now: the deal in progress, else a new
        table for the next deal; ``None`` when there is no attempt or it is over."""
        day = today()
        found = await self.attempt(game, day, player)
        if found is None or found.finished:
            return None
        for _deal, table_id, score in found.deals:
            if score is None:
                return table_id
        deal = len(found.deals)
        if deal >= found.count:
            return None
        return await self._deal_table(game, day, player, name, deal, found.count)

    async def _deal_table(
        self, game: AnyGame, day: date, player: str, name: str, deal: int, count: int
    ) -> str | None:
        """Create the table of one deal; if another request just did, that one."""
        info = {"game": game.info.name, "day": day.isoformat(), "deal": deal, "deals": count}
        seats = self.seats(game)

        def note(conn: Connection, table_id: str) -> None:
            Store.add_deal(conn, day, game.info.name, player, deal, table_id)

        try:
            room = await self.hub.create(
                game.info.name,
                len(seats),
                {},
                seats,
                player,
                name,
                hints=False,
                unit=True,
                seed=self.seed(game, day, deal),
                daily=info,
                also=note,
            )
        except IntegrityError:
            again = await asyncio.to_thread(self.hub.store.attempt, day, game.info.name, player)
            tables = {d: t for d, t, _ in again.deals} if again else {}
            return tables.get(deal)
        return room.id
