"""Game records: the save file, the database row, the bug report and the test fixture.

A record names the game, players, options, scope and seed (or an explicit start
position), the seats, and every action in canonical notation.  :func:`replay`
reproduces every state and event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.errors import CardtableError, InvalidRecordError
from cardtable.core.game import Event, Game, Scope
from cardtable.core.options import OptionValue

__all__ = ["RECORD_VERSION", "Record", "Replay", "replay"]

RECORD_VERSION = 1


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
        )

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object."""
        out: dict[str, Any] = {
            "format": "cardtable-record",
            "version": RECORD_VERSION,
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
        return cls(game, players, seed, options, scope, tuple(seats), tuple(actions), start, result)

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
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


def start_state(game: Game[Any, Any, Any], record: Record) -> Any:
    """The state a record starts from."""
    try:
        if record.start is not None:
            return game.parse_position(record.start)
        return game.new_game(record.players, record.options, record.seed, record.scope)
    except CardtableError as e:
        raise InvalidRecordError(f"the record's start is invalid: {e}") from None


def replay(record: Record, game: Game[Any, Any, Any]) -> Replay:
    """Replay a record; an action that does not parse or apply is an error with its number."""
    if game.info.name != record.game and record.game not in game.info.aliases:
        raise InvalidRecordError(f"the record is for {record.game!r}, not {game.info.name!r}")
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
