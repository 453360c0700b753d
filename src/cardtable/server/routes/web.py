"""What every route needs from a request: the process's hub, the player's cookie and the
page language."""

from __future__ import annotations

import secrets

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from cardtable.server.daily import Daily
from cardtable.server.forms import NewTable
from cardtable.server.hub import Hub
from cardtable.server.i18n import LANGUAGES, Translator, negotiate, translator

__all__ = [
    "LANG_COOKIE",
    "PLAYER_COOKIE",
    "create_table",
    "daily_of",
    "hub_of",
    "lang_of",
    "remember",
    "tr_of",
]

PLAYER_COOKIE = "ct_player"
"""The cookie holding a player's secret token."""
LANG_COOKIE = "ct_lang"
"""The cookie holding the language a person chose."""


def hub_of(conn: HTTPConnection) -> Hub:
    """The hub of this process (set up by the application's lifespan)."""
    hub = conn.app.state.hub
    assert isinstance(hub, Hub), "the application has not started"
    return hub


def daily_of(conn: HTTPConnection) -> Daily:
    """The daily challenge of this process (set up with the hub)."""
    daily = conn.app.state.daily
    assert isinstance(daily, Daily), "the application has not started"
    return daily


def lang_of(conn: HTTPConnection) -> tuple[str, bool]:
    """The page language and whether it was chosen just now (to remember in a cookie)."""
    asked = conn.query_params.get("lang")
    if asked in LANGUAGES:
        return asked, True
    saved = conn.cookies.get(LANG_COOKIE)
    if saved in LANGUAGES:
        return saved, False
    return negotiate(conn.headers.get("accept-language")), False


def tr_of(conn: HTTPConnection) -> Translator:
    """The translator for the request's language."""
    return translator(lang_of(conn)[0])


def remember(request: Request, response: Response) -> str:
    """The player's token, set as a cookie when new (and the language, when just chosen)."""
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
            secure=hub_of(request).settings.secure_cookies,
        )
    lang, chosen = lang_of(request)
    if chosen:
        response.set_cookie(LANG_COOKIE, lang, max_age=3600 * 24 * 365, samesite="lax")
    return token


async def create_table(request: Request, response: Response, wanted: NewTable) -> tuple[str, str]:
    """Store a checked request's table, its creator (remembered on ``response``) in the first
    human seat: the table's id and the creator's player id."""
    pid = await hub_of(request).save_player(remember(request, response), wanted.name)
    room = await hub_of(request).create(
        wanted.game.info.name,
        wanted.players,
        wanted.options,
        wanted.seats,
        pid,
        wanted.name,
        rated=wanted.rated,
        timer=wanted.timer,
        hints=wanted.hints,
        unit=wanted.unit,
    )
    return room.id, pid
