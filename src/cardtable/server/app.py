"""The ASGI application: pages, a small JSON API and one websocket per client.

The websocket protocol (JSON objects with a ``type``):

* client → server: ``hello {version?}`` (first message; the last version the client saw),
  ``act {action, version, seat?}``, ``sit {seat, name?}``, ``leave``, ``replace {seat}``,
  ``hint``, ``ping``.
* server → client: ``state`` (a full picture: view, legal actions, seats, recent log),
  ``update`` (new events for this seat and the new view), ``hint {action}``,
  ``error {code, message, version}``, ``pong``.

Every message carries the table's ``version``; a client that reconnects with its last
version receives the events it missed, redacted for its seat, and a fresh view.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from cardtable.core.errors import CardtableError
from cardtable.core.record import Record, replay
from cardtable.server.config import Settings
from cardtable.server.hub import Hub
from cardtable.server.i18n import LANGUAGES, Translator, negotiate, translator
from cardtable.server.pages import lobby_page, player_page, replay_page, table_page
from cardtable.server.present import describe_event, event_json
from cardtable.server.rooms import ClientError, Conn, Room

__all__ = ["create_app"]

log = logging.getLogger("cardtable.server")
STATIC = Path(__file__).with_name("static")
PLAYER_COOKIE = "ct_player"
LANG_COOKIE = "ct_lang"
MAX_MESSAGE = 4096


def _lang(request: Request | WebSocket) -> tuple[str, bool]:
    """The page language and whether it was chosen just now (to remember in a cookie)."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked, True
    saved = request.cookies.get(LANG_COOKIE)
    if saved in LANGUAGES:
        return saved, False
    return negotiate(request.headers.get("accept-language")), False


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application; the hub (database, tables, bus) lives as long as the app runs."""
    settings = settings or Settings.from_env()
    holder: dict[str, Hub] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings)
        await hub.start()
        holder["hub"] = hub
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="cardtable", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def hub() -> Hub:
        return holder["hub"]

    def page(request: Request, html: str, status: int = 200) -> HTMLResponse:
        response = HTMLResponse(html, status_code=status)
        remember(request, response)
        return response

    def remember(request: Request, response: Response) -> str:
        token = request.cookies.get(PLAYER_COOKIE)
        if not token:
            token = secrets.token_urlsafe(24)
            request.state.new_token = token
            response.set_cookie(
                PLAYER_COOKIE,
                token,
                max_age=3600 * 24 * 365 * 5,
                httponly=True,
                samesite="lax",
                secure=settings.secure_cookies,
            )
        lang, chosen = _lang(request)
        if chosen:
            response.set_cookie(LANG_COOKIE, lang, max_age=3600 * 24 * 365, samesite="lax")
        return token

    def token_of(request: Request) -> str | None:
        return request.cookies.get(PLAYER_COOKIE) or getattr(request.state, "new_token", None)

    def tr_of(request: Request | WebSocket) -> Translator:
        return translator(_lang(request)[0])

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "tables": len(hub().rooms)}

    @app.get("/", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        h = hub()
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
        return page(request, html)

    async def create_from(request: Request, data: dict[str, str]) -> Response:
        h = hub()
        tr = tr_of(request)
        response: Response = RedirectResponse("/", status_code=303)
        token = remember(request, response)
        game_name = data.get("game", "royal-casino")
        try:
            from cardtable.games import get_game

            game = get_game(game_name)
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

    async def form(request: Request) -> dict[str, str]:
        body = (await request.body()).decode("utf-8", "replace")
        return dict(parse_qsl(body, keep_blank_values=True))

    @app.post("/play")
    async def quick_play(request: Request) -> Response:
        """One click: Royal Casino, you against the default bot."""
        return await create_from(request, {"game": "royal-casino", **(await form(request))})

    @app.post("/new")
    async def new_table(request: Request) -> Response:
        return await create_from(request, await form(request))

    @app.post("/api/tables")
    async def api_create(request: Request) -> Response:
        try:
            data = await request.json()
        except ValueError:
            return JSONResponse({"error": "send a JSON object"}, status_code=400)
        if not isinstance(data, dict):
            return JSONResponse({"error": "send a JSON object"}, status_code=400)
        h = hub()
        response = JSONResponse({})
        token = remember(request, response)
        try:
            game = str(data.get("game", "royal-casino"))
            from cardtable.games import get_game

            g = get_game(game)
            players = int(data.get("players", g.info.default_players))
            seats = [str(s) for s in data.get("seats", ["human"] + ["bot:random"] * (players - 1))]
            pid = await h.save_player(token, str(data.get("name", "Player")))
            room = await h.create(
                g.info.name,
                players,
                dict(data.get("options", {})),
                seats,
                pid,
                str(data.get("name", "Player")),
                rated=bool(data.get("rated", False)),
                timer=float(data["timer"]) if data.get("timer") else None,
                hints=bool(data.get("hints", True)),
                unit=bool(data.get("unit", False)),
            )
        except (CardtableError, ValueError, TypeError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        body = json.dumps({"id": room.id, "url": f"/t/{room.id}", "player": pid})
        response.body = body.encode()
        response.headers["content-length"] = str(len(response.body))
        return response

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def table(request: Request, table_id: str) -> HTMLResponse:
        room = await hub().get(table_id)
        tr = tr_of(request)
        if room is None:
            return page(request, f"<h1>{tr.gettext('No such table')}</h1>", 404)
        return page(request, table_page(tr, room.id, room.game))

    @app.get("/replay/{table_id}", response_class=HTMLResponse)
    async def replay_html(request: Request, table_id: str) -> HTMLResponse:
        room = await hub().get(table_id)
        tr = tr_of(request)
        if room is None:
            return page(request, f"<h1>{tr.gettext('No such table')}</h1>", 404)
        return page(request, replay_page(tr, room.id, room.game))

    @app.get("/api/replay/{table_id}")
    async def replay_json(request: Request, table_id: str) -> Response:
        room = await hub().get(table_id)
        if room is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if room.status == "playing":
            return JSONResponse(
                {"error": "the game is still being played; replays show every hand"},
                status_code=403,
            )
        return JSONResponse(await asyncio.to_thread(_replay_steps, room, tr_of(request)))

    @app.get("/api/record/{table_id}")
    async def record_json(table_id: str) -> Response:
        """The game record (``cardtable replay`` reads it) once the game is over."""
        room = await hub().get(table_id)
        if room is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if room.status == "playing":
            return JSONResponse(
                {"error": "the record (with its seed) is published once the game is over"},
                status_code=403,
            )
        return JSONResponse(room.table.record.to_json())

    @app.get("/player/{player_id}", response_class=HTMLResponse)
    async def player(request: Request, player_id: str) -> HTMLResponse:
        found = await asyncio.to_thread(hub().store.player, player_id)
        tr = tr_of(request)
        if found is None:
            return page(request, f"<h1>{tr.gettext('No such player')}</h1>", 404)
        name, games, rates = found
        return page(request, player_page(tr, player_id, name, games, rates))

    @app.websocket("/ws/{table_id}")
    async def websocket(ws: WebSocket, table_id: str) -> None:
        h = hub()
        room = await h.get(table_id)
        if room is None:
            await ws.close(code=4404)
            return
        await ws.accept()
        token = ws.cookies.get(PLAYER_COOKIE)
        pid, _name = await h.player(token)
        conn = Conn(ws.send_text, pid, tr_of(ws))
        conn.seat = room.seat_of(pid)
        room.conns.add(conn)
        room.meta.gone_since.pop(conn.seat if conn.seat is not None else -1, None)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        try:
            while True:
                text = await ws.receive_text()
                room = h.rooms.get(table_id, room)
                if conn not in room.conns:
                    room.conns.add(conn)
                await _handle(h, room, conn, token, text)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket went away mid-send
            pass
        finally:
            room = h.rooms.get(table_id, room)
            room.conns.discard(conn)
            conn.close()
            seat = room.seat_of(pid)
            if seat is not None and not room.connected(seat):
                room.meta.gone_since[seat] = asyncio.get_running_loop().time()
                room.refresh_all()
            pump.cancel()

    return app


async def _handle(h: Hub, room: Room, conn: Conn, token: str | None, text: str) -> None:
    """One client message; errors go back to the client and change nothing."""
    msg: Any = None
    try:
        if len(text) > MAX_MESSAGE:
            raise ClientError("malformed", "message too long")
        try:
            msg = json.loads(text)
        except ValueError:
            raise ClientError("malformed", "messages are JSON objects") from None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ClientError("malformed", "a message is a JSON object with a 'type'")
        kind = msg["type"]
        if kind == "hello":
            version = msg.get("version")
            if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
                raise ClientError("malformed", "'version' must be a whole number")
            if not h.bus.owns(room):
                await h.catch_up(room)
            conn.seat = room.seat_of(conn.player_id)
            conn.send(room.state_message(conn, version))
        elif kind == "ping":
            conn.send({"type": "pong", "version": room.table.version})
        elif kind == "hint":
            conn.send({"type": "hint", **(await room.hint(conn))})
        elif kind in ("act", "sit", "leave", "replace"):
            name = ""
            if kind == "sit":
                if token is None:
                    raise ClientError("forbidden", "cookies are needed to take a seat")
                given = msg.get("name")
                _pid, name = await h.player(token)
                if isinstance(given, str) and given.strip():
                    name = given.strip()
                name = name or conn.tr.gettext("Player")
                await h.save_player(token, name)
            await h.submit(room, conn.player_id, name, msg)
        else:
            raise ClientError("malformed", f"unknown message type {kind!r}")
    except ClientError as e:
        conn.send(
            {
                "type": "error",
                "code": e.code,
                "message": e.message,
                "version": h.rooms.get(room.id, room).table.version,
                "ref": msg.get("ref") if isinstance(msg, dict) else None,
            }
        )


def _replay_steps(room: Room, tr: Translator) -> dict[str, Any]:
    """Every state of a finished table with every hand shown, step by step."""
    row = room.table.record
    record = Record(
        row.game, row.players, row.seed, row.options, row.scope, row.seats, row.actions, row.start
    )
    game = room.game
    result = replay(record, game)
    names = room.names(tr)
    steps = []
    for i, state in enumerate(result.states):
        hands = []
        for seat in range(row.players):
            hand = game.view_to_json(game.view(state, seat)).get("hand")
            hands.append(hand)
        events = [] if i == 0 else result.events[i - 1]
        steps.append(
            {
                "version": i,
                "action": None if i == 0 else record.actions[i - 1],
                "view": game.view_to_json(game.view(state, None)),
                "hands": hands,
                "events": [
                    {"text": describe_event(e, names, tr), "event": event_json(e)} for e in events
                ],
            }
        )
    outcome = room.table.outcome()
    return {
        "table": room.id,
        "game": game.info.name,
        "names": names,
        "status": room.status,
        "outcome": None if outcome is None else outcome.to_json(),
        "steps": steps,
    }
