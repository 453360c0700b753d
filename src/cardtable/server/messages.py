"""The JSON messages a client receives, each built for one seat (or a spectator).

A message carries the seat's view, the events redacted for it, its legal actions when it is
to act, the seats and the table's ``version``.  Nothing here decides legality or changes a
table; :class:`~cardtable.server.room.Room` sends what these functions build.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import orjson

from cardtable.core.game import Event
from cardtable.core.record import Record, replay
from cardtable.core.registry import AnyGame
from cardtable.server.conn import Conn
from cardtable.server.i18n import Translator
from cardtable.server.present import action_entry, action_label, log_entry
from cardtable.server.seats import Meta
from cardtable.tables.table import Table, TableUpdate

__all__ = [
    "LOG_TAIL",
    "Moment",
    "Shown",
    "error_message",
    "event_entry",
    "patch_message",
    "replay_steps",
    "seat_names",
    "seats_json",
    "shown_fields",
    "snapshot",
    "state_message",
    "update_entries",
    "update_message",
    "view_fields",
]

LOG_TAIL = 200
"""How many past events a (re)connecting client gets when it has none of them."""


class Shown(Protocol):
    """What the messages read from a live table (a :class:`~cardtable.server.room.Room`)."""

    @property
    def id(self) -> str:
        """The table's id."""
        ...

    @property
    def game(self) -> AnyGame:
        """The game played."""
        ...

    @property
    def table(self) -> Table:
        """The authoritative table."""
        ...

    @property
    def meta(self) -> Meta:
        """Seats, timer and hints."""
        ...

    @property
    def status(self) -> str:
        """``playing``, ``finished`` or ``abandoned``."""
        ...

    @property
    def rated(self) -> bool:
        """True for a rated table."""
        ...

    def connected(self, seat: int) -> bool:
        """True when the owner of ``seat`` has a client connected."""
        ...

    def legal_texts(self, seat: int) -> Sequence[tuple[str, Any]]:
        """The legal actions of ``seat`` with their texts (none when it is not to act)."""
        ...

    def remaining(self) -> float | None:
        """Seconds left on the move timer, if it runs."""
        ...


def seat_names(meta: Meta, tr: Translator | None = None) -> list[str]:
    """Display names by seat (bots named by seat and level, localized with ``tr``)."""
    out = []
    for i, seat in enumerate(meta.seats):
        if seat.kind == "bot" and tr is not None:
            level = tr.gettext(f"level:{seat.level}")
            out.append(tr.fmt("Bot {n} ({level})", n=i + 1, level=level))
        else:
            out.append(seat.name)
    return out


def seats_json(
    meta: Meta, player_id: str | None, connected: Callable[[int], bool] | Sequence[bool]
) -> list[dict[str, Any]]:
    """The seats as one client may see them (player ids stay private); ``connected`` tells
    for each seat whether its owner has a client connected (a function or the flags)."""
    if callable(connected):
        connected = [connected(i) for i in range(len(meta.seats))]
    return [
        {
            "seat": i,
            "kind": seat.kind,
            "name": seat.name,
            "level": seat.level,
            "open": seat.kind == "human" and seat.owner is None,
            "you": seat.owner is not None and seat.owner == player_id,
            "connected": seat.kind == "bot" or connected[i],
        }
        for i, seat in enumerate(meta.seats)
    ]


def event_entry(
    game: AnyGame, version: int, event: Event, names: Sequence[str], tr: Translator
) -> dict[str, Any]:
    """One log entry: the version it belongs to, its sentence, its data and, at the end of a
    unit, its score breakdown."""
    return {"v": version, **log_entry(game, event, names, tr)}


_ENTRIES: dict[tuple[Any, ...], tuple[str, list[str]]] = {}
"""Label and tokens of an action, by language and by the game's words for it: the same
moves recur at every table."""
ENTRIES_KEPT = 10_000
"""How many action texts :data:`_ENTRIES` holds before it starts over (the soak: at
100,000 they were 80 MB, and most captures never recur)."""


def _legal_entry(
    game: AnyGame, view: Any, text: str, in_hand: set[str], tr: Translator
) -> dict[str, Any]:
    """:func:`~cardtable.server.present.action_entry`, its label and tokens remembered.
    The label names builds and melds by their cards, which the seat's ``view`` tells."""
    message = game.describe_action(text, view)
    key: tuple[Any, ...] = (
        (tr.lang, text)
        if message is None
        else (tr.lang, text, message.id, tuple(message.params.items()))
    )
    got = _ENTRIES.get(key)
    if got is None:
        if len(_ENTRIES) >= ENTRIES_KEPT:
            _ENTRIES.clear()
        entry = action_entry(text, (), tr, message)  # with no hand, every token is a target
        got = _ENTRIES[key] = (entry["label"], entry["targets"])
    label, tokens = got
    return {
        "text": text,
        "label": label,
        "cards": [t for t in tokens if t in in_hand],
        "targets": [t for t in tokens if t not in in_hand],
    }


class Moment:
    """What every client of a table is told alike at one version (its status, whose turn,
    the outcome, the timer, which owners are connected), worked out once for a fan-out
    instead of once per client."""

    __slots__ = ("connected", "to_act", "top")

    def __init__(self, room: Shown) -> None:
        table = room.table
        playing = room.status == "playing"
        self.to_act = table.to_act if playing else None
        outcome = table.outcome()
        meta = room.meta
        self.connected = [room.connected(i) for i in range(len(meta.seats))]
        self.top: dict[str, Any] = {
            "table": room.id,
            "game": room.game.info.name,
            "version": table.version,
            "to_act": self.to_act,
            "status": room.status,
            "outcome": None if outcome is None else outcome.to_json(),
            "timer": meta.timer,
            "remaining": room.remaining(),
            "hints": meta.hints and not room.rated,
            "rated": room.rated,
            "daily": meta.daily,
            "next": f"/t/{meta.next}" if meta.next else None,
        }


def view_fields(room: Shown, conn: Conn, moment: Moment | None = None) -> dict[str, Any]:
    """What every ``state`` and ``update`` carries: the seat's view, legal actions, seats
    (``moment``: what is alike for every client at this version, when already known)."""
    if moment is None:
        moment = Moment(room)
    seat = conn.seat
    game = room.game
    view = room.table.view(seat)
    view_json = game.view_to_json(view)
    legal: list[dict[str, Any]] = []
    if seat is not None and moment.to_act == seat:
        hand = view_json.get("hand") or []
        in_hand = {str(c) for c in hand} if isinstance(hand, list) else set()
        legal = [
            _legal_entry(game, view, text, in_hand, conn.tr) for text, _ in room.legal_texts(seat)
        ]
    top = moment.top
    return {
        "table": top["table"],
        "game": top["game"],
        "version": top["version"],
        "seat": seat,
        "to_act": top["to_act"],
        "status": top["status"],
        "view": view_json,
        "legal": legal,
        "seats": seats_json(room.meta, conn.player_id, moment.connected),
        "outcome": top["outcome"],
        "timer": top["timer"],
        "remaining": top["remaining"],
        "hints": top["hints"],
        "rated": top["rated"],
        "daily": top["daily"],
        "next": top["next"],
    }


def _events_since(room: Shown, conn: Conn, since: int) -> list[dict[str, Any]]:
    names = seat_names(room.meta, conn.tr)
    return [
        event_entry(room.game, version, event, names, conn.tr)
        for version, event in room.table.events_since(conn.seat, since)
    ]


def state_message(room: Shown, conn: Conn, since: int | None) -> dict[str, Any]:
    """A full message for a client that (re)connects having seen ``since`` (or nothing)."""
    msg: dict[str, Any]
    if since is not None and 0 <= since <= room.table.version:
        msg = {"type": "update", "events": _events_since(room, conn, since)}
    else:
        start = max(0, room.table.version - LOG_TAIL)
        msg = {"type": "state", "events": _events_since(room, conn, start)}
    msg.update(view_fields(room, conn))
    return msg


def update_message(room: Shown, conn: Conn, events: list[dict[str, Any]]) -> dict[str, Any]:
    """An ``update``: some (already redacted) log entries and the seat's fresh view."""
    msg: dict[str, Any] = {"type": "update", "events": events}
    msg.update(view_fields(room, conn))
    return msg


def snapshot(fields: dict[str, Any]) -> dict[str, Any]:
    """What a client was shown, kept until the next move as JSON text: each top-level
    field, and the view key by key (what :func:`patch_message` compares).

    Strings hold no references, so the garbage collector never looks at a snapshot, where
    the fields themselves (the view, the legal moves: lists and dicts) were most of the
    objects a thousand tables keep alive between moves (docs/server.md, Load).  The text
    is decoded, not kept as orjson's bytes: each of those keeps the large buffer orjson
    wrote it in (24,000 small ones held 240 MB for 5 MB of JSON).

    >>> snapshot({"version": 3, "view": {"hand": ["AS"]}, "legal": []})
    {'version': '3', 'view': {'hand': '["AS"]'}, 'legal': '[]'}
    """
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "view" and isinstance(value, dict):
            out[key] = {k: orjson.dumps(v).decode() for k, v in value.items()}
        else:
            out[key] = orjson.dumps(value).decode()
    return out


def shown_fields(shot: dict[str, Any]) -> dict[str, Any]:
    """The fields of a :func:`snapshot` again, for a message (each one serialized already).

    >>> from cardtable.server.conn import dumps
    >>> dumps(shown_fields(snapshot({"version": 3, "view": {"hand": ["AS"]}})))
    '{"version":3,"view":{"hand":["AS"]}}'
    """
    return {
        k: {vk: orjson.Fragment(vv) for vk, vv in v.items()}
        if isinstance(v, dict)
        else orjson.Fragment(v)
        for k, v in shot.items()
    }


def patch_message(
    base: int, events: list[dict[str, Any]], old: dict[str, Any], new: dict[str, Any]
) -> dict[str, Any] | None:
    """A ``patch``: what changed from the snapshot ``old`` (of version ``base``, as the
    client has it) to the snapshot ``new`` (see :func:`snapshot`) — ``set``: the top-level
    fields that differ, ``view``: the keys of the view that differ — with the events in
    between.  ``None`` when the fields or the view's keys differ in shape (then only a
    whole ``update`` will do).

    >>> from cardtable.server.conn import dumps
    >>> old = snapshot({"version": 3, "to_act": 0, "view": {"hand": ["AS"], "loose": []}})
    >>> new = snapshot({"version": 4, "to_act": 1, "view": {"hand": ["AS"], "loose": ["2C"]}})
    >>> dumps(patch_message(3, [], old, new))
    '{"type":"patch","base":3,"version":4,"events":[],"set":{"to_act":1},"view":{"loose":["2C"]}}'
    """
    if old.keys() != new.keys():
        return None
    old_view, new_view = old.get("view"), new.get("view")
    if not isinstance(old_view, dict) or not isinstance(new_view, dict):
        return None
    if old_view.keys() != new_view.keys():
        return None
    changed = {
        k: orjson.Fragment(v)
        for k, v in new.items()
        if k != "version" and k != "view" and v != old[k]
    }
    view = {k: orjson.Fragment(v) for k, v in new_view.items() if v != old_view[k]}
    return {
        "type": "patch",
        "base": base,
        "version": orjson.Fragment(new["version"]),
        "events": events,
        "set": changed,
        "view": view,
    }


def update_entries(
    game: AnyGame,
    meta: Meta,
    updates: Sequence[TableUpdate],
    seat: int | None,
    tr: Translator,
    cache: dict[tuple[str, int, Event], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The log entries of some applied updates as ``seat`` may see them.

    With ``cache`` (one per fan-out), an event that redacts to the same value for several
    seats is described once per language: most events hide nothing.
    """
    names = seat_names(meta, tr)
    out = []
    for u in updates:
        for e in u.events:
            shown = game.redact(e, seat)
            if cache is None:
                out.append(event_entry(game, u.version, shown, names, tr))
                continue
            key = (tr.lang, u.version, shown)
            try:
                entry = cache.get(key)
            except TypeError:  # an event with an unhashable field: no sharing
                out.append(event_entry(game, u.version, shown, names, tr))
                continue
            if entry is None:
                entry = cache[key] = event_entry(game, u.version, shown, names, tr)
            out.append(entry)
    return out


def error_message(
    code: str, message: str, version: int, ref: object, rule: str = ""
) -> dict[str, Any]:
    """An ``error``: a rejected message changed nothing; ``ref`` echoes the client's own;
    ``rule`` is the rule id the message cites (``null`` when none), for a link to the guide."""
    return {
        "type": "error",
        "code": code,
        "message": message,
        "version": version,
        "ref": ref,
        "rule": rule or None,
    }


def _said(game: AnyGame, before: Any, action: str, tr: Translator) -> str:
    """A recorded action in words, as the player who made it saw the table (builds and melds
    by their cards)."""
    view = game.view(before, game.to_act(before))
    return action_label(action, tr, game.describe_action(action, view))


def replay_steps(room: Shown, tr: Translator) -> dict[str, Any]:
    """Every state of a finished table with every hand shown, step by step."""
    row = room.table.record
    record = Record(
        row.game, row.players, row.seed, row.options, row.scope, row.seats, row.actions, row.start
    )
    game = room.game
    result = replay(record, game)
    names = seat_names(room.meta, tr)
    steps = []
    for i, state in enumerate(result.states):
        hands = [
            game.view_to_json(game.view(state, seat)).get("hand") for seat in range(row.players)
        ]
        events = [] if i == 0 else result.events[i - 1]
        action = None if i == 0 else record.actions[i - 1]
        steps.append(
            {
                "version": i,
                "action": action,
                "label": None if action is None else _said(game, result.states[i - 1], action, tr),
                "view": game.view_to_json(game.view(state, None)),
                "hands": hands,
                "events": [log_entry(game, e, names, tr) for e in events],
            }
        )
    outcome = room.table.outcome()
    return {
        "table": room.id,
        "game": game.info.name,
        "names": names,
        "status": room.status,
        "outcome": None if outcome is None else outcome.to_json(),
        "steps": steps,
    }
