"""Server settings, read from the environment with defaults that need no configuration."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

__all__ = ["Settings", "data_dir", "normalise_database_url"]


def normalise_database_url(url: str) -> str:
    """SQLAlchemy's URL for ``url`` (``postgres://`` and ``postgresql://`` use psycopg 3)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def data_dir() -> Path:
    """Where the default SQLite file lives: ``CARDTABLE_DATA``, else the XDG data directory
    (``~/.local/share/cardtable``)."""
    if os.environ.get("CARDTABLE_DATA"):
        return Path(os.environ["CARDTABLE_DATA"])
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "cardtable"


def _default_database_url() -> str:
    data = data_dir()
    data.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data / 'cardtable.sqlite3'}"


_N = TypeVar("_N", int, float)


def _number_env(name: str, parse: Callable[[str], _N], default: _N, what: str) -> _N:
    """The environment variable ``name`` read by ``parse`` (``default`` when unset or
    empty); a value it refuses is a :class:`ValueError` that names the variable."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return parse(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not {what}") from None


def _float_env(name: str, default: float) -> float:
    return _number_env(name, float, default, "a number")


def _int_env(name: str, default: int) -> int:
    return _number_env(name, int, default, "a whole number")


def _origins(raw: str) -> tuple[str, ...]:
    """The origins of ``CARDTABLE_ORIGINS`` (comma- or space-separated), without trailing
    slashes; ``*`` allows any."""
    return tuple(o.strip().rstrip("/") for o in raw.replace(",", " ").split() if o.strip())


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server process runs.

    ``database_url``: SQLite file by default (``cardtable.sqlite3`` in :func:`data_dir`),
    PostgreSQL when ``DATABASE_URL`` is set.  ``redis_url``: set to
    share tables between several processes.  ``bot_delay``: seconds a bot waits before it
    plays, so people can follow.  ``leave_grace``: seconds a disconnected player keeps a seat
    before the others may hand it to a bot.

    The limits (see docs/server.md, "Limits and policies"): ``origins`` are the web origins
    (``https://cards.example.org``) whose pages may open a websocket besides the server's own
    (``*``: any); ``message_rate``/``message_burst`` the messages a player may send per second
    and at once, over all their sockets; ``hint_rate``/``hint_burst`` the same for hints;
    ``hint_searches`` how many hint searches a process runs at the same time;
    ``malformed_limit`` how many malformed messages a connection may send per minute before it
    is closed.  ``redis_prefix`` starts every Redis key and channel, so that separate
    deployments (or tests) can share one Redis.  ``commit_delay``: seconds the database
    writer of a busy process waits for more writes before it commits (group commit; see
    :class:`~cardtable.server.store.Writer`), 0 to commit at once.  ``gc_interval`` and
    ``gc_reclaim``: the garbage collector's schedule under ``cardtable serve`` (seconds
    between young collections and between reclaims; see :mod:`cardtable.server.collector`).
    """

    database_url: str = field(default_factory=_default_database_url)
    redis_url: str | None = None
    bot_delay: float = 0.6
    leave_grace: float = 30.0
    secure_cookies: bool = False
    origins: tuple[str, ...] = ()
    message_rate: float = 20.0
    message_burst: float = 60.0
    hint_rate: float = 0.1
    hint_burst: float = 3.0
    hint_searches: int = 1
    malformed_limit: int = 20
    redis_prefix: str = "ct"
    commit_delay: float = 0.003
    gc_interval: float = 0.05
    gc_reclaim: float = 1800.0

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from ``DATABASE_URL``, ``REDIS_URL`` and ``CARDTABLE_*`` variables."""
        url = os.environ.get("DATABASE_URL")
        return cls(
            database_url=normalise_database_url(url) if url else _default_database_url(),
            redis_url=os.environ.get("REDIS_URL") or None,
            bot_delay=_float_env("CARDTABLE_BOT_DELAY", 0.6),
            leave_grace=_float_env("CARDTABLE_LEAVE_GRACE", 30.0),
            secure_cookies=os.environ.get("CARDTABLE_SECURE_COOKIES", "") == "1",
            origins=_origins(os.environ.get("CARDTABLE_ORIGINS", "")),
            message_rate=_float_env("CARDTABLE_MESSAGE_RATE", 20.0),
            message_burst=_float_env("CARDTABLE_MESSAGE_BURST", 60.0),
            hint_rate=_float_env("CARDTABLE_HINT_RATE", 0.1),
            hint_burst=_float_env("CARDTABLE_HINT_BURST", 3.0),
            hint_searches=max(1, _int_env("CARDTABLE_HINT_SEARCHES", 1)),
            malformed_limit=max(1, _int_env("CARDTABLE_MALFORMED_LIMIT", 20)),
            redis_prefix=os.environ.get("CARDTABLE_REDIS_PREFIX") or "ct",
            commit_delay=max(0.0, min(0.1, _float_env("CARDTABLE_COMMIT_DELAY", 0.003))),
            gc_interval=_float_env("CARDTABLE_GC_INTERVAL", 0.05),
            gc_reclaim=_float_env("CARDTABLE_GC_RECLAIM", 1800.0),
        )
