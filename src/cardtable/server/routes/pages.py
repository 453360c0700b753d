"""The HTML pages (lobby, table, replay, player) and the lobby's forms that create tables."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from cardtable.core.errors import CardtableError
from cardtable.core.registry import AnyGame
from cardtable.games import get_game
from cardtable.server.forms import InvalidRequest, Problem, check_new_table
from cardtable.server.pages import (
    lobby_page,
    message_page,
    replay_page,
    table_page,
    table_script,
)
from cardtable.server.routes.web import PLAYER_COOKIE, create_table, hub_of, remember, tr_of

__all__ = ["not_found", "router"]

router = APIRouter()
"""The HTML routes."""


def _page(request: Request, html: str, status: int = 200) -> HTMLResponse:
    """An HTML response that also sets the player's cookies."""
    response = HTMLResponse(html, status_code=status)
    remember(request, response)
    return response


def _not_found(request: Request, what: str) -> HTMLResponse:
    return _refused(request, what, 404)


def _refused(request: Request, what: str, status: int) -> HTMLResponse:
    """A refusal (``what``: a catalog id) in the site's frame, in the visitor's language."""
    tr = tr_of(request)
    return _page(request, message_page(tr, tr.gettext(what)), status)


PAGE_NOT_FOUND = "There is no page at this address."
"""The words of an address no route knows (a catalog message id)."""


async def not_found(request: Request, exc: Exception) -> Response:
    """Any 404 (and a 405: a form's address opened as a page): a page in the site's frame
    for a browser, the usual JSON for the API and for clients that do not ask for HTML."""
    status = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", "Not Found")
    wants_html = "text/html" in request.headers.get("accept", "")
    if not wants_html or request.url.path.startswith(("/api/", "/static/", "/games/")):
        headers = getattr(exc, "headers", None)
        return JSONResponse({"detail": detail}, status_code=status, headers=headers)
    return _refused(request, PAGE_NOT_FOUND, status)


PRIVATE = "This is a deal of the daily challenge: it is shown once you have played it."
"""Why a daily challenge deal is not shown (a catalog message id)."""

QUICK_GAME = "royal-casino"
"""The game of the one-click button (the registry's name, never compared with a game)."""


def _offered(levels: list[str]) -> list[str]:
    """The bots the lobby offers: the named levels, not the search with a budget of one's
    own (``ismcts:N``, for the CLI and the API)."""
    return [lv for lv in levels if ":" not in lv]


async def _lobby_html(
    request: Request,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
) -> str:
    h = hub_of(request)
    pid, name = await h.player(request.cookies.get(PLAYER_COOKIE))
    games = h.games()
    recent = await asyncio.to_thread(h.store.finished, 10)
    return lobby_page(
        tr_of(request),
        games,
        {g.info.name: _offered(h.levels(g)) for g in games},
        {g.info.name: h.default_level(g) for g in games},
        name or tr_of(request).gettext("Player"),  # a newcomer may keep it or type theirs
        recent,
        pid if name else None,
        get_game(QUICK_GAME),
        values,
        errors,
    )


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """The lobby: the form for a new table, and recent games."""
    return _page(request, await _lobby_html(request))


def _form_field(game: AnyGame, problem: Problem) -> str:
    """The lobby form's field a problem is about (``seat.1`` → ``rummy.seat.1``); ``form``
    for an option the form has no field for (shown above the form)."""
    if problem.field in ("name", "timer", "game"):
        return problem.field
    option = problem.field.removeprefix("opt.")
    if option != problem.field and option not in {s.name for s in game.info.options.specs}:
        return "form"
    return f"{game.info.name}.{problem.field}"


async def _create_from(request: Request, data: dict[str, str], quick: bool = False) -> Response:
    """Create a table from the lobby form's fields and go there; a refused form comes back
    with the player's values and a message by each wrong field (status 400, nothing
    stored)."""
    h = hub_of(request)
    tr = tr_of(request)
    try:
        game = get_game(data.get("game", QUICK_GAME))
    except CardtableError:
        wrong = {"game": tr.gettext("Choose a game from the list")}
        return _page(request, await _lobby_html(request, data, wrong), 400)
    g = game.info.name
    players = data.get(f"{g}.players", "").strip() or str(game.info.default_players)
    count = int(players) if players.isascii() and players.isdigit() else None
    seats = None
    if count is not None and game.info.min_players <= count <= game.info.max_players:
        seats = [
            data.get(f"{g}.seat.{i}", "human" if i == 0 else f"bot:{h.default_level(game)}")
            for i in range(count)
        ]
    options = {k.split(".", 2)[2]: v for k, v in data.items() if k.startswith(f"{g}.opt.")}
    _, saved = await h.player(request.cookies.get(PLAYER_COOKIE))
    fallback = saved or tr.gettext("Player")
    name = fallback if quick else data.get("name", fallback)
    try:
        wanted = check_new_table(
            game,
            players=players,
            seats=seats,
            options=options,
            name=name,
            timer=data.get("timer", ""),
            rated=data.get("rated") == "true",
            unit=data.get("unit") == "true",
            bots=_offered(h.levels(game)),
        )
    except InvalidRequest as e:
        errors: dict[str, str] = {}
        for problem in e.problems:
            errors.setdefault(_form_field(game, problem), problem.text(tr))
        return _page(request, await _lobby_html(request, data, errors), 400)
    response: Response = RedirectResponse("/", status_code=303)
    table_id, _ = await create_table(request, response, wanted)
    response.headers["location"] = f"/t/{table_id}"
    return response


async def _form(request: Request) -> dict[str, str]:
    body = (await request.body()).decode("utf-8", "replace")
    return dict(parse_qsl(body, keep_blank_values=True))


@router.post("/play")
async def quick_play(request: Request) -> Response:
    """One click: Royal Casino, you against the default bot."""
    return await _create_from(request, {**(await _form(request)), "game": QUICK_GAME}, True)


@router.post("/new")
async def new_table(request: Request) -> Response:
    """The lobby's form: a table of any game with any seats and options."""
    return await _create_from(request, await _form(request))


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table(request: Request, table_id: str) -> HTMLResponse:
    """The page of a table (the client connects to its websocket)."""
    h = hub_of(request)
    room = await h.get(table_id)
    if room is None:
        return _not_found(request, "No such table")
    pid, _ = await h.player(request.cookies.get(PLAYER_COOKIE))
    if not await h.may_watch(room, pid):
        return _refused(request, PRIVATE, 403)
    return _page(request, table_page(tr_of(request), room.id, room.game, len(room.meta.seats)))


@router.get("/replay/{table_id}", response_class=HTMLResponse)
async def replay_html(request: Request, table_id: str) -> HTMLResponse:
    """The replay page of a table (it reads ``/api/replay``)."""
    h = hub_of(request)
    room = await h.get(table_id)
    if room is None:
        return _not_found(request, "No such table")
    pid, _ = await h.player(request.cookies.get(PLAYER_COOKIE))
    if not await h.may_watch(room, pid, replay=True):
        return _refused(request, PRIVATE, 403)
    return _page(request, replay_page(tr_of(request), room.id, room.game))


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
