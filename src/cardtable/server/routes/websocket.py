"""One websocket per client and table: the protocol's messages in, per-seat messages out.

Client → server: ``hello {version?, patches?}`` (first; the last version the client saw;
``patches: true`` when it applies ``patch`` messages),
``act {action, version, seat?}``, ``sit {seat, name?}``, ``leave``, ``replace {seat}``,
``hint``, ``ping``.  Server → client: ``state``, ``update``, ``patch``, ``hint {action}``,
``error {code, message, version, rule}``, ``pong`` (see :mod:`cardtable.server.messages`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from cardtable.server.conn import Conn, SendLimits
from cardtable.server.errors import ClientError
from cardtable.server.hub import Hub
from cardtable.server.messages import error_message
from cardtable.server.room import Room
from cardtable.server.routes.web import PLAYER_COOKIE, hub_of, tr_of

__all__ = ["MAX_MESSAGE", "router"]

router = APIRouter()
"""The websocket route."""

MAX_MESSAGE = 4096
"""The longest message a client may send (characters)."""


@router.websocket("/ws/{table_id}")
async def websocket(ws: WebSocket, table_id: str) -> None:
    """Serve one client of one table until it goes away."""
    h = hub_of(ws)
    room = await h.get(table_id)
    if room is None:
        await ws.close(code=4404)
        return
    await ws.accept()
    token = ws.cookies.get(PLAYER_COOKIE)
    pid, _name = await h.player(token)
    conn = Conn(
        ws.send_text,
        pid,
        tr_of(ws),
        close=lambda code, reason: ws.close(code=code, reason=reason),
        limits=SendLimits.from_env(),
    )
    room.join(conn)
    pump = asyncio.get_running_loop().create_task(conn.pump())
    try:
        while True:
            text = await ws.receive_text()
            if not conn.stopped:  # stopped: too far behind, its socket is being closed
                await _handle(h, room, conn, token, text)
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # the socket went away mid-send
        pass
    finally:
        room.part(conn)
        conn.close()
        pump.cancel()


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
            if not h.bus.owns(room.id):
                await room.catch_up()
            room.greet(conn, version, patches=msg.get("patches") is True)
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
        ref = msg.get("ref") if isinstance(msg, dict) else None
        conn.send(error_message(e.code, e.message, room.table.version, ref, e.rule))
