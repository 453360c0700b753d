"""Background tasks that an owner (the hub, a room) keeps until they end, and cancels on
close; a task that fails is logged, never lost silently."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

__all__ = ["Tasks"]

log = logging.getLogger("cardtable.server")


class Tasks:
    """A set of running background tasks (asyncio keeps only weak references to them).

    >>> async def demo() -> int:
    ...     tasks = Tasks("demo")
    ...     tasks.spawn(asyncio.sleep(0))
    ...     running = len(tasks)
    ...     await asyncio.sleep(0.01)
    ...     return running * 10 + len(tasks)
    >>> asyncio.run(demo())
    10
    """

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self._tasks: set[asyncio.Task[Any]] = set()

    def __len__(self) -> int:
        return len(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a task and keep it until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def cancel_all(self) -> None:
        """Cancel every task still running."""
        for task in list(self._tasks):
            task.cancel()

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s: background task failed", self.owner, exc_info=task.exception())
