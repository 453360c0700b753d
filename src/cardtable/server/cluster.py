"""Several server processes sharing tables through Redis.

* One process at a time writes a table: it holds a lease, the Redis key
  ``ct:owner:<table>`` (``SET NX PX``, renewed every few seconds).  Its writes also pass the
  optimistic version check in the database, so even a process that lost its lease without
  noticing cannot write a second action at the same version.
* Commands from clients connected elsewhere are forwarded to the owner over the channel
  ``ct:cmd:<process>``; the answer (done, or the error) comes back on ``ct:reply:<process>``.
* Committed actions fan out on ``ct:events`` as action lines; every process applies them to
  its own replica :class:`~cardtable.tables.Table` and sends its clients their seat's share.
  A process that notices a gap (or a client that reconnects) fills it from the database.
* When an owner dies, its leases expire and the next command for the table makes another
  process the owner; it first catches up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis

from cardtable.server.bus import RoomDirectory
from cardtable.server.errors import ClientError
from cardtable.server.room import Room
from cardtable.server.store import ActionLine
from cardtable.tables.table import TableUpdate

__all__ = ["RedisBus"]

log = logging.getLogger("cardtable.server")

EVENTS = "ct:events"
LEASE_MS = 10_000
RENEW_S = 3.0
FORWARD_TIMEOUT_S = 10.0
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def _owner_key(table_id: str) -> str:
    return f"ct:owner:{table_id}"


class RedisBus:
    """The bus of one process among several (see the module's description)."""

    def __init__(self, url: str) -> None:
        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=True)
        self.proc = secrets.token_hex(8)
        self.owned: dict[str, float] = {}
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._rooms: RoomDirectory | None = None
        self._pubsub: Any = None

    @property
    def rooms(self) -> RoomDirectory:
        """The rooms of the process this bus serves."""
        assert self._rooms is not None, "the bus has not been started"
        return self._rooms

    async def start(self, rooms: RoomDirectory) -> None:
        """Subscribe to the shared channels and start renewing leases."""
        self._rooms = rooms
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(EVENTS, f"ct:cmd:{self.proc}", f"ct:reply:{self.proc}")
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._renew())]

    async def close(self) -> None:
        """Give up every lease and disconnect."""
        for task in self._tasks:
            task.cancel()
        for table_id in list(self.owned):
            with contextlib.suppress(Exception):
                await self.redis.eval(_RELEASE, 1, _owner_key(table_id), self.proc)
        self.owned.clear()
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        await self.redis.aclose()

    # -- ownership ------------------------------------------------------------------------
    def owns(self, table_id: str) -> bool:
        """True while this process holds the table's lease."""
        expiry = self.owned.get(table_id)
        return expiry is not None and expiry > asyncio.get_running_loop().time()

    async def acquire(self, room: Room) -> bool:
        """Take the lease if it is free (then catch up from the database)."""
        if self.owns(room.id):
            return True
        got = await self.redis.set(_owner_key(room.id), self.proc, nx=True, px=LEASE_MS)
        if not got:
            holder = await self.redis.get(_owner_key(room.id))
            if holder != self.proc:
                return False
        self.owned[room.id] = asyncio.get_running_loop().time() + LEASE_MS / 1000 * 0.8
        await room.catch_up()
        room.kick()
        return True

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_S)
            loop = asyncio.get_running_loop()
            for table_id in list(self.owned):
                room = self.rooms.live(table_id)
                key = _owner_key(table_id)
                try:
                    if room is None or room.status != "playing":
                        await self.redis.eval(_RELEASE, 1, key, self.proc)
                        self.owned.pop(table_id, None)
                        continue
                    kept = await self.redis.eval(_RENEW, 1, key, self.proc, LEASE_MS)
                except Exception:
                    log.exception("renewing the lease of table %s failed", table_id)
                    continue
                if kept:
                    self.owned[table_id] = loop.time() + LEASE_MS / 1000 * 0.8
                else:
                    self.owned.pop(table_id, None)

    # -- commands -------------------------------------------------------------------------
    async def forward(self, room: Room, player: str | None, name: str, cmd: dict[str, Any]) -> None:
        """Run a command at the owner and wait for its answer."""
        owner = await self.redis.get(_owner_key(room.id))
        if owner is None:
            if await self.acquire(room):
                await room.execute(player, name, cmd)
                return
            owner = await self.redis.get(_owner_key(room.id))
        if isinstance(owner, bytes):
            owner = owner.decode()
        request = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[request] = future
        message = {
            "id": request,
            "reply": self.proc,
            "room": room.id,
            "player": player,
            "name": name,
            "cmd": cmd,
        }
        try:
            await self.redis.publish(f"ct:cmd:{owner}", json.dumps(message))
            answer = await asyncio.wait_for(future, FORWARD_TIMEOUT_S)
        except TimeoutError:
            raise ClientError("conflict", "the table's server did not answer; try again") from None
        finally:
            self.pending.pop(request, None)
        error = answer.get("error")
        if error:
            raise ClientError(str(error["code"]), str(error["message"]), str(error.get("rule", "")))

    async def _run_forwarded(self, message: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"id": message["id"], "error": None}
        try:
            room = await self.rooms.get(str(message["room"]))
            if room is None:
                raise ClientError("not_found", "no such table")
            if not await self.acquire(room):
                raise ClientError("conflict", "this process no longer writes that table")
            await room.execute(message.get("player"), str(message.get("name", "")), message["cmd"])
        except ClientError as e:
            answer["error"] = {"code": e.code, "message": e.message, "rule": e.rule}
        except Exception as e:  # an unexpected failure still answers
            log.exception("forwarded command failed")
            answer["error"] = {"code": "conflict", "message": str(e)}
        await self.redis.publish(f"ct:reply:{message['reply']}", json.dumps(answer))

    # -- fan-out --------------------------------------------------------------------------
    async def publish_updates(self, table_id: str, updates: Sequence[TableUpdate]) -> None:
        """Send committed action lines to the other processes."""
        lines = [[u.version, u.seat, u.action] for u in updates]
        message = {"proc": self.proc, "room": table_id, "kind": "actions", "lines": lines}
        await self.redis.publish(EVENTS, json.dumps(message))

    async def publish_meta(self, table_id: str, meta: dict[str, Any], status: str) -> None:
        """Send a seat change to the other processes."""
        message = {
            "proc": self.proc,
            "room": table_id,
            "kind": "meta",
            "meta": meta,
            "status": status,
        }
        await self.redis.publish(EVENTS, json.dumps(message))

    async def _listen(self) -> None:
        async for item in self._pubsub.listen():
            if item.get("type") != "message":
                continue
            try:
                data = json.loads(item["data"])
                channel = item["channel"]
                if channel == EVENTS:
                    await self._on_event(data)
                elif channel.startswith("ct:cmd:"):
                    self.rooms.spawn(self._run_forwarded(data))
                elif channel.startswith("ct:reply:"):
                    future = self.pending.get(data.get("id"))
                    if future is not None and not future.done():
                        future.set_result(data)
            except Exception:
                log.exception("bad bus message")

    async def _on_event(self, data: dict[str, Any]) -> None:
        if data.get("proc") == self.proc:
            return
        room = self.rooms.live(str(data.get("room")))
        if room is None:
            return
        if data["kind"] == "actions":
            lines = [ActionLine(int(v), int(s), str(a)) for v, s, a in data["lines"]]
            if lines and lines[0].version > room.table.version + 1:
                await room.catch_up()
                return
            updates = room.apply_remote(lines)
            if updates:
                room.broadcast(updates)
        elif data["kind"] == "meta":
            room.apply_remote_meta(data["meta"], str(data.get("status", room.status)))
