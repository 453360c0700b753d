"""``cardtable serve``: the web server (the tables in a browser).

The address is checked before the URL is announced: a port that is taken (or an address
that cannot be listened on) ends with one line on stderr and exit status 2.
"""

from __future__ import annotations

import errno
import socket

import click

from cardtable.cli.common import FiniteRange, UserError

__all__ = ["LOG_LEVELS", "check_address", "serve"]

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""uvicorn's log levels."""


def check_address(host: str, port: int) -> None:
    """Raise :class:`UserError` unless a server could listen on ``host:port`` now.

    The check binds a socket the way uvicorn does (``SO_REUSEADDR``), so a port held only
    by connections closing down counts as free, and a port another server listens on does
    not.  Port 0 (any free port) is always fine.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise UserError(f"--host {host}: not an address to listen on ({e})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise UserError(
                    f"port {port} on {host} is already in use; choose another with --port"
                ) from None
            raise UserError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--bot-delay",
    type=FiniteRange(0.0, 10.0),
    default=None,
    help="Seconds a bot waits before playing (default 0.6; CARDTABLE_BOT_DELAY).",
)
@click.option(
    "--log-level",
    type=click.Choice(LOG_LEVELS, case_sensitive=False),
    default="warning",
    show_default=True,
    help="uvicorn's log level.",
)
def serve(host: str, port: int, bot_delay: float | None, log_level: str) -> None:
    """Serve the games in a browser: lobby, tables with friends and bots, replays.

    Records go to a SQLite file in ~/.local/share/cardtable (or CARDTABLE_DATA) unless DATABASE_URL
    names a PostgreSQL database; with REDIS_URL several processes share tables (see
    docs/server.md and docs/deploy.md).
    """
    import dataclasses

    import uvicorn

    from cardtable.server.app import create_app
    from cardtable.server.collector import Collector, CollectorPolicy
    from cardtable.server.config import Settings
    from cardtable.server.routes.websocket import MAX_FRAME_BYTES

    try:
        settings = Settings.from_env()
    except ValueError as e:
        raise UserError(f"environment: {e}") from None
    if bot_delay is not None:
        settings = dataclasses.replace(settings, bot_delay=bot_delay)
    check_address(host, port)
    try:
        policy = CollectorPolicy(settings.gc_interval, settings.gc_reclaim)
    except ValueError as e:
        raise UserError(f"CARDTABLE_GC_INTERVAL, CARDTABLE_GC_RECLAIM: {e}") from None
    # The collector's schedule (young collections every 50 ms, survivors frozen): Python's
    # own made second-long pauses under load (docs/server.md, Load).
    app = create_app(settings, Collector(policy))
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"cardtable is serving at http://{shown}:{port}/  (Ctrl+C stops it)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level.lower(),
        ws_per_message_deflate=False,
        # h11 for the HTTP side: httptools' protocol object is left in a reference cycle by
        # every websocket upgrade, garbage that only a full collection frees; with h11 a
        # connection leaves none, so the collector's rare reclaim is enough (collector.py).
        http="h11",
        ws_max_size=MAX_FRAME_BYTES,
    )
