"""The ASGI application: pages, a small JSON API and one websocket per client.

The routes live in :mod:`cardtable.server.routes`; the websocket protocol is described in
:mod:`cardtable.server.routes.websocket`.  Every message carries the table's ``version``; a
client that reconnects with its last version receives the events it missed, redacted for its
seat, and a fresh view.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from cardtable.server.collector import Collector
from cardtable.server.config import Settings
from cardtable.server.daily import Daily, DailyConfig
from cardtable.server.hub import Hub
from cardtable.server.routes import api, daily, pages, players, rematch, rules, websocket

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).with_name("static")
"""The stylesheet, scripts and icons the pages load."""


def create_app(settings: Settings | None = None, collector: Collector | None = None) -> FastAPI:
    """The application; the hub (database, tables, bus) lives as long as the app runs.

    With ``collector`` (``cardtable serve`` passes one), the garbage collector runs on its
    schedule while the app serves: see :mod:`cardtable.server.collector`.
    """
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(settings)
        await hub.start()
        app.state.hub = hub
        app.state.daily = Daily(hub, DailyConfig.from_env())
        app.state.collector = collector
        pacing = None
        if collector is not None:
            collector.install(asyncio.get_running_loop().time())
            pacing = asyncio.create_task(collector.run())
        try:
            yield
        finally:
            if pacing is not None and collector is not None:
                pacing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pacing
                collector.uninstall()
            await hub.stop()

    app = FastAPI(title="cardtable", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for module in (pages, api, websocket, rules, daily, players, rematch):
        app.include_router(module.router)
    for status in (404, 405):
        app.add_exception_handler(status, pages.not_found)
    return app
