"""What one process allows a client: rates of messages and hints, concurrent hint searches,
malformed messages, and the web origins whose pages may open a websocket.

Rates are token buckets (:class:`TokenBucket`): a bucket holds up to ``burst`` tokens, gains
``rate`` tokens a second, and each message takes one.  Message and hint buckets belong to a
player (their cookie), so every socket of one player draws on the same bucket; a client
without a cookie has a bucket per socket.  The buckets live in the process: with several
processes a player connected to two of them has a bucket in each.

>>> clock = [0.0]
>>> hints = Buckets(burst=2, rate=0.5, clock=lambda: clock[0])
>>> [hints.take("ann") for _ in range(3)]
[0.0, 0.0, 2.0]
>>> hints.take("bob")
0.0
>>> clock[0] = 2.0
>>> hints.take("ann")
0.0
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from cardtable.server.config import Settings

__all__ = ["Buckets", "Limits", "TokenBucket", "origin_allowed"]

_PRUNE_AT = 4096
"""Buckets kept before the full (idle) ones are dropped."""


class TokenBucket:
    """Up to ``burst`` tokens, refilled at ``rate`` tokens a second."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, burst: float, rate: float, now: float) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = burst
        self.stamp = now

    def _fill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float) -> float:
        """Take a token: ``0.0``, or (taking nothing) the seconds until one is there."""
        self._fill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else math.inf

    def full(self, now: float) -> bool:
        """True when the bucket is full (nobody used it lately)."""
        self._fill(now)
        return self.tokens >= self.burst


class Buckets:
    """A :class:`TokenBucket` per key (a player), made full on first use."""

    def __init__(
        self, burst: float, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> float:
        """Take one of ``key``'s tokens: ``0.0``, or the seconds until one is there."""
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= _PRUNE_AT:
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full(now)}
            bucket = self._buckets[key] = TokenBucket(self.burst, self.rate, now)
        return bucket.take(now)

    def __len__(self) -> int:
        return len(self._buckets)


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """May a page of ``origin`` (the ``Origin`` header) open a websocket to ``host`` (the
    ``Host`` header)?  Yes for the server's own origin (same host and port), for an origin in
    ``allowed`` (``*`` allows any) and for a client that sends no ``Origin`` (not a browser:
    browsers always send one).

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ())
    True
    >>> origin_allowed("https://evil.example", "cards.example.org", ())
    False
    >>> origin_allowed("https://app.example.org", "cards.example.org", ["https://app.example.org"])
    True
    """
    if origin is None or "*" in allowed:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in {a.lower() for a in allowed}:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or host is None:
        return False
    return _host_port(parts.netloc, parts.scheme) == _host_port(host.strip().lower(), parts.scheme)


def _host_port(netloc: str, scheme: str) -> str:
    """``host:port`` with the scheme's default port written out (IPv6 hosts in brackets)."""
    if netloc.endswith("]") or ":" not in netloc:
        return f"{netloc}:{443 if scheme == 'https' else 80}"
    return netloc


class Limits:
    """The limits of one server process (built from its :class:`Settings`)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.origins = settings.origins
        self.messages = Buckets(settings.message_burst, settings.message_rate, clock)
        self.hints = Buckets(settings.hint_burst, settings.hint_rate, clock)
        self.searches = asyncio.Semaphore(settings.hint_searches)
        self.malformed_limit = settings.malformed_limit
        self.clock = clock

    def strikes(self) -> TokenBucket:
        """A connection's allowance of malformed messages: ``malformed_limit`` a minute."""
        return TokenBucket(self.malformed_limit, self.malformed_limit / 60.0, self.clock())
