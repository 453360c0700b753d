"""A :class:`Table` owns a game's state and record; it is the only thing that applies actions.

It checks that the right seat acts at the right version, parses and applies the action
through the game contract, appends it to the record and fans out per-seat redacted events.
Bots at the table receive views, never the state.

>>> from cardtable.games import get_game
>>> t = Table(get_game("casino"), players=2, seed=5, seats=["bot:random", "bot:random"])
>>> t.run_bots()  # doctest: +ELLIPSIS
[...]
>>> t.is_over, len(t.record.actions) > 40
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots.base import Bot, make_bot
from cardtable.core.errors import CardtableError, InvalidOptionError
from cardtable.core.game import Event, Outcome, Scope
from cardtable.core.record import Record
from cardtable.core.registry import AnyGame
from cardtable.core.rng import derive_rng
from cardtable.core.seats import seat_name

__all__ = [
    "BotTurn",
    "NotYourTurnError",
    "SeatSpec",
    "StaleVersionError",
    "Table",
    "TableUpdate",
    "bot_rng",
    "parse_seat_specs",
]


class NotYourTurnError(CardtableError, ValueError):
    """An action from a seat that is not to act (or after the game is over)."""


class StaleVersionError(CardtableError, ValueError):
    """An action sent against an older version of the table."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: a human (with a name) or a bot (with its level)."""

    kind: str
    name: str

    @property
    def is_bot(self) -> bool:
        """True for a bot seat."""
        return self.kind == "bot"

    def __str__(self) -> str:
        return f"{self.kind}:{self.name}"


def parse_seat_specs(specs: Sequence[str | SeatSpec]) -> list[SeatSpec]:
    """Read ``human``, ``human:Jiří``, ``bot:greedy`` or a bare bot name."""
    out: list[SeatSpec] = []
    for spec in specs:
        if isinstance(spec, SeatSpec):
            out.append(spec)
            continue
        kind, _, name = spec.partition(":")
        kind = kind.strip().lower()
        if kind == "human":
            out.append(SeatSpec("human", name or "you"))
        elif kind == "bot":
            out.append(SeatSpec("bot", name or "random"))
        else:
            out.append(SeatSpec("bot", spec.strip()))
    return out


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """What one applied action produced: the new version and each seat's events."""

    version: int
    seat: int
    action: str
    events: tuple[Event, ...]
    """The unredacted events: for the authority and its log only."""


def bot_rng(seed: int, seat: int, version: int) -> random.Random:
    """The generator of the bot move in ``seat`` at ``version`` of a table seeded ``seed``.

    One generator per move, derived from the table's seed, the seat and the version only:
    a table rebuilt from its record (a restarted server, a replica) makes the same bot moves
    as the table that never stopped, and a bot that takes over a seat mid-game needs no
    seeding of its own.

    >>> bot_rng(7, 1, 12).random() == bot_rng(7, 1, 12).random() != bot_rng(7, 1, 13).random()
    True
    """
    return derive_rng(seed, "bot", seat, version)


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's move to make: the bot, its view, the legal actions and its generator.

    Taken from the table at ``version``; :meth:`choose` runs the bot (anywhere: a worker
    thread, so an expensive search keeps a server's event loop free) and
    :meth:`Table.act` with ``version`` applies the choice if the table has not moved on.
    """

    seat: int
    version: int
    bot: Bot
    view: Any
    legal: tuple[Any, ...]
    rng: random.Random

    def choose(self) -> Any:
        """The bot's choice (pure in the view, the legal actions and the generator)."""
        return self.bot.choose(self.view, self.legal, self.rng)


class Table:
    """The authoritative table for one game, and the only place that builds and steps bots."""

    def __init__(
        self,
        game: AnyGame,
        players: int,
        seed: int,
        seats: Sequence[str | SeatSpec] | None = None,
        options: Mapping[str, object] | None = None,
        scope: Scope = "match",
        start: str | None = None,
    ) -> None:
        game.check_players(players)
        specs = parse_seat_specs(seats or ["human"] + ["bot:random"] * (players - 1))
        if len(specs) != players:
            raise InvalidOptionError(f"{players} players need {players} seats; got {len(specs)}")
        self.game = game
        opts = game.resolve_options(options)
        self.seats = specs
        self._bots: dict[int, Bot] = {
            i: make_bot(s.name, game) for i, s in enumerate(specs) if s.is_bot
        }
        if start is not None:
            self._state: Any = game.parse_position(start)
        else:
            self._state = game.new_game(players, opts, seed, scope)
        self.record = Record(
            game.info.name,
            players,
            seed,
            opts.to_json(),
            scope,
            tuple(str(s) for s in specs),
            (),
            start,
        )
        self.version = 0
        self.log: list[TableUpdate] = []

    # -- reading ------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The authoritative state (for the authority and tests, never for a player)."""
        return self._state

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        return self.game.to_act(self._state)

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.game.to_act(self._state) is None

    def outcome(self) -> Outcome | None:
        """The result, once over."""
        return self.game.outcome(self._state)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see (``None``: a spectator)."""
        return self.game.view(self._state, seat)

    def legal(self, seat: int) -> Sequence[Any]:
        """The legal actions of ``seat`` (empty when it is not to act)."""
        if self.to_act != seat:
            return ()
        return self.game.legal_actions(self._state)

    def events_since(self, seat: int | None, version: int) -> list[tuple[int, Event]]:
        """The events after ``version`` as ``seat`` may see them."""
        out: list[tuple[int, Event]] = []
        for update in self.log[version:]:
            out.extend((update.version, self.game.redact(e, seat)) for e in update.events)
        return out

    # -- acting ---------------------------------------------------------------------------
    def act(self, seat: int, action: Any, version: int | None = None) -> TableUpdate:
        """Apply ``action`` (an action or its text) for ``seat``; nothing changes on error."""
        if version is not None and version != self.version:
            raise StaleVersionError(
                f"the table is at version {self.version}; your action was for {version}"
            )
        to_act = self.to_act
        if to_act is None:
            raise NotYourTurnError("the game is over")
        if seat != to_act:
            raise NotYourTurnError(f"it is {seat_name(to_act)}'s turn, not {seat_name(seat)}'s")
        if isinstance(action, str):
            action = self.game.parse_action(self._state, action)
        new_state, events = self.game.apply(self._state, action)
        text = self.game.format_action(action)
        self._state = new_state
        self.version += 1
        self.record = self.record.with_action(text)
        outcome = self.game.outcome(new_state)
        if outcome is not None:
            self.record = self.record.with_result(outcome.to_json())
        update = TableUpdate(self.version, seat, text, events)
        self.log.append(update)
        return update

    def bot_to_act(self) -> bool:
        """True when the seat to act is a bot."""
        seat = self.to_act
        return seat is not None and seat in self._bots

    def bot_turn(self) -> BotTurn:
        """The move the bot to act is to make (see :class:`BotTurn`)."""
        seat = self.to_act
        if seat is None or seat not in self._bots:
            raise NotYourTurnError("no bot is to act")
        return self._turn(seat, self._bots[seat], bot_rng(self.record.seed, seat, self.version))

    def stand_in_turn(self, level: str) -> BotTurn:
        """A one-off move by a ``level`` bot for the seat to act (its move timer ran out)."""
        seat = self.to_act
        if seat is None:
            raise NotYourTurnError("the game is over")
        rng = derive_rng(self.record.seed, "timer", seat, self.version)
        return self._turn(seat, make_bot(level, self.game), rng)

    def _turn(self, seat: int, bot: Bot, rng: random.Random) -> BotTurn:
        view = self.game.view(self._state, seat)
        legal = tuple(self.game.legal_actions(self._state))
        return BotTurn(seat, self.version, bot, view, legal, rng)

    def step_bot(self) -> TableUpdate:
        """Let the bot to act choose (from its view) and act."""
        turn = self.bot_turn()
        return self.act(turn.seat, turn.choose(), turn.version)

    def run_bots(self, max_steps: int = 1_000_000) -> list[TableUpdate]:
        """Let bots act until a human must act or the game ends."""
        updates: list[TableUpdate] = []
        while self.bot_to_act() and len(updates) < max_steps:
            updates.append(self.step_bot())
        return updates

    def replace_with_bot(self, seat: int, level: str = "greedy") -> None:
        """Hand a seat to a bot (a player left), so the others can finish."""
        self._bots[seat] = make_bot(level, self.game)
        self.seats[seat] = SeatSpec("bot", level)
