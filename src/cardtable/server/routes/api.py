"""The JSON API: health, creating a table, a finished table's replay and record."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from cardtable.core.errors import CardtableError
from cardtable.games import get_game
from cardtable.server.messages import replay_steps
from cardtable.server.routes.web import hub_of, remember, tr_of

__all__ = ["router"]

router = APIRouter()
"""The JSON routes."""


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """Liveness, and how many tables this process has in memory."""
    return {"ok": True, "tables": len(hub_of(request).rooms)}


@router.post("/api/tables")
async def api_create(request: Request) -> Response:
    """Create a table from a JSON object; answers its id, its URL and the player's id."""
    try:
        data = await request.json()
    except ValueError:
        return JSONResponse({"error": "send a JSON object"}, status_code=400)
    if not isinstance(data, dict):
        return JSONResponse({"error": "send a JSON object"}, status_code=400)
    h = hub_of(request)
    response = JSONResponse({})
    token = remember(request, response)
    try:
        g = get_game(str(data.get("game", "royal-casino")))
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


@router.get("/api/replay/{table_id}")
async def replay_json(request: Request, table_id: str) -> Response:
    """Every state of a finished table with every hand shown (for the replay page)."""
    room = await hub_of(request).get(table_id)
    if room is None:
        return JSONResponse({"error": "no such table"}, status_code=404)
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
    if room.status == "playing":
        return JSONResponse(
            {"error": "the record (with its seed) is published once the game is over"},
            status_code=403,
        )
    return JSONResponse(room.table.record.to_json())
