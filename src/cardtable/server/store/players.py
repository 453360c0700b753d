"""Players and ratings: who holds a token, the tables a player sat at, each game's
ratings with their history, and the leaderboard."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from cardtable.server.schema import (
    daily_deals,
    players,
    rating_history,
    ratings,
    table_players,
    tables,
)
from cardtable.server.store.base import StoreBase, utc_now

__all__ = ["LeaderRow", "PlayerGame", "PlayerStore", "RatingPoint", "hash_token"]


def hash_token(token: str) -> str:
    """The stored form of a player token (the token itself is only in the player's cookie)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One table a player sat at, for the player page."""

    table_id: str
    game: str
    seat: int
    status: str
    result: dict[str, Any] | None
    rated: bool
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a game's rating leaderboard."""

    player_id: str
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        """The shown rating, a cautious ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating in one game after one more rated game."""

    at: datetime
    mu: float
    sigma: float
    games: int


class PlayerStore(StoreBase):
    """Players (by token), the tables they sat at, and their ratings."""

    def player_by_token(self, token: str) -> tuple[str, str] | None:
        """``(id, name)`` of the player holding ``token``."""
        with self.engine.connect() as conn:
            r = conn.execute(
                select(players.c.id, players.c.name).where(
                    players.c.token_hash == hash_token(token)
                )
            ).first()
            return None if r is None else (r.id, r.name)

    @staticmethod
    def save_player(conn: Connection, player_id: str, token: str, name: str) -> None:
        """Insert a player or rename them, in one statement: two processes saving the same
        new player at once (two tabs, a daily start sent to both) must not collide."""
        dialect = conn.dialect.name
        new = {"id": player_id, "token_hash": hash_token(token), "name": name}
        if dialect in ("postgresql", "sqlite"):
            upsert = (pg_insert if dialect == "postgresql" else sqlite_insert)(players)
            conn.execute(
                upsert.values(**new, created_at=utc_now()).on_conflict_do_update(
                    index_elements=[players.c.id], set_={"name": name}
                )
            )
            return
        exists = conn.execute(select(players.c.id).where(players.c.id == player_id)).first()
        if exists is None:
            conn.execute(insert(players).values(**new, created_at=utc_now()))
        else:
            conn.execute(update(players).where(players.c.id == player_id).values(name=name))

    def player(
        self, player_id: str
    ) -> tuple[str, list[PlayerGame], dict[str, tuple[float, float, int]]] | None:
        """A player's name, tables and ratings by game ``(mu, sigma, games)``."""
        with self.engine.connect() as conn:
            r = conn.execute(select(players.c.name).where(players.c.id == player_id)).first()
            if r is None:
                return None
            games = [
                PlayerGame(
                    g.id,
                    g.game,
                    g.seat,
                    g.status,
                    None if g.result is None else json.loads(g.result),
                    bool(g.rated),
                    g.updated_at,
                )
                for g in conn.execute(
                    select(
                        tables.c.id,
                        tables.c.game,
                        table_players.c.seat,
                        tables.c.status,
                        tables.c.result,
                        tables.c.rated,
                        tables.c.updated_at,
                    )
                    .join(table_players, table_players.c.table_id == tables.c.id)
                    .where(table_players.c.player_id == player_id)
                    .where(tables.c.id.not_in(select(daily_deals.c.table_id)))
                    .order_by(tables.c.updated_at.desc())
                    .limit(200)
                )
            ]
            rates = {
                x.game: (x.mu, x.sigma, x.games)
                for x in conn.execute(select(ratings).where(ratings.c.player_id == player_id))
            }
            return r.name, games, rates

    @staticmethod
    def get_ratings(
        conn: Connection, game: str, ids: Sequence[str]
    ) -> dict[str, tuple[float, float, int]]:
        """Current ratings ``(mu, sigma, games)`` of some players in one game."""
        rows = conn.execute(
            select(ratings).where(ratings.c.game == game, ratings.c.player_id.in_(list(ids)))
        )
        return {r.player_id: (r.mu, r.sigma, r.games) for r in rows}

    @staticmethod
    def set_rating(
        conn: Connection, game: str, player_id: str, mu: float, sigma: float, games: int
    ) -> None:
        """Store one rating."""
        done = conn.execute(
            update(ratings)
            .where(ratings.c.game == game, ratings.c.player_id == player_id)
            .values(mu=mu, sigma=sigma, games=games)
        )
        if done.rowcount == 0:
            conn.execute(
                insert(ratings).values(
                    player_id=player_id, game=game, mu=mu, sigma=sigma, games=games
                )
            )
        conn.execute(
            insert(rating_history).values(
                player_id=player_id, game=game, mu=mu, sigma=sigma, games=games, at=utc_now()
            )
        )

    def rating_history(self, player_id: str) -> dict[str, list[RatingPoint]]:
        """Every rating a player had, by game, oldest first."""
        out: dict[str, list[RatingPoint]] = {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rating_history)
                .where(rating_history.c.player_id == player_id)
                .order_by(rating_history.c.id)
            )
            for r in rows:
                out.setdefault(r.game, []).append(RatingPoint(r.at, r.mu, r.sigma, r.games))
        return out

    def leaderboard(self, game: str, min_games: int, limit: int = 100) -> list[LeaderRow]:
        """The rated players of ``game`` with at least ``min_games`` games, best first
        (by ``mu - 3 sigma``); bots have no player row and are left out."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(players.c.id, players.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
                .join(ratings, ratings.c.player_id == players.c.id)
                .where(ratings.c.game == game, ratings.c.games >= min_games)
                .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), players.c.id)
                .limit(limit)
            )
            return [LeaderRow(r.id, r.name, r.mu, r.sigma, r.games) for r in rows]
