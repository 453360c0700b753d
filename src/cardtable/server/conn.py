"""One connected websocket client, as a room sees it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.server.i18n import Translator

__all__ = ["Conn"]


class Conn:
    """One websocket client: its player, language and an outgoing queue."""

    def __init__(
        self, send: Callable[[str], Awaitable[None]], player_id: str | None, tr: Translator
    ) -> None:
        self._send = send
        self.player_id = player_id
        self.tr = tr
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (sent in order by :meth:`pump`)."""
        self.queue.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    def close(self) -> None:
        """Stop the pump after the queued messages."""
        self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages until :meth:`close`."""
        while True:
            item = await self.queue.get()
            if item is None:
                return
            await self._send(item)
