"""A live table: the authoritative :class:`~cardtable.tables.Table` plus who sits where,
the connected clients, the bot driver and the move timer.

The table builds, seeds and steps the bots; the room only decides *when* one plays, runs
its search in a worker thread (so the event loop stays free) and applies the choice through
the table.  A room reaches the database and the other server processes only through the
narrow interfaces of :mod:`cardtable.server.ports`, handed to it by whoever creates it.
Every message a client gets is built for its seat alone (:mod:`cardtable.server.messages`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Coroutine, Sequence
from typing import Any

from cardtable.bots.hints import hint
from cardtable.core.errors import CardtableError
from cardtable.core.game import Event
from cardtable.core.registry import AnyGame
from cardtable.core.rng import derive_rng
from cardtable.core.seats import seat_name
from cardtable.server.conn import Conn, dumps
from cardtable.server.errors import ClientError, error_of
from cardtable.server.messages import (
    Moment,
    patch_message,
    shown_fields,
    snapshot,
    state_message,
    update_entries,
    view_fields,
)
from cardtable.server.ports import RoomBus, RoomStore
from cardtable.server.seats import Meta, fallback_level
from cardtable.server.store import ActionLine, TableRow
from cardtable.server.tasks import Tasks
from cardtable.tables.table import BotTurn, Table, TableUpdate

__all__ = ["HINT_BUDGET", "Room"]

log = logging.getLogger("cardtable.server")

HINT_BUDGET = 600
"""Simulations of a hint's search (well under a second on one core)."""


def _table_of(game: AnyGame, row: TableRow) -> Table:
    """The table a stored row describes, with its stored actions replayed."""
    table = Table(
        game,
        row.players,
        row.seed,
        seats=[str(s) for s in row.seats],
        options=row.options,
        scope="unit" if row.scope == "unit" else "match",
        start=row.start,
    )
    for line in row.actions:
        table.act(line.seat, line.action, table.version)
    return table


class Room:
    """One table being played (or finished and kept for watching and replays)."""

    def __init__(
        self,
        game: AnyGame,
        row: TableRow,
        store: RoomStore,
        bus: RoomBus,
        bot_delay: float = 0.0,
        leave_grace: float = 30.0,
    ) -> None:
        self.id = row.id
        self.game = game
        self.store = store
        self.bus = bus
        self.bot_delay = bot_delay
        self.leave_grace = leave_grace
        self.rated = row.rated
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.driver: asyncio.Task[None] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None
        self._tasks = Tasks(f"table {self.id}")
        self._legal: tuple[Any, int, list[tuple[str, Any]], dict[str, Any]] | None = None
        """The state the legal actions below are of, their seat, (text, action) pairs and
        the actions by text (:meth:`legal_texts`)."""
        self._restore(row)

    def _restore(self, row: TableRow) -> None:
        """Take the table, seats and status from a stored row."""
        self.storing = False
        self.table = _table_of(self.game, row)
        self.meta = Meta.from_json(row.meta)
        self.status = row.status
        self._sync_bots()

    # -- seats ----------------------------------------------------------------------------
    def _sync_bots(self) -> None:
        """Hand the table every seat the metadata gives to a bot."""
        for i, seat in enumerate(self.meta.seats):
            if seat.kind == "bot" and not self.table.seats[i].is_bot:
                self.table.replace_with_bot(i, seat.level or fallback_level(self.game))

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat a player owns here, if any."""
        if player_id is None:
            return None
        for i, seat in enumerate(self.meta.seats):
            if seat.kind == "human" and seat.owner == player_id:
                return i
        return None

    def connected(self, seat: int) -> bool:
        """True when the owner of ``seat`` has a client connected (to this process)."""
        owner = self.meta.seats[seat].owner
        return any(c.player_id == owner for c in self.conns if owner is not None)

    def legal_texts(self, seat: int) -> list[tuple[str, Any]]:
        """The legal actions of ``seat`` with their canonical texts, worked out once per
        state: the view sent to the player lists these texts, and the ``act`` that comes
        back with one of them finds its action here instead of parsing the text again (the
        table still checks that it is legal before applying it)."""
        state = self.table.state
        memo = self._legal
        if memo is None or memo[0] is not state or memo[1] != seat:
            pairs = [(self.game.format_action(a), a) for a in self.table.legal(seat)]
            memo = self._legal = (state, seat, pairs, dict(pairs))
        return memo[2]

    def _known_action(self, seat: int, text: str) -> Any:
        """The action ``text`` names if it is one of the texts :meth:`legal_texts` gave for
        ``seat`` in the current state, else the text itself (for the table to parse)."""
        memo = self._legal
        if memo is None or memo[0] is not self.table.state or memo[1] != seat:
            return text
        return memo[3].get(text, text)

    def remaining(self) -> float | None:
        """Seconds left on the move timer, if it runs."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - asyncio.get_running_loop().time())

    # -- clients --------------------------------------------------------------------------
    def join(self, conn: Conn) -> None:
        """A client connected: it sits where its player sits (or watches)."""
        conn.seat = self.seat_of(conn.player_id)
        self.conns.add(conn)
        if conn.seat is not None:
            self.meta.gone_since.pop(conn.seat, None)

    def part(self, conn: Conn) -> None:
        """A client went away; its seat counts as gone once no client of its owner is left."""
        self.conns.discard(conn)
        seat = self.seat_of(conn.player_id)
        if seat is not None and not self.connected(seat):
            self.meta.gone_since[seat] = asyncio.get_running_loop().time()
            self.refresh_all()

    def greet(self, conn: Conn, since: int | None, patches: bool = False) -> None:
        """Answer a client's ``hello``: the events since the version it saw (``since``) and
        a fresh view, or a full ``state`` when it saw none; ``patches``: it applies
        ``patch`` messages from now on."""
        conn.patches = patches
        conn.greeted = True
        conn.seat = self.seat_of(conn.player_id)
        catch_up = functools.partial(self._catch_up, conn)
        # Nothing to build now if it has not read the last view yet, or if the table has a
        # move that is not stored: the catch-up is built once the socket and the table are.
        if conn.view_waiting or self.storing:
            conn.coalesce(catch_up, asked=True, since=since)
            return
        msg = state_message(self, conn, since)
        fields = {k: v for k, v in msg.items() if k not in ("type", "events")}
        if conn.send_view(self.table.version, None, dumps(msg), catch_up):
            conn.shown = snapshot(fields)

    def _catch_up(self, conn: Conn, since: int | None) -> tuple[int, str] | None:
        """What a client that fell behind gets once its socket is ready (see
        :mod:`cardtable.server.conn`): the events since ``since`` and the view now; ``None``
        (not yet) while the table has a move that is not stored."""
        if self.storing:
            return None
        msg = state_message(self, conn, since)
        conn.shown = snapshot({k: v for k, v in msg.items() if k not in ("type", "events")})
        return self.table.version, dumps(msg)

    def broadcast(self, updates: Sequence[TableUpdate]) -> None:
        """Send each client its seat's share of some updates, and the new view."""
        if updates:
            self._fan_out(updates[0].version - 1, updates)

    def refresh_all(self) -> None:
        """Send every client a fresh view (after a seat change or a reload)."""
        for conn in self.conns:
            conn.seat = self.seat_of(conn.player_id)
        self._fan_out(self.table.version, ())

    def _fan_out(self, base: int, updates: Sequence[TableUpdate]) -> None:
        """Send every client that said ``hello`` the new view after ``updates`` (which
        follow version ``base``).

        Each message is built and serialized once per seat and language, not per socket; a
        client that applies patches and has the view of ``base`` gets only what changed,
        shared by every client that was shown the same view.
        """
        if not self.conns:
            return
        version = self.table.version
        moment = Moment(self)
        built: dict[tuple[int | None, str], tuple[list[dict[str, Any]], dict[str, Any]]] = {}
        texts: dict[tuple[int | None, str, int], str] = {}
        entries: dict[tuple[str, int, Event], dict[str, Any]] = {}
        for conn in list(self.conns):
            if not conn.greeted:  # its hello's answer will show it the table as it is then
                continue
            key = (conn.seat, conn.tr.lang)
            got = built.get(key)
            if got is None:
                events = update_entries(self.game, self.meta, updates, conn.seat, conn.tr, entries)
                got = built[key] = (events, snapshot(view_fields(self, conn, moment)))
            events, shot = got
            shown = conn.shown
            # The message for a client that was shown ``shown`` (id 0: a whole ``update``).
            patching = conn.patches and shown is not None and conn.top == base
            tkey = (conn.seat, conn.tr.lang, id(shown) if patching else 0)
            text = texts.get(tkey)
            if text is None:
                msg = patch_message(base, events, shown, shot) if shown and patching else None
                if msg is None:
                    msg = {"type": "update", "events": events, **shown_fields(shot)}
                text = texts[tkey] = dumps(msg)
            if conn.send_view(version, base, text, functools.partial(self._catch_up, conn)):
                conn.shown = shot

    # -- commands (run by the process that owns this table's writes) ----------------------
    async def execute(self, player_id: str | None, player_name: str, cmd: dict[str, Any]) -> None:
        """Run a client's command; raise :class:`ClientError` and change nothing if rejected."""
        kind = cmd.get("type")
        if kind in ("leave", "replace") and self.meta.daily is not None:
            raise ClientError("forbidden", "a daily challenge deal is played to its end")
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
        elif kind == "follow":
            await self._follow(player_id, cmd)
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
            other = seat_name(asked) if isinstance(asked, int) else repr(asked)
            raise ClientError("wrong_seat", f"you sit in {seat_name(seat)}, not {other}")
        if self.status != "playing":
            raise ClientError("not_your_turn", f"the game is {self.status}")
        await self.act(seat, action, version)

    async def act(self, seat: int, action: str, version: int) -> None:
        """Apply one action through the table, store it, then tell everyone."""
        async with self.lock:
            try:
                known = (
                    self._known_action(seat, action) if version == self.table.version else action
                )
                update = self.table.act(seat, known, version)
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
        status = self.status if self.status != "playing" else None
        self.storing = True  # the table is ahead of what is stored: show it to nobody yet
        try:
            await self.store.save_actions(
                self.id, lines, status, outcome.to_json() if outcome else None
            )
            self.storing = False
        except Exception:
            self.storing = False
            log.exception("table %s: storing actions failed; reloading", self.id)
            await self.reload()
            raise ClientError(
                "conflict", "the table changed meanwhile; here is its state"
            ) from None
        # Arm the move timer (or start the bots) before telling the clients, so the update
        # they receive already carries the new deadline.
        self.kick()
        self.broadcast(updates)
        await self.bus.publish_updates(self.id, updates)
        if outcome is not None and self.rated:
            ids = [
                s.owner if s.kind == "human" and s.owner else f"bot:{s.level}"
                for s in self.meta.seats
            ]
            await self.store.save_ratings(
                self.game.info.name, ids, self.game.sides(len(ids)), outcome
            )

    async def _sit(self, player_id: str | None, name: str, cmd: dict[str, Any]) -> None:
        seat = cmd.get("seat")
        if player_id is None:
            raise ClientError("forbidden", "cookies are needed to take a seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ClientError("malformed", "'seat' must be a seat number")
        if not 0 <= seat < len(self.meta.seats):
            raise ClientError("wrong_seat", f"there is no seat {seat_name(seat)}")
        if self.seat_of(player_id) is not None:
            raise ClientError("wrong_seat", "you already have a seat at this table")
        target = self.meta.seats[seat]
        if target.kind != "human" or target.owner is not None:
            raise ClientError("wrong_seat", f"{seat_name(seat)} is taken")
        if self.status != "playing":
            raise ClientError("invalid", f"the game is {self.status}")
        target.owner = player_id
        target.name = name
        await self.store.save_meta(self.id, self.meta.to_json(), seat_players={seat: player_id})
        self.after_meta()

    async def _follow(self, player_id: str | None, cmd: dict[str, Any]) -> None:
        """Point everyone at the table that follows this finished one (a rematch)."""
        table = cmd.get("table")
        if self.seat_of(player_id) is None:
            raise ClientError("wrong_seat", "only players at the table may do that")
        if not isinstance(table, str) or self.status == "playing":
            raise ClientError("invalid", "a table is followed by another once it is over")
        if self.meta.next is not None:
            return
        self.meta.next = table
        await self.store.save_meta(self.id, self.meta.to_json())
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
            raise ClientError("wrong_seat", f"{seat_name(seat)} is already a bot")
        if seat != mine and target.owner is not None:
            gone = self.meta.gone_since.get(seat)
            if self.connected(seat) or gone is None:
                raise ClientError("forbidden", f"{target.name} is still at the table")
            if asyncio.get_running_loop().time() - gone < self.leave_grace:
                raise ClientError("forbidden", f"{target.name} may still come back")
        await self._to_bot(seat)

    async def _to_bot(self, seat: int) -> None:
        if self.status != "playing":
            raise ClientError("invalid", f"the game is {self.status}")
        target = self.meta.seats[seat]
        target.kind, target.level = "bot", fallback_level(self.game)
        humans = [s for s in self.meta.seats if s.kind == "human" and s.owner is not None]
        if not humans:
            self.status = "abandoned"
        self._sync_bots()
        await self.store.save_meta(self.id, self.meta.to_json(), status=self.status)
        self.after_meta()

    def after_meta(self) -> None:
        """Tell clients (here and, through the bus, elsewhere) about a seat change."""
        self.refresh_all()
        self.kick()
        self.spawn(self.bus.publish_meta(self.id, self.meta.to_json(), self.status))

    # -- bots and the timer ---------------------------------------------------------------
    def kick(self) -> None:
        """Let bots play and arm the move timer, if this process owns the table."""
        if self.status != "playing" or not self.bus.owns(self.id):
            self._cancel_timer()
            return
        if self.table.bot_to_act():
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
        self.timer = loop.call_later(self.meta.timer, lambda: self.spawn(self._expire(version)))

    async def _expire(self, version: int) -> None:
        """The move timer ran out: a stand-in bot moves for the player to act."""
        if self.table.version != version or self.status != "playing" or self.table.is_over:
            return
        await self._bot_move(self.table.stand_in_turn(fallback_level(self.game)))
        self.kick()

    async def _drive(self) -> None:
        """Let the bots to act play, one after the other, until a person is to act."""
        while self.status == "playing" and self.bus.owns(self.id) and self.table.bot_to_act():
            version = self.table.version
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            if self.table.version != version or not self.table.bot_to_act():
                continue
            try:
                await self._bot_move(self.table.bot_turn())
            except ClientError:
                break
        self._arm_timer() if self.status == "playing" else self._cancel_timer()

    async def _bot_move(self, turn: BotTurn) -> None:
        """Run the bot's search in a worker thread, then apply it unless the table moved."""
        choice = await asyncio.to_thread(turn.choose)
        with contextlib.suppress(ClientError):
            async with self.lock:
                if self.table.version != turn.version:
                    return
                update = self.table.act(turn.seat, choice, turn.version)
                await self._commit([update])

    # -- hints ----------------------------------------------------------------------------
    async def hint(self, conn: Conn) -> dict[str, Any]:
        """The bots' suggestion for the client's seat (never in rated tables)."""
        if not self.meta.hints or self.rated:
            raise ClientError("forbidden", "hints are off at this table")
        seat = conn.seat
        if seat is None or self.table.to_act != seat:
            raise ClientError("not_your_turn", "a hint is for the player to act")
        view = self.table.view(seat)
        legal = list(self.table.legal(seat))
        rng = derive_rng(self.table.record.seed, "hint", seat, self.table.version)
        hints = await asyncio.to_thread(hint, self.game, view, legal, HINT_BUDGET, rng)
        best = hints[0]
        win = best.win_prob
        return {
            "action": self.game.format_action(best.action),
            "win_prob": win if isinstance(win, float) and win == win else None,
            "exact": best.exact,
            "points": round(best.expected_points) if best.exact else None,
        }

    # -- replicas and recovery ------------------------------------------------------------
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

    def apply_remote_meta(self, meta: dict[str, Any], status: str) -> None:
        """Take a seat change another process committed, and show it."""
        self.meta = Meta.from_json(meta)
        self.status = status
        self._sync_bots()
        self.refresh_all()

    async def catch_up(self) -> None:
        """Apply what other processes stored since this process last saw the table."""
        lines = await self.store.actions_since(self.id, self.table.version)
        row = await self.store.load(self.id, with_actions=False)
        if row is not None:
            self.meta = Meta.from_json(row.meta)
            self._sync_bots()
            if row.status != "playing":
                self.status = row.status
        updates = self.apply_remote(lines)
        if updates:
            self.broadcast(updates)
        else:
            self.refresh_all()

    async def reload(self) -> None:
        """Rebuild the table from storage (after a failed write) and resend its state."""
        row = await self.store.load(self.id)
        if row is None:
            return
        self._cancel_timer()
        self._restore(row)
        self.refresh_all()

    # -- life -----------------------------------------------------------------------------
    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a background task of this room and keep it until it is done."""
        self._tasks.spawn(coro)

    def close(self) -> None:
        """Stop the bot driver, the timer and the room's background tasks."""
        self._cancel_timer()
        if self.driver is not None:
            self.driver.cancel()
        self._tasks.cancel_all()
