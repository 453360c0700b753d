"""Rematch: a finished table's players start the same game again (same seats, options and
settings, a new seed); everyone still at the old table, spectators included, moves there."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cardtable.server.errors import ClientError
from cardtable.server.routes.web import PLAYER_COOKIE, hub_of, tr_of

__all__ = ["router"]

router = APIRouter()
"""The rematch route."""


@router.post("/t/{table_id}/rematch")
async def rematch(request: Request, table_id: str) -> Response:
    """Start (or join) the rematch of a finished table and go there; any person seated at
    the table may ask, and asking twice gives the same new table."""
    h, tr = hub_of(request), tr_of(request)
    room = await h.get(table_id)
    if room is None:
        return HTMLResponse(f"<h1>{escape(tr.gettext('No such table'))}</h1>", 404)
    pid, _ = await h.player(request.cookies.get(PLAYER_COOKIE))
    try:
        new_id = await h.rematch(room, pid)
    except ClientError as e:
        text = escape(tr.gettext("error:" + e.code))
        return HTMLResponse(f"<h1>{text}</h1><p>{escape(e.message)}</p>", 403)
    return RedirectResponse(f"/t/{new_id}", status_code=303)
