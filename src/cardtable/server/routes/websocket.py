"""One websocket per client and table: the protocol's messages in, per-seat messages out.

Client → server: ``hello {version?, patches?}`` (first; the last version the client saw;
``patches: true`` when it applies ``patch`` messages),
``act {action, version, seat?}``, ``sit {seat, name?}``, ``leave``, ``replace {seat}``,
``hint``, ``ping``.  Server → client: ``state``, ``update``, ``patch``, ``hint {action}``,
``error {code, message, version, rule}``, ``notice {code, message, version}``, ``pong`` (see
:mod:`cardtable.server.messages`).

What a client may send is limited (:mod:`cardtable.server.limits`, docs/server.md "Limits
and policies"): a page from another web origin is closed with :data:`CLOSE_ORIGIN`; every
malformed frame (binary, not JSON, nested deeper than :data:`MAX_DEPTH`, longer than
:data:`MAX_MESSAGE`, the wrong shape) gets an ``error`` and changes nothing, and a connection
that sends more than the process's ``malformed_limit`` of them in a minute is closed with
:data:`CLOSE_ABUSE`; messages and hints beyond a player's rate get ``rate_limited``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketState

from cardtable.server.conn import Conn, SendLimits
from cardtable.server.errors import ClientError
from cardtable.server.hub import Hub
from cardtable.server.limits import origin_allowed
from cardtable.server.messages import error_message
from cardtable.server.names import InvalidName, normalize_name
from cardtable.server.room import Room
from cardtable.server.routes.web import PLAYER_COOKIE, hub_of, tr_of

__all__ = ["CLOSE_ABUSE", "CLOSE_ORIGIN", "MAX_DEPTH", "MAX_FRAME_BYTES", "MAX_MESSAGE", "router"]

log = logging.getLogger("cardtable.server")

router = APIRouter()
"""The websocket route."""

MAX_MESSAGE = 4096
"""The longest message a client may send (characters)."""
MAX_DEPTH = 8
"""The deepest nesting of JSON arrays and objects a message may have."""
MAX_FRAME_BYTES = 64 * 1024
"""The largest frame the websocket layer reads at all (``cardtable serve`` passes it to
uvicorn): a longer one closes the socket with 1009 before it is buffered whole."""
CLOSE_ORIGIN = 4403
"""The close code for a page of a web origin that may not use this server."""
CLOSE_ABUSE = 1008
"""The close code (policy violation) for a connection that keeps sending malformed messages."""

_anonymous = itertools.count()
"""Numbers the rate-limit buckets of clients without a cookie (one bucket per socket)."""


class _Malformed(ClientError):
    """A frame that is not a protocol message (``malformed``; counted towards closing the
    socket, as is every ``malformed`` the room gives)."""

    def __init__(self, message: str) -> None:
        super().__init__("malformed", message)


class _Abuse(Exception):
    """Close the connection: too many malformed messages."""


@router.websocket("/ws/{table_id}")
async def websocket(ws: WebSocket, table_id: str) -> None:
    """Serve one client of one table until it goes away."""
    h = hub_of(ws)
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), h.limits.origins):
        await ws.accept()
        await ws.close(code=CLOSE_ORIGIN, reason="this page's origin may not use this server")
        log.info("websocket from origin %r refused", ws.headers.get("origin"))
        return
    room = await h.get(table_id)
    if room is None:
        await ws.close(code=4404)
        return
    await ws.accept()
    token = ws.cookies.get(PLAYER_COOKIE)
    pid, _name = await h.player(token)
    if not await h.may_watch(room, pid):  # a daily challenge deal: its player alone
        await ws.close(code=4403)
        return
    conn = Conn(
        ws.send_text,
        pid,
        tr_of(ws),
        close=lambda code, reason: ws.close(code=code, reason=reason),
        limits=SendLimits.from_env(),
    )
    key = pid or f"socket:{next(_anonymous)}"
    strikes = h.limits.strikes()
    room.join(conn)
    pump = asyncio.get_running_loop().create_task(conn.pump())
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if conn.stopped:  # too far behind: its socket is being closed, nothing is read
                continue
            text = frame.get("text")
            if text is None:
                _reply(conn, room, _Malformed("send messages as text frames of JSON"), None)
                malformed = True
            else:
                malformed = await _handle(h, room, conn, token, key, text)
            if malformed and strikes.take(h.limits.clock()) > 0:
                raise _Abuse
    except _Abuse:
        log.info("table %s: closing a connection that sent too many malformed messages", room.id)
        conn.close()  # send what is queued (the last error) before closing
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pump, 2.0)
        if ws.application_state == WebSocketState.CONNECTED:
            await ws.close(code=CLOSE_ABUSE, reason="too many malformed messages")
    except RuntimeError:  # the socket went away mid-send
        pass
    finally:
        room.part(conn)
        conn.close()
        pump.cancel()


def _too_deep(value: Any, room: int = MAX_DEPTH) -> bool:
    """True when arrays and objects nest in a parsed JSON value more than ``room`` levels
    deep (it looks no deeper than that, so a value nested a thousand levels is no risk)."""
    if isinstance(value, dict):
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return False
    return room == 0 or any(_too_deep(v, room - 1) for v in items)


def _parse(text: str) -> dict[str, Any]:
    """A client message, or :class:`_Malformed` for anything that is not one."""
    if len(text) > MAX_MESSAGE:
        raise _Malformed(f"a message has at most {MAX_MESSAGE} characters")
    try:
        msg = orjson.loads(text)  # the common case, several times faster
    except orjson.JSONDecodeError:
        msg = _parse_slowly(text)  # what orjson refuses and json takes (a lone surrogate)
    # Every bracket could open a level: count them (fast) before walking the value.
    if text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(msg):
        raise _Malformed(f"a message nests at most {MAX_DEPTH} levels deep")
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise _Malformed("a message is a JSON object with a 'type'")
    return msg


def _parse_slowly(text: str) -> Any:
    """A message's JSON with the standard library's parser (or :class:`_Malformed`)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise _Malformed(f"a message nests at most {MAX_DEPTH} levels deep") from None
    except ValueError:
        raise _Malformed("messages are JSON objects") from None


def _reply(conn: Conn, room: Room, e: ClientError, msg: dict[str, Any] | None) -> None:
    """Send a rejection to the client, in its language."""
    ref = msg.get("ref") if msg is not None else None
    out = error_message(e.code, e.text(conn.tr), room.table.version, ref, e.rule)
    out.update(e.extra)
    conn.send(out)


def _rate_limited(wait: float) -> ClientError:
    seconds = max(1, math.ceil(wait)) if math.isfinite(wait) else 3600
    return ClientError(
        "rate_limited",
        "Too fast: try again in {num} second",
        params={"num": seconds},
        plural="Too fast: try again in {num} seconds",
        extra={"retry_after": seconds},
    )


async def _handle(h: Hub, room: Room, conn: Conn, token: str | None, key: str, text: str) -> bool:
    """One client message; errors go back to the client and change nothing.  True when the
    message was malformed (which counts towards closing the connection)."""
    msg: dict[str, Any] | None = None
    try:
        wait = h.limits.messages.take(key)
        if wait > 0:
            raise _rate_limited(wait)
        msg = _parse(text)
        kind = msg["type"]
        if kind == "hello":
            version = msg.get("version")
            if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
                raise _Malformed("'version' must be a whole number")
            if not h.bus.owns(room.id):
                await room.catch_up()
            room.greet(conn, version, patches=msg.get("patches") is True)
        elif kind == "ping":
            conn.send({"type": "pong", "version": room.table.version})
        elif kind == "hint":
            wait = h.limits.hints.take(key)
            if wait > 0:
                raise _rate_limited(wait)
            async with h.limits.searches:
                conn.send({"type": "hint", **(await room.hint(conn))})
        elif kind in ("act", "sit", "leave", "replace"):
            name = ""
            if kind == "sit":
                if token is None:
                    raise ClientError("forbidden", "cookies are needed to take a seat")
                name = await _sit_name(h, conn, token, msg.get("name"))
            await h.submit(room, conn.player_id, name, msg)
        else:
            raise _Malformed(f"unknown message type {kind!r}")
    except ClientError as e:
        _reply(conn, room, e, msg)
        return e.code == "malformed"
    return False


async def _sit_name(h: Hub, conn: Conn, token: str, given: object) -> str:
    """The name a player sits down with (the one given, else the one they have), stored
    with the player; a refused name (an empty one too) raises ``invalid_name`` and stores
    nothing."""
    _pid, saved = await h.player(token)
    if given is None:
        name = saved or conn.tr.gettext("Player")
    else:
        try:
            name = normalize_name(given)
        except InvalidName as e:
            raise ClientError("invalid_name", e.message, params=e.params, plural=e.plural) from None
    if name != saved:
        await h.save_player(token, name)
    return name
