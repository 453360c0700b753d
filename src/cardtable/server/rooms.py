"""A live table: the authoritative :class:`~cardtable.tables.Table` plus who sits where,
the connected clients, bots, the move timer and per-seat messages.

Every message a client gets is built for its seat alone: the seat's view, the events
redacted for it, and its legal actions when it is to act.  Spectators get the spectator
view.  Nothing here decides legality; the table does, and its errors go back to the client
unchanged in meaning.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardtable.bots.base import Bot, make_bot
from cardtable.core.errors import CardtableError, IllegalActionError, InvalidNotationError
from cardtable.core.game import Event
from cardtable.core.registry import AnyGame
from cardtable.core.rng import derive_rng
from cardtable.server.i18n import Translator
from cardtable.server.present import action_entry, describe_event, event_json
from cardtable.server.store import ActionLine, TableRow
from cardtable.tables.table import NotYourTurnError, StaleVersionError, Table, TableUpdate

if TYPE_CHECKING:
    from cardtable.server.hub import Hub

__all__ = ["ClientError", "Conn", "Room", "error_of"]

log = logging.getLogger("cardtable.server")

HINT_BUDGET = 600
"""Simulations of a hint's search (well under a second on one core)."""
LOG_TAIL = 200
"""How many past events a (re)connecting client gets when it has none of them."""


class ClientError(Exception):
    """A message rejected with a machine-readable ``code`` and a reason for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error_of(e: CardtableError) -> ClientError:
    """The client-facing error for an error raised by the table or the game."""
    if isinstance(e, StaleVersionError):
        return ClientError("stale_version", str(e))
    if isinstance(e, NotYourTurnError):
        return ClientError("not_your_turn", str(e))
    if isinstance(e, InvalidNotationError):
        return ClientError("invalid_notation", str(e))
    if isinstance(e, IllegalActionError):
        return ClientError("illegal", str(e))
    return ClientError("invalid", str(e))


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
        self.sent: list[str] = []
        self.keep_sent = False

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


@dataclass(slots=True)
class Seat:
    """Who sits in a seat: ``human`` (with its owner's player id once taken) or ``bot``."""

    kind: str
    name: str
    owner: str | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The seat as stored in the table's metadata."""
        return {"kind": self.kind, "name": self.name, "owner": self.owner, "level": self.level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """Read :meth:`to_json`."""
        return cls(data["kind"], data["name"], data.get("owner"), data.get("level"))


@dataclass(slots=True)
class Meta:
    """The server's part of a table: seats, timer, hints, and when owners were last seen."""

    seats: list[Seat]
    timer: float | None = None
    hints: bool = True
    unit: bool = False
    gone_since: dict[int, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The metadata as stored."""
        return {
            "seats": [s.to_json() for s in self.seats],
            "timer": self.timer,
            "hints": self.hints,
            "unit": self.unit,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meta:
        """Read :meth:`to_json`."""
        return cls(
            [Seat.from_json(s) for s in data["seats"]],
            data.get("timer"),
            bool(data.get("hints", True)),
            bool(data.get("unit", False)),
        )


def fallback_level(game: AnyGame) -> str:
    """The bot that takes over a seat: ``medium`` when it exists, else greedy or random."""
    from cardtable.bots.base import available_bots

    names = available_bots(game)
    for level in ("medium", "greedy", "random"):
        if level in names:
            return level
    return names[0]


def find_hint() -> Callable[..., Any] | None:
    """The bots' hint function (``cardtable.bots.hints.hint``), or ``None`` without one."""
    import importlib

    try:
        module = importlib.import_module("cardtable.bots.hints")
    except ImportError:
        return None
    fn = getattr(module, "hint", None)
    return fn if callable(fn) else None


class Room:
    """One table being played (or finished and kept for watching and replays)."""

    def __init__(self, hub: Hub, game: AnyGame, row: TableRow) -> None:
        self.hub = hub
        self.id = row.id
        self.game = game
        self.row = row
        self.meta = Meta.from_json(row.meta)
        self.rated = row.rated
        self.status = row.status
        specs = [str(s) for s in row.seats]
        self.table = Table(
            game,
            row.players,
            row.seed,
            seats=specs,
            options=row.options,
            scope="unit" if row.scope == "unit" else "match",
            start=row.start,
        )
        for line in row.actions:
            self.table.act(line.seat, line.action, self.table.version)
        self.bots: dict[int, Bot] = {}
        self._sync_bots()
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.driver: asyncio.Task[None] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None

    # -- seats ----------------------------------------------------------------------------
    def _sync_bots(self) -> None:
        for i, seat in enumerate(self.meta.seats):
            if seat.kind == "bot" and i not in self.bots:
                level = seat.level or fallback_level(self.game)
                self.bots[i] = make_bot(level, self.game)
                if not self.table.seats[i].is_bot:
                    self.table.replace_with_bot(i, level)

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat a player owns here, if any."""
        if player_id is None:
            return None
        for i, seat in enumerate(self.meta.seats):
            if seat.kind == "human" and seat.owner == player_id:
                return i
        return None

    def names(self, tr: Translator | None = None) -> list[str]:
        """Display names by seat (bots named by seat and level, localized with ``tr``)."""
        out = []
        for i, seat in enumerate(self.meta.seats):
            if seat.kind == "bot" and tr is not None:
                level = tr.gettext(f"level:{seat.level}")
                out.append(tr.fmt("Bot {n} ({level})", n=i + 1, level=level))
            else:
                out.append(seat.name)
        return out

    def connected(self, seat: int) -> bool:
        """True when the owner of ``seat`` has a client connected (to this process)."""
        owner = self.meta.seats[seat].owner
        return any(c.player_id == owner for c in self.conns if owner is not None)

    def seats_json(self, conn: Conn) -> list[dict[str, Any]]:
        """The seats as one client may see them (player ids stay private)."""
        out = []
        for i, seat in enumerate(self.meta.seats):
            out.append(
                {
                    "seat": i,
                    "kind": seat.kind,
                    "name": seat.name,
                    "level": seat.level,
                    "open": seat.kind == "human" and seat.owner is None,
                    "you": seat.owner is not None and seat.owner == conn.player_id,
                    "connected": seat.kind == "bot" or self.connected(i),
                }
            )
        return out

    # -- messages -------------------------------------------------------------------------
    def _hints_on(self) -> bool:
        return self.meta.hints and not self.rated and find_hint() is not None

    def _common(self, conn: Conn) -> dict[str, Any]:
        seat = conn.seat
        view = self.table.view(seat)
        view_json = self.game.view_to_json(view)
        legal: list[dict[str, Any]] = []
        if seat is not None and self.status == "playing" and self.table.to_act == seat:
            hand = view_json.get("hand") or []
            hand_tokens = [str(c) for c in hand] if isinstance(hand, list) else []
            legal = [
                action_entry(self.game.format_action(a), hand_tokens, conn.tr)
                for a in self.table.legal(seat)
            ]
        outcome = self.table.outcome()
        remaining = None
        if self.deadline is not None:
            remaining = max(0.0, self.deadline - asyncio.get_running_loop().time())
        return {
            "table": self.id,
            "game": self.game.info.name,
            "version": self.table.version,
            "seat": seat,
            "to_act": None if self.status != "playing" else self.table.to_act,
            "status": self.status,
            "view": view_json,
            "legal": legal,
            "seats": self.seats_json(conn),
            "outcome": None if outcome is None else outcome.to_json(),
            "timer": self.meta.timer,
            "remaining": remaining,
            "hints": self._hints_on(),
            "rated": self.rated,
        }

    def _events(self, conn: Conn, since: int) -> list[dict[str, Any]]:
        names = self.names(conn.tr)
        out = []
        for version, event in self.table.events_since(conn.seat, since):
            out.append(self._event_entry(version, event, names, conn.tr))
        return out

    @staticmethod
    def _event_entry(
        version: int, event: Event, names: Sequence[str], tr: Translator
    ) -> dict[str, Any]:
        return {"v": version, "text": describe_event(event, names, tr), "event": event_json(event)}

    def state_message(self, conn: Conn, since: int | None) -> dict[str, Any]:
        """A full message for a client that (re)connects having seen ``since`` (or nothing)."""
        if since is not None and 0 <= since <= self.table.version:
            msg = {"type": "update", "events": self._events(conn, since)}
        else:
            start = max(0, self.table.version - LOG_TAIL)
            msg = {"type": "state", "events": self._events(conn, start)}
        msg.update(self._common(conn))
        return msg

    def broadcast(self, updates: Sequence[TableUpdate]) -> None:
        """Send each client its seat's share of some updates, and the new view."""
        if not self.conns:
            return
        cache: dict[tuple[int | None, str], list[dict[str, Any]]] = {}
        for conn in list(self.conns):
            key = (conn.seat, conn.tr.lang)
            events = cache.get(key)
            if events is None:
                names = self.names(conn.tr)
                events = [
                    self._event_entry(u.version, self.game.redact(e, conn.seat), names, conn.tr)
                    for u in updates
                    for e in u.events
                ]
                cache[key] = events
            msg: dict[str, Any] = {"type": "update", "events": events}
            msg.update(self._common(conn))
            conn.send(msg)

    def refresh_all(self) -> None:
        """Send every client a fresh view (after a seat change or a reload)."""
        for conn in list(self.conns):
            conn.seat = self.seat_of(conn.player_id)
            msg: dict[str, Any] = {"type": "update", "events": []}
            msg.update(self._common(conn))
            conn.send(msg)

    # -- commands (run by the process that owns this table's writes) ----------------------
    async def execute(self, player_id: str | None, player_name: str, cmd: dict[str, Any]) -> None:
        """Run a client's command; raise :class:`ClientError` and change nothing if rejected."""
        kind = cmd.get("type")
        if kind == "act":
            await self._act_cmd(player_id, cmd)
        elif kind == "sit":
            await self._sit(player_id, player_name, cmd)
        elif kind == "leave":
            seat = self.seat_of(player_id)
            if seat is None:
                raise ClientError("wrong_seat", "you have no seat at this table")
            await self._to_bot(seat)
        elif kind == "replace":
            await self._replace(player_id, cmd)
        else:
            raise ClientError("malformed", f"unknown message type {kind!r}")

    async def _act_cmd(self, player_id: str | None, cmd: dict[str, Any]) -> None:
        action, version = cmd.get("action"), cmd.get("version")
        if not isinstance(action, str) or not action.strip() or len(action) > 200:
            raise ClientError("malformed", "'action' must be the text of an action")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ClientError("malformed", "'version' must be the table version you saw")
        seat = self.seat_of(player_id)
        if seat is None:
            raise ClientError("wrong_seat", "you have no seat at this table; you are watching")
        asked = cmd.get("seat", seat)
        if asked != seat:
            raise ClientError("wrong_seat", f"you sit in seat {seat}, not seat {asked}")
        if self.status != "playing":
            raise ClientError("not_your_turn", f"the game is {self.status}")
        await self.act(seat, action, version)

    async def act(self, seat: int, action: str, version: int) -> None:
        """Apply one action through the table, store it, then tell everyone."""
        async with self.lock:
            try:
                update = self.table.act(seat, action, version)
            except CardtableError as e:
                raise error_of(e) from None
            await self._commit([update])
        self.kick()

    async def _commit(self, updates: list[TableUpdate]) -> None:
        """Store applied updates (the optimistic version check), publish and broadcast."""
        outcome = self.table.outcome()
        if outcome is not None:
            self.status = "finished"
        lines = [ActionLine(u.version, u.seat, u.action) for u in updates]
        try:
            await self.hub.store_actions(self, lines, outcome.to_json() if outcome else None)
        except Exception:
            log.exception("table %s: storing actions failed; reloading", self.id)
            await self.hub.reload(self)
            raise ClientError(
                "conflict", "the table changed meanwhile; here is its state"
            ) from None
        # Arm the move timer (or start the bots) before telling the clients, so the update
        # they receive already carries the new deadline.
        self.kick()
        self.broadcast(updates)
        await self.hub.bus.publish_updates(self, updates)
        if outcome is not None:
            await self.hub.finished(self)

    async def _sit(self, player_id: str | None, name: str, cmd: dict[str, Any]) -> None:
        seat = cmd.get("seat")
        if player_id is None:
            raise ClientError("forbidden", "cookies are needed to take a seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ClientError("malformed", "'seat' must be a seat number")
        if not 0 <= seat < len(self.meta.seats):
            raise ClientError("wrong_seat", f"there is no seat {seat}")
        if self.seat_of(player_id) is not None:
            raise ClientError("wrong_seat", "you already have a seat at this table")
        target = self.meta.seats[seat]
        if target.kind != "human" or target.owner is not None:
            raise ClientError("wrong_seat", f"seat {seat} is taken")
        if self.status != "playing":
            raise ClientError("invalid", f"the game is {self.status}")
        target.owner = player_id
        target.name = name
        await self.hub.store_meta(self, seat_players={seat: player_id})
        self.after_meta()

    async def _replace(self, player_id: str | None, cmd: dict[str, Any]) -> None:
        seat = cmd.get("seat")
        mine = self.seat_of(player_id)
        if mine is None:
            raise ClientError("wrong_seat", "only players at the table may do that")
        if not isinstance(seat, int) or not 0 <= seat < len(self.meta.seats):
            raise ClientError("malformed", "'seat' must be a seat number")
        target = self.meta.seats[seat]
        if target.kind != "human":
            raise ClientError("wrong_seat", f"seat {seat} is already a bot")
        if seat != mine and target.owner is not None:
            loop = asyncio.get_running_loop()
            gone = self.meta.gone_since.get(seat)
            if self.connected(seat) or gone is None:
                raise ClientError("forbidden", f"{target.name} is still at the table")
            if loop.time() - gone < self.hub.settings.leave_grace:
                raise ClientError("forbidden", f"{target.name} may still come back")
        await self._to_bot(seat)

    async def _to_bot(self, seat: int) -> None:
        if self.status != "playing":
            raise ClientError("invalid", f"the game is {self.status}")
        level = fallback_level(self.game)
        target = self.meta.seats[seat]
        target.kind, target.level = "bot", level
        humans = [s for s in self.meta.seats if s.kind == "human" and s.owner is not None]
        if not humans:
            self.status = "abandoned"
        self._sync_bots()
        await self.hub.store_meta(self, status=self.status)
        self.after_meta()

    def after_meta(self) -> None:
        """Tell clients (here and, through the bus, elsewhere) about a seat change."""
        self.refresh_all()
        self.kick()
        self.hub.spawn(self.hub.bus.publish_meta(self))

    # -- bots and the timer ---------------------------------------------------------------
    def kick(self) -> None:
        """Let bots play and arm the move timer, if this process owns the table."""
        if self.status != "playing" or not self.hub.bus.owns(self):
            self._cancel_timer()
            return
        if self.table.to_act in self.bots:
            self._cancel_timer()
            if self.driver is None or self.driver.done():
                self.driver = asyncio.get_running_loop().create_task(self._drive())
            return
        self._arm_timer()

    def _cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.deadline = None

    def _arm_timer(self) -> None:
        self._cancel_timer()
        if not self.meta.timer or self.table.to_act is None:
            return
        loop = asyncio.get_running_loop()
        version = self.table.version
        self.deadline = loop.time() + self.meta.timer
        self.timer = loop.call_later(self.meta.timer, lambda: self.hub.spawn(self._expire(version)))

    async def _expire(self, version: int) -> None:
        seat = self.table.to_act
        if seat is None or self.table.version != version or self.status != "playing":
            return
        bot = make_bot(fallback_level(self.game), self.game)
        rng = derive_rng(self.table.record.seed, "timer", seat, version)
        await self._bot_move(seat, bot, rng, version)
        self.kick()

    async def _drive(self) -> None:
        delay = self.hub.settings.bot_delay
        while self.status == "playing" and self.hub.bus.owns(self):
            seat = self.table.to_act
            if seat is None or seat not in self.bots:
                break
            version = self.table.version
            if delay:
                await asyncio.sleep(delay)
            rng = derive_rng(self.table.record.seed, "bot", seat, version)
            try:
                await self._bot_move(seat, self.bots[seat], rng, version)
            except ClientError:
                break
        self._arm_timer() if self.status == "playing" else self._cancel_timer()

    async def _bot_move(self, seat: int, bot: Bot, rng: Any, version: int) -> None:
        view = self.table.view(seat)
        legal = list(self.table.legal(seat))
        if not legal:
            return
        choice = await asyncio.to_thread(bot.choose, view, legal, rng)
        with contextlib.suppress(ClientError):
            async with self.lock:
                if self.table.version != version:
                    return
                update = self.table.act(seat, choice, version)
                await self._commit([update])

    # -- hints ----------------------------------------------------------------------------
    async def hint(self, conn: Conn) -> dict[str, Any]:
        """The bots' suggestion for the client's seat (never in rated tables)."""
        fn = find_hint()
        if fn is None or not self.meta.hints or self.rated:
            raise ClientError("forbidden", "hints are off at this table")
        seat = conn.seat
        if seat is None or self.table.to_act != seat:
            raise ClientError("not_your_turn", "a hint is for the player to act")
        view = self.table.view(seat)
        legal = list(self.table.legal(seat))
        rng = derive_rng(self.table.record.seed, "hint", seat, self.table.version)
        hints = await asyncio.to_thread(fn, self.game, view, legal, HINT_BUDGET, rng)
        best = hints[0]
        win = getattr(best, "win_prob", None)
        return {
            "action": self.game.format_action(best.action),
            "win_prob": win if isinstance(win, float) and win == win else None,
        }

    # -- replicas -------------------------------------------------------------------------
    def apply_remote(self, lines: Sequence[ActionLine]) -> list[TableUpdate]:
        """Apply actions another process committed (in order, skipping ones already here)."""
        applied = []
        for line in lines:
            if line.version <= self.table.version:
                continue
            if line.version != self.table.version + 1:
                break
            applied.append(self.table.act(line.seat, line.action, self.table.version))
        if applied and self.table.is_over:
            self.status = "finished"
        return applied
