"""The daily challenge's pages: today's games, starting and resuming an attempt, a day's
board and two players' replays of the same deal on one page, stepping together (rules in
:mod:`cardtable.server.daily`)."""

from __future__ import annotations

import asyncio
from datetime import date
from urllib.parse import parse_qsl

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cardtable.core.errors import CardtableError
from cardtable.core.registry import AnyGame
from cardtable.games import get_game
from cardtable.server.boards import (
    REPLAYS_LATER,
    DailyGame,
    daily_board_page,
    daily_page,
)
from cardtable.server.daily import AlreadyPlayedError, today
from cardtable.server.pages import daily_compare_page, message_page
from cardtable.server.routes.web import PLAYER_COOKIE, daily_of, hub_of, remember, tr_of

__all__ = ["router"]

router = APIRouter()
"""The daily challenge's routes."""


def _page(request: Request, html: str, status: int = 200) -> HTMLResponse:
    response = HTMLResponse(html, status_code=status)
    remember(request, response)
    return response


def _message(request: Request, text: str, status: int, link: str = "/daily") -> HTMLResponse:
    tr = tr_of(request)
    back = tr.gettext("Back to the leaderboard" if link != "/daily" else "Daily challenge")
    return _page(request, message_page(tr, text, (link, back)), status)


def _game(name: str) -> AnyGame | None:
    try:
        return get_game(name)
    except CardtableError:
        return None


def _day(text: str) -> date | None:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    return day if day <= today() else None


@router.get("/daily", response_class=HTMLResponse)
async def daily_index(request: Request) -> HTMLResponse:
    """Today's challenge of every game and the past days with their winners."""
    h, d, tr = hub_of(request), daily_of(request), tr_of(request)
    pid, name = await h.player(request.cookies.get(PLAYER_COOKIE))
    day = today()
    rows = []
    for game in h.games():
        attempt = None if pid is None else await d.attempt(game, day, pid)
        rank, field = None, 0
        if attempt is not None and attempt.finished:
            ranked, _ = await d.board(game, day)
            field = len(ranked)
            rank = next((r.rank for r in ranked if r.attempt.player_id == pid), None)
        rows.append(DailyGame(game, d.deals(game), attempt, rank, field))
    past = await asyncio.to_thread(h.store.past_days, day)
    known = {g.info.name: g for g in h.games()}
    html = daily_page(tr, day, rows, past, name or tr.gettext("Player"), known)
    return _page(request, html)


@router.post("/daily/{game_name}/start")
async def daily_start(request: Request, game_name: str) -> Response:
    """Begin today's attempt (or go back to it) and go to the deal to play."""
    h, d, tr = hub_of(request), daily_of(request), tr_of(request)
    game = _game(game_name)
    if game is None:
        return _message(request, tr.gettext("No such game"), 404)
    body = (await request.body()).decode("utf-8", "replace")
    given = " ".join(dict(parse_qsl(body)).get("name", "").split())[:40]
    response: Response = RedirectResponse("/daily", status_code=303)
    token = remember(request, response)
    _, saved = await h.player(token)
    name = given or saved or tr.gettext("Player")
    pid = await h.save_player(token, name)
    try:
        table = await d.start(game, pid, name)
    except AlreadyPlayedError:
        board = f"/daily/{game.info.name}/{today().isoformat()}"
        page = _message(request, tr.gettext("You have played today's challenge"), 409, board)
        for cookie in response.headers.getlist("set-cookie"):
            page.headers.append("set-cookie", cookie)
        return page
    response.headers["location"] = f"/t/{table}" if table else f"/daily/{game.info.name}/play"
    return response


@router.get("/daily/{game_name}/play")
async def daily_play(request: Request, game_name: str) -> Response:
    """Go on with today's attempt: the deal in progress, else the next one, else the
    day's board."""
    h, d = hub_of(request), daily_of(request)
    game = _game(game_name)
    if game is None:
        return _message(request, tr_of(request).gettext("No such game"), 404)
    pid, name = await h.player(request.cookies.get(PLAYER_COOKIE))
    table = None if pid is None else await d.resume(game, pid, name)
    target = f"/t/{table}" if table else f"/daily/{game.info.name}/{today().isoformat()}"
    return RedirectResponse(target, status_code=303)


@router.get("/daily/{game_name}/{day_text}", response_class=HTMLResponse)
async def daily_board(request: Request, game_name: str, day_text: str) -> HTMLResponse:
    """A day's board of one game."""
    h, d, tr = hub_of(request), daily_of(request), tr_of(request)
    game, day = _game(game_name), _day(day_text)
    if game is None or day is None:
        return _message(request, tr.gettext("No such day"), 404)
    pid, _ = await h.player(request.cookies.get(PLAYER_COOKIE))
    ranked, playing = await d.board(game, day)
    may_see = await d.may_see(game, day, pid)
    rows = [(r.rank, r.percentile, r.attempt) for r in ranked]
    return _page(request, daily_board_page(tr, game, day, rows, len(playing), pid, may_see))


@router.get("/daily/{game_name}/{day_text}/vs/{player_id}", response_class=HTMLResponse)
async def daily_compare(
    request: Request, game_name: str, day_text: str, player_id: str, deal: int = 0
) -> HTMLResponse:
    """One entry's replays beside one's own, deal by deal (once one may see the deals)."""
    h, d, tr = hub_of(request), daily_of(request), tr_of(request)
    game, day = _game(game_name), _day(day_text)
    if game is None or day is None:
        return _message(request, tr.gettext("No such day"), 404)
    pid, _ = await h.player(request.cookies.get(PLAYER_COOKIE))
    board = f"/daily/{game.info.name}/{day.isoformat()}"
    if not await d.may_see(game, day, pid):
        return _message(request, tr.gettext(REPLAYS_LATER), 403, board)
    theirs = await asyncio.to_thread(h.store.attempt, day, game.info.name, player_id)
    if theirs is None or not theirs.finished or not 0 <= deal < theirs.count:
        return _message(request, tr.gettext("No such player"), 404, board)
    mine = None
    if pid is not None and pid != player_id:
        mine = await asyncio.to_thread(h.store.attempt, day, game.info.name, pid)
    boards = []
    for who in (mine, theirs):
        table = None if who is None else {i: t for i, t, _ in who.deals}.get(deal)
        if who is not None and table is not None:
            boards.append((table, who.name))
    base = f"{board}/vs/{player_id}"
    deals = [
        (f"{base}?deal={i}", tr.fmt("Deal {n}", n=i + 1), i == deal) for i in range(theirs.count)
    ]
    html = daily_compare_page(tr, game, day.isoformat(), boards, deals, board, base)
    return _page(request, html)
