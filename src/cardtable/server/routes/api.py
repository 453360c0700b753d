"""The JSON API: health, creating a table, a finished table's replay and record."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cardtable.core.errors import CardtableError
from cardtable.games import get_game
from cardtable.server.forms import InvalidRequest, check_new_table
from cardtable.server.messages import replay_steps
from cardtable.server.room import Room
from cardtable.server.routes.web import PLAYER_COOKIE, create_table, hub_of, tr_of

__all__ = ["router"]

router = APIRouter()
"""The JSON routes."""


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """Liveness, how many tables this process has in memory, and (under ``cardtable
    serve``) what the garbage collector's pauses cost so far."""
    out: dict[str, Any] = {"ok": True, "tables": len(hub_of(request).rooms)}
    collector = getattr(request.app.state, "collector", None)
    if collector is not None:
        out["gc"] = collector.stats.to_json()
    return out


def _bad(message: str, errors: dict[str, str] | None = None) -> JSONResponse:
    """A refused request: a message for people and, by field, what is wrong."""
    body: dict[str, Any] = {"error": message}
    if errors:
        body["errors"] = errors
    return JSONResponse(body, status_code=400)


@router.post("/api/tables")
async def api_create(request: Request) -> Response:
    """Create a table from a JSON object; answers its id, its URL and the player's id.

    Every field is checked before anything is stored; a refused request answers 400 with
    ``error`` (every problem, in the request's language, with the schema's or the game's
    own reason) and ``errors`` (one message by field: ``name``, ``timer``, ``game``,
    ``players``, ``seat.<i>``, ``opt.<option>``).
    """
    tr = tr_of(request)
    try:
        data = await request.json()
    except ValueError:
        return _bad(tr.gettext("Send a JSON object"))
    if not isinstance(data, dict):
        return _bad(tr.gettext("Send a JSON object"))
    try:
        game = get_game(str(data.get("game", "royal-casino")))
    except CardtableError as e:
        text = tr.gettext("Choose a game from the list")
        return _bad(f"game: {text} ({e})", {"game": text})
    seats = data.get("seats")
    options = data.get("options", {})
    if seats is not None and not isinstance(seats, list):
        text = tr.gettext("Choose who sits here")
        return _bad(f"seats: {text}", {"seat.0": text})
    if not isinstance(options, dict):
        text = tr.gettext("Send the options as a JSON object")
        return _bad(f"options: {text}", {"options": text})
    try:
        wanted = check_new_table(
            game,
            players=data.get("players", seats and len(seats)),
            seats=seats,
            options=options,
            name=data.get("name", "Player"),
            timer=data.get("timer"),
            rated=bool(data.get("rated", False)),
            hints=bool(data.get("hints", True)),
            unit=bool(data.get("unit", False)),
        )
    except InvalidRequest as e:
        errors: dict[str, str] = {}
        lines = []
        for p in e.problems:
            text = p.text(tr)
            errors.setdefault(p.field, text)
            lines.append(f"{p.field}: {text}" + (f" ({p.reason})" if p.reason else ""))
        return _bad("; ".join(lines), errors)
    response = JSONResponse({})
    table_id, pid = await create_table(request, response, wanted)
    body = json.dumps({"id": table_id, "url": f"/t/{table_id}", "player": pid})
    response.body = body.encode()
    response.headers["content-length"] = str(len(response.body))
    return response


async def _may_replay(request: Request, room: Room) -> bool:
    """Whether the request's player may see the table's every hand (daily deals: once
    they have played that day's challenge)."""
    h = hub_of(request)
    pid, _ = await h.player(request.cookies.get(PLAYER_COOKIE))
    return await h.may_watch(room, pid, replay=True)


@router.get("/api/replay/{table_id}")
async def replay_json(request: Request, table_id: str) -> Response:
    """Every state of a finished table with every hand shown (for the replay page)."""
    room = await hub_of(request).get(table_id)
    if room is None:
        return JSONResponse({"error": "no such table"}, status_code=404)
    if not await _may_replay(request, room):
        return JSONResponse({"error": "a daily challenge deal; play it first"}, status_code=403)
    if room.status == "playing":
        return JSONResponse(
            {"error": "the game is still being played; replays show every hand"},
            status_code=403,
        )
    return JSONResponse(await asyncio.to_thread(replay_steps, room, tr_of(request)))


@router.get("/api/record/{table_id}")
async def record_json(request: Request, table_id: str) -> Response:
    """The game record (``cardtable replay`` reads it) once the game is over."""
    room = await hub_of(request).get(table_id)
    if room is None:
        return JSONResponse({"error": "no such table"}, status_code=404)
    if not await _may_replay(request, room):
        return JSONResponse({"error": "a daily challenge deal; play it first"}, status_code=403)
    if room.status == "playing":
        return JSONResponse(
            {"error": "the record (with its seed) is published once the game is over"},
            status_code=403,
        )
    return JSONResponse(room.table.record.to_json())
