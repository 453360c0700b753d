"""One connected websocket client, as a room sees it: its player, language, seat and a
bounded outgoing queue.

The queue's policy (docs/server.md, *Load*) keeps a client that reads slowly, or never,
from holding the server's memory:

* One pump task per client sends the queued frames in order.
* **Views coalesce.**  A *view* is a ``state``, ``update`` or ``patch`` message: it carries
  the table's ``version`` and, for an ``update``/``patch``, the version it follows (its
  ``base``).  When a view is queued while an older one still waits unsent, or when it does
  not follow the last view this client was given, the waiting views are dropped and one
  *catch-up* takes their place: built only when the socket is ready for it, from the table
  as it is then, it is an ``update`` with the events since the last view the client was
  sent (or a full ``state`` if it was sent none).  The events the dropped views carried
  are in it; the views they carried are superseded by the newest one.  Further views
  while the catch-up waits cost nothing.  A slow client therefore holds at most one
  pending view, however busy its table.
* A ``pong`` waiting unsent is replaced by the newer one.
* Everything else (errors, hints) is queued.  When the frames waiting exceed
  ``max_frames`` or their characters exceed ``max_bytes`` (:class:`SendLimits`), the client
  is too far behind: its queue is dropped, nothing more is queued for it, and its socket
  is closed with code :data:`CLOSE_TOO_FAR_BEHIND` and a reason saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import orjson

from cardtable.server.i18n import Translator

__all__ = ["CLOSE_TOO_FAR_BEHIND", "Conn", "SendLimits", "dumps"]

CLOSE_TOO_FAR_BEHIND = 4008
"""The websocket close code of a client whose send queue overflowed."""


def dumps(message: dict[str, Any]) -> str:
    """A message as compact JSON text (UTF-8, not ASCII-escaped)."""
    return orjson.dumps(message).decode()


@dataclass(frozen=True, slots=True)
class SendLimits:
    """How far behind a client may fall before it is disconnected.

    ``max_frames``: frames waiting unsent (a coalesced view counts as one);
    ``max_bytes``: their total length in characters.  Read from
    ``CARDTABLE_SEND_QUEUE_FRAMES`` and ``CARDTABLE_SEND_QUEUE_BYTES`` by :meth:`from_env`.
    """

    max_frames: int = 256
    max_bytes: int = 1 << 20

    @classmethod
    def from_env(cls) -> SendLimits:
        """The limits from the environment (the defaults where a variable is unset)."""
        frames = os.environ.get("CARDTABLE_SEND_QUEUE_FRAMES") or ""
        size = os.environ.get("CARDTABLE_SEND_QUEUE_BYTES") or ""
        default = cls()
        return cls(
            max_frames=int(frames) if frames else default.max_frames,
            max_bytes=int(size) if size else default.max_bytes,
        )


CatchUp = Callable[[int | None], tuple[int, str] | None]
"""Builds a catch-up for a client that was last sent version ``since`` (``None``: no view):
the table's current version and the message's JSON text, or ``None`` when it cannot be built
yet (the table has a move that is not stored; the next view offered wakes it again)."""

_VIEW, _PONG, _OTHER, _CATCH_UP = range(4)


@dataclass(slots=True)
class _Frame:
    kind: int
    text: str
    version: int | None = None


class Conn:
    """One websocket client: its player, language, seat and outgoing queue.

    ``send`` writes one text frame; ``close`` (optional) closes the socket with a code and
    a reason.  Statistics for tests and the load figures: :attr:`queued_frames`,
    :attr:`queued_bytes`, their peaks :attr:`peak_frames` / :attr:`peak_bytes`,
    :attr:`offered` (views given to it), :attr:`coalesced` (views dropped for a catch-up) and
    :attr:`closed_reason`.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        player_id: str | None,
        tr: Translator,
        *,
        close: Callable[[int, str], Coroutine[Any, Any, None]] | None = None,
        limits: SendLimits | None = None,
    ) -> None:
        self._send = send
        self._close = close
        self.limits = limits or SendLimits()
        self.player_id = player_id
        self.tr = tr
        self.seat: int | None = None
        self.patches = False
        """True when the client applies ``patch`` messages (it said so in its ``hello``)."""
        self.greeted = False
        """True once the client said ``hello``: it is shown the table from then on (a view
        before it would only be repeated by the answer to the hello)."""
        self.shown: dict[str, Any] | None = None
        """The last full view queued for this client, as a snapshot (what a patch is
        against; see :func:`cardtable.server.messages.snapshot`)."""
        self._queue: deque[_Frame] = deque()
        self._wake = asyncio.Event()
        self._stopped = False
        self._catch_up: CatchUp | None = None
        self._asked: list[int | None] = []  # what the client said it has, in hellos meanwhile
        self.top: int | None = None
        """The version of the newest view queued for (or sent to) this client."""
        self.sent: int | None = None
        """The version of the newest view handed to the socket."""
        self.queued_bytes = 0
        self.peak_frames = 0
        self.peak_bytes = 0
        self.coalesced = 0
        self.offered = 0
        self.closed_reason: str | None = None

    @property
    def stopped(self) -> bool:
        """True once the client was closed or fell too far behind: nothing more is queued."""
        return self._stopped

    @property
    def queued_frames(self) -> int:
        """Frames waiting to be sent."""
        return len(self._queue)

    # -- queueing -------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        """Queue a message that is not a view (an error, a hint, a pong)."""
        self.send_text(dumps(message), pong=message.get("type") == "pong")

    def send_text(self, text: str, pong: bool = False) -> None:
        """Queue a frame that is not a view; a ``pong`` replaces an unsent older one."""
        if self._stopped:
            return
        if pong:
            for i, frame in enumerate(self._queue):
                if frame.kind == _PONG:
                    del self._queue[i]
                    self.queued_bytes -= len(frame.text)
                    break
        self._push(_Frame(_PONG if pong else _OTHER, text))

    def send_view(self, version: int, base: int | None, text: str, catch_up: CatchUp) -> bool:
        """Queue a view of ``version`` that follows ``base`` (``None``: it stands alone, like a
        ``state`` or a reply to ``hello``), or coalesce it (see the module's policy).

        True when ``text`` itself was queued; false when a catch-up (built by ``catch_up``
        when the socket is ready) takes its place, or the client is gone."""
        if self._stopped:
            return False
        self.offered += 1
        if base is not None and self.top is not None and base != self.top >= version:
            return False  # it already has this version (a catch-up built after the move)
        if not self.view_waiting and (base is None or base == self.top):
            self._push(_Frame(_VIEW, text, version))
            self.top = version
            return not self._stopped
        self.coalesce(catch_up)
        return False

    @property
    def view_waiting(self) -> bool:
        """True when a view (or a catch-up) waits unsent: a newer one would coalesce."""
        return self._catch_up is not None or any(f.kind == _VIEW for f in self._queue)

    def coalesce(self, catch_up: CatchUp, asked: bool = False, since: int | None = None) -> None:
        """Drop the views waiting unsent; the client gets one catch-up instead, built by
        ``catch_up`` when its socket is ready: everything since the last view it was sent,
        or since ``since`` when it ``asked`` (a ``hello``) from an earlier version (``None``:
        from nothing, a full ``state``)."""
        if self._stopped:
            return
        if asked:
            self.offered += 1
            self._asked.append(since)
        self.coalesced += 1
        if self._catch_up is not None:
            self._catch_up = catch_up
            self._wake.set()  # a catch-up put off for an unstored move may be built now
            return
        for frame in [f for f in self._queue if f.kind == _VIEW]:
            self._queue.remove(frame)
            self.queued_bytes -= len(frame.text)
            self.coalesced += 1
        self._catch_up = catch_up
        self._push(_Frame(_CATCH_UP, ""))

    def _push(self, frame: _Frame) -> None:
        self._queue.append(frame)
        self.queued_bytes += len(frame.text)
        self.peak_frames = max(self.peak_frames, len(self._queue))
        self.peak_bytes = max(self.peak_bytes, self.queued_bytes)
        if len(self._queue) > self.limits.max_frames or self.queued_bytes > self.limits.max_bytes:
            self._overflow()
            return
        self._wake.set()

    def _since_asked(self) -> int | None:
        """The version a catch-up starts from: the last view sent, or an earlier one a
        ``hello`` asked from (``None``: a full state)."""
        if None in self._asked:
            return None
        known = [v for v in (self.sent, *self._asked) if v is not None]
        return min(known) if known else None

    def _overflow(self) -> None:
        """Too far behind: drop the queue and close the socket with a reason."""
        reason = (
            f"too far behind: {len(self._queue)} messages ({self.queued_bytes} bytes) unsent;"
            " reconnect to resync"
        )
        self.closed_reason = reason
        self._drop()
        if self._close is not None:
            close = self._close
            task = asyncio.get_running_loop().create_task(close(CLOSE_TOO_FAR_BEHIND, reason))
            _keep(task)

    def _drop(self) -> None:
        self._stopped = True
        self._queue.clear()
        self.queued_bytes = 0
        self._catch_up = None
        self._wake.set()

    def close(self) -> None:
        """Queue nothing more: the pump sends what is queued, then stops."""
        self._stopped = True
        self._wake.set()

    # -- sending --------------------------------------------------------------------------
    async def pump(self) -> None:
        """Send queued frames in order until :meth:`close` (or an overflow)."""
        while True:
            while not self._queue:
                if self._stopped:
                    return
                self._wake.clear()
                await self._wake.wait()
            frame = self._queue.popleft()
            self.queued_bytes -= len(frame.text)
            text, version = frame.text, frame.version
            if frame.kind == _CATCH_UP:
                build = self._catch_up
                if build is None:
                    continue
                built = build(self._since_asked())
                if built is None:  # not yet: wait for the next view offered
                    self._queue.appendleft(frame)
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                self._catch_up = None
                self._asked = []
                version, text = built
                self.top = version
            try:
                await self._send(text)
            except Exception:
                if self._stopped:  # closed meanwhile (an overflow): nothing to report
                    return
                raise
            if version is not None:
                self.sent = version


_background: set[asyncio.Task[Any]] = set()


def _keep(task: asyncio.Task[Any]) -> None:
    """Hold a fire-and-forget task until it is done (and swallow its failure: the socket
    may already be gone)."""
    _background.add(task)

    def done(t: asyncio.Task[Any]) -> None:
        _background.discard(t)
        with contextlib.suppress(BaseException):
            t.exception()

    task.add_done_callback(done)
