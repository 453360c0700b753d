"""The player's guide of each game: ``/rules/<game>?lang=<en|cs|ru>``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from cardtable.core.errors import UnknownGameError
from cardtable.games import get_game
from cardtable.server.guide import guide_page, missing_page
from cardtable.server.routes.web import remember, tr_of

__all__ = ["router"]

router = APIRouter()
"""The guide's route."""


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules(request: Request, game: str) -> HTMLResponse:
    """How to play ``game`` in the page's language (``?lang=`` chooses it); 404 for a game
    that is not registered or has no guide."""
    tr = tr_of(request)
    try:
        found = get_game(game)
    except UnknownGameError:
        html = missing_page(tr, tr.fmt("There is no game called {name}.", name=game))
        return HTMLResponse(html, status_code=404)
    page = guide_page(tr, found, request.query_params.get("lang"))
    if page is None:
        return HTMLResponse(missing_page(tr, tr.gettext("This game has no guide yet.")), 404)
    response = HTMLResponse(page)
    remember(request, response)
    return response
