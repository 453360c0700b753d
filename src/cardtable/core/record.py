"""Game records: the save file, the database row, the bug report and the test fixture.

A record names the game, players, options, scope and seed (or an explicit start
position), the seats, and every action in canonical notation.  :func:`replay`
reproduces every state and event.

Every record carries the number of its format (``version``).  Version 1 wrote seats in
each game's own numbering (``turn=P0`` in Royal Casino, ``dealer 0`` in Royal Mastheads);
version 2 writes every seat as ``P1`` … ``Pn``.  Version 1 also named three Royal
Mastheads options in snake case (``ace_points``, ``trumps_bonus``, ``count_bonus``);
version 2 names every option of every game in camel case (``acePoints``).  Only positions
name seats (no game's action text does), so :func:`upgrade` rewrites a record's options
and ``start`` with the game's :meth:`~cardtable.core.game.Game.migrate_options` and
:meth:`~cardtable.core.game.Game.migrate_position`; :func:`replay` upgrades old records
on its own.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.errors import CardtableError, InvalidRecordError
from cardtable.core.game import Event, Game, Scope
from cardtable.core.options import OptionValue

__all__ = ["RECORD_VERSION", "Record", "Replay", "replay", "upgrade"]

RECORD_VERSION = 2
"""The record format written today; records of every earlier version are read and upgraded."""


@dataclass(frozen=True, slots=True)
class Record:
    """One game, as data."""

    game: str
    players: int
    seed: int
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    scope: Scope = "match"
    seats: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    start: str | None = None
    """An explicit start position; when given it replaces the seeded deal."""
    result: Mapping[str, Any] | None = None
    version: int = RECORD_VERSION
    """The record format its texts are written in (an old one until :func:`upgrade`)."""

    def with_action(self, line: str) -> Record:
        """The record with one more action line."""
        return Record(
            self.game,
            self.players,
            self.seed,
            self.options,
            self.scope,
            self.seats,
            (*self.actions, line),
            self.start,
            self.result,
            self.version,
        )

    def with_result(self, result: Mapping[str, Any] | None) -> Record:
        """The record with its result set."""
        return Record(
            self.game,
            self.players,
            self.seed,
            self.options,
            self.scope,
            self.seats,
            self.actions,
            self.start,
            result,
            self.version,
        )

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object."""
        out: dict[str, Any] = {
            "format": "cardtable-record",
            "version": self.version,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "scope": self.scope,
            "options": dict(self.options),
            "seats": list(self.seats),
            "actions": list(self.actions),
        }
        if self.start is not None:
            out["start"] = self.start
        if self.result is not None:
            out["result"] = dict(self.result)
        return out

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read a record from a JSON value; a clear error on anything malformed."""
        if not isinstance(data, dict):
            raise InvalidRecordError("a record is a JSON object")
        if data.get("format", "cardtable-record") != "cardtable-record":
            raise InvalidRecordError("not a cardtable record (field 'format')")
        # Every record cardtable wrote names its version; one without is hand-made, and
        # read in today's notation.
        version = data.get("version", RECORD_VERSION)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise InvalidRecordError("field 'version' must be a whole number from 1")
        if version > RECORD_VERSION:
            raise InvalidRecordError(
                f"the record is in format version {version}; this cardtable reads versions "
                f"1 to {RECORD_VERSION} (a newer cardtable wrote it)"
            )
        try:
            game = data["game"]
            players = data["players"]
            seed = data.get("seed", 0)
        except KeyError as e:
            raise InvalidRecordError(f"the record has no field {e.args[0]!r}") from None
        if not isinstance(game, str):
            raise InvalidRecordError("field 'game' must be a string")
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidRecordError("field 'players' must be a whole number")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidRecordError("field 'seed' must be a whole number")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise InvalidRecordError("field 'options' must be an object")
        scope = data.get("scope", "match")
        if scope not in ("match", "unit"):
            raise InvalidRecordError("field 'scope' must be 'match' or 'unit'")
        seats = data.get("seats", [])
        actions = data.get("actions", [])
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise InvalidRecordError("field 'seats' must be a list of strings")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise InvalidRecordError("field 'actions' must be a list of strings")
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise InvalidRecordError("field 'start' must be a position string")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise InvalidRecordError("field 'result' must be an object")
        return cls(
            game,
            players,
            seed,
            options,
            scope,
            tuple(seats),
            tuple(actions),
            start,
            result,
            version,
        )

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from JSON text."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise InvalidRecordError("the record's JSON is nested too deeply") from None
        except ValueError as e:  # bad syntax, or what json refuses beyond it (huge numbers)
            raise InvalidRecordError(f"the record is not valid JSON: {e}") from None
        return cls.from_json(data)


@dataclass(frozen=True, slots=True)
class Replay:
    """Every state of a replayed record (``states[0]`` is the start) and each step's events."""

    states: tuple[Any, ...]
    events: tuple[tuple[Event, ...], ...]

    @property
    def final(self) -> Any:
        """The last state."""
        return self.states[-1]


def upgrade(record: Record, game: Game[Any, Any, Any]) -> Record:
    """The record in today's format (:data:`RECORD_VERSION`); a current record is returned
    as it is.

    The options and the start position are rewritten (:meth:`Game.migrate_options`,
    :meth:`Game.migrate_position`); no game's action text names a seat.
    """
    if record.version == RECORD_VERSION:
        return record
    options = game.migrate_options(record.options, record.version)
    start = record.start
    if start is not None:
        try:
            start = game.migrate_position(start, record.version)
        except CardtableError as e:
            raise InvalidRecordError(
                f"the record's start (format version {record.version}) is invalid: {e}"
            ) from None
    return Record(
        record.game,
        record.players,
        record.seed,
        options,
        record.scope,
        record.seats,
        record.actions,
        start,
        record.result,
        RECORD_VERSION,
    )


def start_state(game: Game[Any, Any, Any], record: Record) -> Any:
    """The state a record starts from."""
    try:
        if record.start is not None:
            return game.parse_position(record.start)
        return game.new_game(record.players, record.options, record.seed, record.scope)
    except CardtableError as e:
        raise InvalidRecordError(f"the record's start is invalid: {e}") from None


def replay(record: Record, game: Game[Any, Any, Any]) -> Replay:
    """Replay a record (upgraded first when it is in an older format); an action that does
    not parse or apply is an error with its number."""
    if game.info.name != record.game and record.game not in game.info.aliases:
        raise InvalidRecordError(f"the record is for {record.game!r}, not {game.info.name!r}")
    record = upgrade(record, game)
    state = start_state(game, record)
    states = [state]
    events: list[tuple[Event, ...]] = []
    for number, line in enumerate(record.actions, 1):
        try:
            action = game.parse_action(state, line)
            state, evs = game.apply(state, action)
        except CardtableError as e:
            raise InvalidRecordError(f"action {number} ({line!r}) does not replay: {e}") from None
        states.append(state)
        events.append(evs)
    return Replay(tuple(states), tuple(events))
