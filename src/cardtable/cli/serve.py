"""``cardtable serve``: the web server (the tables in a browser)."""

from __future__ import annotations

import click

__all__ = ["serve"]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0.0, 10.0),
    default=None,
    help="Seconds a bot waits before playing (default 0.6; CARDTABLE_BOT_DELAY).",
)
@click.option("--log-level", default="warning", show_default=True, help="uvicorn's log level.")
def serve(host: str, port: int, bot_delay: float | None, log_level: str) -> None:
    """Serve the games in a browser: lobby, tables with friends and bots, replays.

    Records go to a SQLite file in ~/.local/share/cardtable (or CARDTABLE_DATA) unless DATABASE_URL
    names a PostgreSQL database; with REDIS_URL several processes share tables (see
    docs/server.md and docs/deploy.md).
    """
    import dataclasses

    import uvicorn

    from cardtable.server.app import create_app
    from cardtable.server.config import Settings

    settings = Settings.from_env()
    if bot_delay is not None:
        settings = dataclasses.replace(settings, bot_delay=bot_delay)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"cardtable is serving at http://{shown}:{port}/  (Ctrl+C stops it)")
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level=log_level,
        ws_per_message_deflate=False,
    )
