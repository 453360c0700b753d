"""The HTML pages (lobby, table, replay, player) and the lobby's forms that create tables."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from cardtable.core.errors import CardtableError
from cardtable.games import get_game
from cardtable.server.pages import lobby_page, player_page, replay_page, table_page, table_script
from cardtable.server.routes.web import PLAYER_COOKIE, hub_of, remember, tr_of

__all__ = ["router"]

router = APIRouter()
"""The HTML routes."""


def _page(request: Request, html: str, status: int = 200) -> HTMLResponse:
    """An HTML response that also sets the player's cookies."""
    response = HTMLResponse(html, status_code=status)
    remember(request, response)
    return response


def _not_found(request: Request, what: str) -> HTMLResponse:
    return _page(request, f"<h1>{tr_of(request).gettext(what)}</h1>", 404)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The lobby: the form for a new table, and recent games."""
    h = hub_of(request)
    pid, name = await h.player(request.cookies.get(PLAYER_COOKIE))
    games = h.games()
    recent = await asyncio.to_thread(h.store.finished, 10)
    html = lobby_page(
        tr_of(request),
        games,
        {g.info.name: h.levels(g) for g in games},
        {g.info.name: h.default_level(g) for g in games},
        name,
        recent,
        pid if name else None,
    )
    return _page(request, html)


async def _create_from(request: Request, data: dict[str, str]) -> Response:
    """Create a table from the lobby form's fields and go there."""
    h = hub_of(request)
    tr = tr_of(request)
    response: Response = RedirectResponse("/", status_code=303)
    token = remember(request, response)
    try:
        game = get_game(data.get("game", "royal-casino"))
        g = game.info.name
        players = int(data.get(f"{g}.players", game.info.default_players))
        seats = [
            data.get(f"{g}.seat.{i}", "human" if i == 0 else f"bot:{h.default_level(game)}")
            for i in range(players)
        ]
        options = {k.split(".", 2)[2]: v for k, v in data.items() if k.startswith(f"{g}.opt.")}
        name = data.get("name", "").strip() or tr.gettext("Player")
        pid = await h.save_player(token, name)
        timer = float(data.get("timer", "0") or 0)
        room = await h.create(
            g,
            players,
            options,
            seats,
            pid,
            name,
            rated=data.get("rated") == "true",
            timer=timer if timer > 0 else None,
            unit=data.get("unit") == "true",
        )
    except (CardtableError, ValueError) as e:
        return JSONResponse({"error": str(e)}, status_code=400)
    response.headers["location"] = f"/t/{room.id}"
    return response


async def _form(request: Request) -> dict[str, str]:
    body = (await request.body()).decode("utf-8", "replace")
    return dict(parse_qsl(body, keep_blank_values=True))


@router.post("/play")
async def quick_play(request: Request) -> Response:
    """One click: Royal Casino, you against the default bot."""
    return await _create_from(request, {"game": "royal-casino", **(await _form(request))})


@router.post("/new")
async def new_table(request: Request) -> Response:
    """The lobby's form: a table of any game with any seats and options."""
    return await _create_from(request, await _form(request))


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table(request: Request, table_id: str) -> HTMLResponse:
    """The page of a table (the client connects to its websocket)."""
    room = await hub_of(request).get(table_id)
    if room is None:
        return _not_found(request, "No such table")
    return _page(request, table_page(tr_of(request), room.id, room.game, len(room.meta.seats)))


@router.get("/replay/{table_id}", response_class=HTMLResponse)
async def replay_html(request: Request, table_id: str) -> HTMLResponse:
    """The replay page of a table (it reads ``/api/replay``)."""
    room = await hub_of(request).get(table_id)
    if room is None:
        return _not_found(request, "No such table")
    return _page(request, replay_page(tr_of(request), room.id, room.game, len(room.meta.seats)))


@router.get("/player/{player_id}", response_class=HTMLResponse)
async def player(request: Request, player_id: str) -> HTMLResponse:
    """A player's page: their games and ratings."""
    found = await asyncio.to_thread(hub_of(request).store.player, player_id)
    if found is None:
        return _not_found(request, "No such player")
    name, games, rates = found
    return _page(request, player_page(tr_of(request), player_id, name, games, rates))


@router.get("/games/{name}/table.js")
async def game_script(name: str) -> Response:
    """A game's own drawing of the middle of the table, from its folder."""
    try:
        game = get_game(name)
    except CardtableError:
        return Response("// no such game", status_code=404, media_type="text/javascript")
    script = table_script(game)
    if script is None:
        return Response("// this game has no table script", 404, media_type="text/javascript")
    return Response(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})
