"""Rematch: a finished table's players start the same game again (same seats, options and
settings, a new seed); everyone still at the old table, spectators included, moves there."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cardtable.server.errors import ClientError
from cardtable.server.pages import message_page
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
        return HTMLResponse(message_page(tr, tr.gettext("No such table")), 404)
    pid, _ = await h.player(request.cookies.get(PLAYER_COOKIE))
    try:
        new_id = await h.rematch(room, pid)
    except ClientError as e:
        back = (f"/t/{table_id}", tr.gettext("Back to the table"))
        return HTMLResponse(
            message_page(
                tr, e.text(tr) if e.params is not None else tr.gettext("error:" + e.code), back
            ),
            403,
        )
    return RedirectResponse(f"/t/{new_id}", status_code=303)
