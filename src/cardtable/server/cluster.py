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
* When an owner dies, another process takes its tables over, with no command needed
  (:meth:`RedisBus._watch`): every second each process looks up the owners of the tables it
  holds a replica of, and a table whose owner has no subscriber on its command channel two
  looks in a row (the connection of a killed process closes at once) or whose lease expired
  (a hung process) is taken: the lease moves to this process (compare-and-set), it catches up
  from the database, its bots and timer resume, and every client of the table, on every
  process, gets a ``notice`` (``took_over``).  A command forwarded to an owner that is gone
  (nobody received it, or the owner vanished while it waited) takes the table over the same
  way and runs here, so the client never has to retry; a command the dead owner had already
  stored counts as done.  Every key and channel starts with the configured prefix
  (``CARDTABLE_REDIS_PREFIX``, ``ct``).
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

from cardtable.server.bus import TOOK_OVER, RoomDirectory, notify
from cardtable.server.errors import ClientError
from cardtable.server.room import Room
from cardtable.server.store import ActionLine
from cardtable.tables.table import TableUpdate

__all__ = ["RedisBus"]

log = logging.getLogger("cardtable.server")

LEASE_MS = 10_000
RENEW_S = 3.0
FORWARD_TIMEOUT_S = 10.0
WATCH_S = 1.0
"""How often a process looks for tables whose owner is gone."""
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
_TAKE = """
local holder = redis.call('get', KEYS[1])
if (not holder) or holder == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""
"""Move a lease from a process that is gone (``ARGV[1]``) or from nobody to ``ARGV[2]``."""


class RedisBus:
    """The bus of one process among several (see the module's description)."""

    def __init__(self, url: str, prefix: str = "ct") -> None:
        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=True)
        self.prefix = prefix
        self.events = f"{prefix}:events"
        self.proc = secrets.token_hex(8)
        self.owned: dict[str, float] = {}
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.suspects: set[str] = set()
        """Owners seen without a subscriber at the last look (gone if so again)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._rooms: RoomDirectory | None = None
        self._pubsub: Any = None

    def _owner_key(self, table_id: str) -> str:
        return f"{self.prefix}:owner:{table_id}"

    def _cmd_channel(self, proc: str) -> str:
        return f"{self.prefix}:cmd:{proc}"

    def _reply_channel(self, proc: str) -> str:
        return f"{self.prefix}:reply:{proc}"

    @property
    def rooms(self) -> RoomDirectory:
        """The rooms of the process this bus serves."""
        assert self._rooms is not None, "the bus has not been started"
        return self._rooms

    async def start(self, rooms: RoomDirectory) -> None:
        """Subscribe to the shared channels, start renewing leases and watching owners."""
        self._rooms = rooms
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(
            self.events, self._cmd_channel(self.proc), self._reply_channel(self.proc)
        )
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._renew()),
            loop.create_task(self._watch()),
        ]

    async def close(self) -> None:
        """Give up every lease and disconnect."""
        for task in self._tasks:
            task.cancel()
        for table_id in list(self.owned):
            with contextlib.suppress(Exception):
                await self.redis.eval(_RELEASE, 1, self._owner_key(table_id), self.proc)
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

    def _hold(self, table_id: str) -> None:
        self.owned[table_id] = asyncio.get_running_loop().time() + LEASE_MS / 1000 * 0.8

    async def acquire(self, room: Room) -> bool:
        """Take the lease if it is free (then catch up from the database)."""
        if self.owns(room.id):
            return True
        key = self._owner_key(room.id)
        got = await self.redis.set(key, self.proc, nx=True, px=LEASE_MS)
        if not got:
            holder = await self.redis.get(key)
            if holder != self.proc:
                return False
        self._hold(room.id)
        await room.catch_up()
        room.kick()
        return True

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_S)
            loop = asyncio.get_running_loop()
            for table_id in list(self.owned):
                room = self.rooms.live(table_id)
                key = self._owner_key(table_id)
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

    # -- failover -------------------------------------------------------------------------
    async def _alive(self, proc: str) -> bool:
        """True while ``proc`` listens for commands (a killed process's connection closes)."""
        counts = await self.redis.pubsub_numsub(self._cmd_channel(proc))
        return bool(counts and int(counts[0][1]) > 0)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(WATCH_S)
            try:
                await self.watch_once()
            except Exception:
                log.exception("looking for tables whose server is gone failed")

    async def watch_once(self) -> None:
        """Take over every table held here as a replica whose owner is gone (see the module)."""
        ids = []
        for table_id in self.rooms.live_ids():
            room = self.rooms.live(table_id)
            if room is not None and room.status == "playing" and not self.owns(table_id):
                ids.append(table_id)
        holders: list[str | None] = []
        for i in range(0, len(ids), 500):
            found = await self.redis.mget([self._owner_key(t) for t in ids[i : i + 500]])
            holders += [_text(h) for h in found]
        gone = set()
        for proc in {h for h in holders if h is not None and h != self.proc}:
            if not await self._alive(proc):
                gone.add(proc)
        confirmed, self.suspects = gone & self.suspects, gone
        for table_id, holder in zip(ids, holders, strict=True):
            if holder is None or holder in confirmed:
                await self._take_over(table_id, holder)

    async def _take_over(self, table_id: str, gone: str | None) -> bool:
        """Become the writer of a table whose owner (``gone``, or nobody) is gone: catch up,
        resume its bots and timer, and tell its clients on every process."""
        room = await self.rooms.get(table_id)
        if room is None:
            return False
        taken = await self.redis.eval(
            _TAKE, 1, self._owner_key(table_id), gone or "", self.proc, LEASE_MS
        )
        if not taken:
            return False
        self._hold(table_id)
        log.warning("table %s: took over from server %s", table_id, gone or "(none)")
        await room.catch_up()
        room.kick()
        notify(room, "took_over", TOOK_OVER)
        message = {"proc": self.proc, "room": table_id, "kind": "owner"}
        await self.redis.publish(self.events, json.dumps(message))
        return True

    # -- commands -------------------------------------------------------------------------
    async def forward(self, room: Room, player: str | None, name: str, cmd: dict[str, Any]) -> None:
        """Run a command at the owner and wait for its answer; when the owner is gone, take
        the table over and run the command here."""
        for _attempt in range(3):
            owner = _text(await self.redis.get(self._owner_key(room.id)))
            if owner is None or owner == self.proc:
                if await self.acquire(room):
                    await room.execute(player, name, cmd)
                    return
                continue
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
                heard = await self.redis.publish(self._cmd_channel(owner), json.dumps(message))
                answer = await self._answer(future, owner) if heard else None
            finally:
                self.pending.pop(request, None)
            if answer is None:  # the owner is gone, perhaps with the command
                if await self._take_over(room.id, owner):
                    await self._run_here(room, player, name, cmd, sent=bool(heard))
                    return
                continue
            error = answer.get("error")
            if error:
                raise ClientError.from_json(error)
            return
        raise ClientError("conflict", "the table's server did not answer; try again")

    async def _answer(
        self, future: asyncio.Future[dict[str, Any]], owner: str
    ) -> dict[str, Any] | None:
        """The owner's answer, or ``None`` when the owner went away meanwhile."""
        waited = 0.0
        while waited < FORWARD_TIMEOUT_S:
            try:
                return await asyncio.wait_for(asyncio.shield(future), WATCH_S)
            except TimeoutError:
                waited += WATCH_S
            if not await self._alive(owner):
                return None
        raise ClientError("conflict", "the table's server did not answer; try again")

    async def _run_here(
        self, room: Room, player: str | None, name: str, cmd: dict[str, Any], sent: bool
    ) -> None:
        """Run a command after taking the table over; if it had reached the owner that is
        gone, what that owner stored already counts (the move is not made twice)."""
        try:
            await room.execute(player, name, cmd)
        except ClientError:
            if not (sent and _done_already(room, player, cmd)):
                raise
            log.info("table %s: the gone server had already run %s", room.id, cmd.get("type"))

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
            answer["error"] = e.to_json()
        except Exception as e:  # an unexpected failure still answers
            log.exception("forwarded command failed")
            answer["error"] = {"code": "conflict", "message": str(e)}
        await self.redis.publish(self._reply_channel(str(message["reply"])), json.dumps(answer))

    # -- fan-out --------------------------------------------------------------------------
    async def publish_updates(self, table_id: str, updates: Sequence[TableUpdate]) -> None:
        """Send committed action lines to the other processes."""
        lines = [[u.version, u.seat, u.action] for u in updates]
        message = {"proc": self.proc, "room": table_id, "kind": "actions", "lines": lines}
        await self.redis.publish(self.events, json.dumps(message))

    async def publish_meta(self, table_id: str, meta: dict[str, Any], status: str) -> None:
        """Send a seat change to the other processes."""
        message = {
            "proc": self.proc,
            "room": table_id,
            "kind": "meta",
            "meta": meta,
            "status": status,
        }
        await self.redis.publish(self.events, json.dumps(message))

    async def _listen(self) -> None:
        async for item in self._pubsub.listen():
            if item.get("type") != "message":
                continue
            try:
                data = json.loads(item["data"])
                channel = item["channel"]
                if channel == self.events:
                    await self._on_event(data)
                elif channel == self._cmd_channel(self.proc):
                    self.rooms.spawn(self._run_forwarded(data))
                elif channel == self._reply_channel(self.proc):
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
        elif data["kind"] == "owner":
            # Another process took the table over: it is not ours (if we thought so), and
            # what the one that is gone stored but never published is in the database.
            self.owned.pop(room.id, None)
            await room.catch_up()
            notify(room, "took_over", TOOK_OVER)


def _text(value: str | bytes | None) -> str | None:
    """A Redis reply as text (the client decodes, but its types do not say so)."""
    return value.decode() if isinstance(value, bytes) else value


def _done_already(room: Room, player: str | None, cmd: dict[str, Any]) -> bool:
    """True when the table shows the effect of ``cmd`` (the gone owner ran it)."""
    seat = room.seat_of(player)
    kind = cmd.get("type")
    if kind == "act":
        version = cmd.get("version")
        if seat is None or not isinstance(version, int) or isinstance(version, bool):
            return False
        return any(u.version == version + 1 and u.seat == seat for u in room.table.log)
    if kind == "sit":
        return seat is not None and seat == cmd.get("seat")
    if kind == "leave":
        return seat is None
    return False
