"""A player's page (ratings, games, rating chart, daily results) and the rating
leaderboards of every game."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from cardtable.server.boards import leaderboards_page, player_history
from cardtable.server.pages import player_page
from cardtable.server.routes.web import daily_of, hub_of, remember, tr_of

__all__ = ["router"]

router = APIRouter()
"""The player and leaderboard routes."""


def _page(request: Request, html: str, status: int = 200) -> HTMLResponse:
    response = HTMLResponse(html, status_code=status)
    remember(request, response)
    return response


@router.get("/player/{player_id}", response_class=HTMLResponse)
async def player(request: Request, player_id: str) -> HTMLResponse:
    """A player's page: ratings, games, the rating over time and daily challenge results."""
    h, tr = hub_of(request), tr_of(request)
    found = await asyncio.to_thread(h.store.player, player_id)
    if found is None:
        return _page(request, f"<h1>{tr.gettext('No such player')}</h1>", 404)
    name, games, rates = found
    history = await asyncio.to_thread(h.store.rating_history, player_id)
    attempts = await asyncio.to_thread(h.store.player_attempts, player_id)
    known = {g.info.name: g for g in h.games()}
    extra = player_history(tr, history, attempts, known)
    return _page(request, player_page(tr, player_id, name, games, rates, known, extra))


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard(request: Request) -> HTMLResponse:
    """Every game's rating leaderboard."""
    h, tr = hub_of(request), tr_of(request)
    least = daily_of(request).config.min_games
    boards = [
        (game, await asyncio.to_thread(h.store.leaderboard, game.info.name, least))
        for game in h.games()
    ]
    return _page(request, leaderboards_page(tr, boards, least))
