"""The daily challenge: each player's attempt of a day's deals, its scores, the days' winners."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, Table, func, insert, select, update

from cardtable.server.schema import daily_attempts, daily_deals, players, tables
from cardtable.server.store.base import StoreBase, utc_now

__all__ = ["Attempt", "DailyStore", "DayWinner", "seat_score"]


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


def seat_score(result: Mapping[str, Any], seat: int) -> int | None:
    """The score of the side ``seat`` belongs to in a stored outcome.

    >>> seat_score({"sides": [[0, 2], [1, 3]], "scores": [7, 4], "winners": [0]}, 3)
    4
    """
    for side, score in zip(result.get("sides", []), result.get("scores", []), strict=False):
        if seat in side:
            return int(score)
    return None


def _of_attempt(
    table: Table, day: date, game: str, player_id: str
) -> tuple[ColumnElement[bool], ...]:
    """The conditions that pick one player's attempt of a day's game in ``table``
    (``daily_attempts``; in ``daily_deals``, the attempt's deals)."""
    return (table.c.day == day, table.c.game == game, table.c.player_id == player_id)


class DailyStore(StoreBase):
    """The daily challenge: attempts, their deals' tables and scores, past winners."""

    @staticmethod
    def start_attempt(conn: Connection, day: date, game: str, player_id: str, count: int) -> None:
        """Begin a player's attempt; raises ``IntegrityError`` when they have one that day."""
        conn.execute(
            insert(daily_attempts).values(
                day=day, game=game, player_id=player_id, deals=count, started_at=utc_now()
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
            select(daily_attempts).where(*_of_attempt(daily_attempts, day, game, player_id))
        ).first()
        if attempt is None or attempt.finished_at is not None:
            return
        rows = conn.execute(
            select(daily_deals.c.deal, daily_deals.c.score, tables.c.status, tables.c.result)
            .join(tables, tables.c.id == daily_deals.c.table_id)
            .where(*_of_attempt(daily_deals, day, game, player_id))
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
                            *_of_attempt(daily_deals, day, game, player_id),
                            daily_deals.c.deal == r.deal,
                        )
                        .values(score=score)
                    )
            if score is not None:
                scores[r.deal] = score
        if len(scores) == attempt.deals:
            conn.execute(
                update(daily_attempts)
                .where(*_of_attempt(daily_attempts, day, game, player_id))
                .values(score=sum(scores.values()), finished_at=utc_now())
            )

    def has_finished(self, day: date, game: str, player_id: str) -> bool:
        """True when the player finished that day's challenge of that game."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(daily_attempts.c.finished_at).where(
                    *_of_attempt(daily_attempts, day, game, player_id)
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
