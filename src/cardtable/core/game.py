"""The one contract every game implements, and the values it exchanges.

Bots, tables, the CLI and the server are written once against :class:`Game`.  A game's
state is an immutable value; :meth:`Game.apply` is pure and returns the new state with
frozen :class:`Event` records.  Hidden information leaves a game only through
:meth:`Game.view` and :meth:`Game.redact`.

How a game presents itself to people (events as messages, option labels, score
breakdowns) is the last section of :class:`Game`, with defaults any game can live with;
the values are in :mod:`cardtable.core.present`.

The scope of a game is either a whole ``"match"`` (to 21 points, a set of 10 deals, …) or
a single ``"unit"`` (one hand, round or deal): both are first-class.
"""

from __future__ import annotations

import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Generic, Literal, TypeVar

from cardtable.core.encoding import Encoding
from cardtable.core.errors import IllegalActionError, InvalidOptionError
from cardtable.core.kit import Policy, SearchProfile, ViewSampler
from cardtable.core.options import Options, OptionSchema, OptionSpec, OptionValue
from cardtable.core.present import Message, OptionText, Param, ScoreTable

__all__ = ["Event", "Game", "GameInfo", "Outcome", "Scope", "event_to_json"]

S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")

Scope = Literal["match", "unit"]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for UIs to show and logs to keep.

    Subclasses are frozen dataclasses; ``kind`` names them in JSON.  Fields hold plain
    values (ints, strings, tuples); a card is its canonical text in the game's notation
    (``10D``), and a card hidden from a reader is ``None``.
    """

    kind: ClassVar[str] = "event"

    def describe(self) -> str:
        """One line of English for a log, seats written ``P1`` … (see ``core.seats``); UIs
        may localise from the fields instead, where seats are 0-based ints."""
        return self.kind


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as a JSON object: ``{"kind": …, field: value, …}``."""
    out: dict[str, Any] = {"kind": event.kind}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``sides`` lists the seats of each side (one seat each unless there are partnerships),
    ``scores`` the final score of each side, ``winners`` the indices of the winning sides
    (several on a shared win, none on an abandoned game).
    """

    sides: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    detail: str = ""

    def seat_won(self, seat: int) -> bool:
        """True when the seat belongs to a winning side."""
        return any(seat in self.sides[w] for w in self.winners)

    def to_json(self) -> dict[str, Any]:
        """The outcome as a JSON object."""
        return {
            "sides": [list(s) for s in self.sides],
            "scores": list(self.scores),
            "winners": list(self.winners),
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's declared metadata."""

    name: str
    title: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    default_players: int
    options: OptionSchema
    unit: str
    """What one pass of play is called: ``hand``, ``round`` or ``deal``."""
    summary: str = ""


class Game(ABC, Generic[S, A, V]):
    """The game contract (STYLE.md principle 2).

    ``S`` is the immutable state, ``A`` an action, ``V`` a seat's view.
    """

    info: GameInfo

    # -- set-up -----------------------------------------------------------------------
    @abstractmethod
    def new_game(
        self,
        players: int,
        options: Options | Mapping[str, object] | None = None,
        seed: int = 0,
        scope: Scope = "match",
    ) -> S:
        """A new game: the first deal is made from ``seed``."""

    def check_players(self, players: int) -> None:
        """Raise a clear error for an unsupported number of players."""
        lo, hi = self.info.min_players, self.info.max_players
        if not lo <= players <= hi:
            raise InvalidOptionError(
                f"{self.info.title} is for {lo} to {hi} players; got {players}"
            )

    def resolve_options(self, options: Options | Mapping[str, object] | None) -> Options:
        """Validate options given as a mapping (already-validated ones pass through)."""
        if isinstance(options, Options):
            if self.info.options.owns(options):
                return options
            return self.info.options.validate(options.to_json())
        return self.info.options.validate(options)

    @abstractmethod
    def players(self, state: S) -> int:
        """The number of seats."""

    @abstractmethod
    def options(self, state: S) -> Options:
        """The options the game is played with."""

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The seats of each side; by default everyone plays alone."""
        return tuple((seat,) for seat in range(players))

    # -- play -------------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> int | None:
        """The seat that must act, or ``None`` when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action, in canonical order; empty only when the game is over."""

    @abstractmethod
    def apply(self, state: S, action: A) -> tuple[S, tuple[Event, ...]]:
        """The state after ``action`` and the events it caused.

        Raises :class:`IllegalActionError` (with the rule id and a reason) and leaves
        nothing changed when the action is not legal.
        """

    def is_legal(self, state: S, action: A) -> bool:
        """True when ``action`` is among the legal actions."""
        return action in self.legal_actions(state)

    @abstractmethod
    def explain_illegal(self, state: S, action: A) -> IllegalActionError:
        """Why an action that is not legal is not legal."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def playout(self, state: S, rng: random.Random) -> tuple[S, int]:
        """Play uniformly random legal actions to the end of the game: the final state and
        the number of actions.

        This reference loop draws ``legal[rng.randrange(len(legal))]``.  A game may
        override it with a fast path (mutable locals, no events) for benchmarks and search
        rollouts, provided its tests show the fast path reaches the same final state as
        the game's own contract loop for the same generator.
        """
        actions = 0
        while self.to_act(state) is not None:
            legal = self.legal_actions(state)
            state, _ = self.apply(state, legal[rng.randrange(len(legal))])
            actions += 1
        return state, actions

    def units_played(self, state: S) -> int:
        """How many hands, rounds or deals have been completed."""
        return 0

    # -- hidden information -------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """What ``seat`` may know (``None``: a spectator, who sees no hidden card)."""

    @abstractmethod
    def redact(self, event: Event, seat: int | None) -> Event:
        """The event as ``seat`` may see it."""

    @abstractmethod
    def shuffle_hidden(self, state: S, seat: int | None, rng: random.Random) -> S:
        """The state with every card hidden from ``seat`` moved at random among the hidden
        places (other hands, the stock, secret piles), keeping each place's size.

        The no-leak property: ``view(shuffle_hidden(s, seat, rng), seat) == view(s, seat)``.
        """

    @abstractmethod
    def view_to_json(self, view: V) -> dict[str, Any]:
        """A view as a JSON object (only what the seat may know)."""

    @abstractmethod
    def render_view(self, view: V) -> str:
        """A view as text for a terminal (no colour codes)."""

    @abstractmethod
    def view_seat(self, view: V) -> int | None:
        """The seat a view belongs to."""

    # -- the kit for search and bots ----------------------------------------------------
    @abstractmethod
    def resample_from_view(self, view: V, rng: random.Random) -> S:
        """A full state consistent with ``view``, its hidden cards dealt by ``rng`` alone
        (OpenSpiel's ``resample_from_infostate``): what search bots play out.

        The state agrees with everything the view shows (``view(state, seat) == view``)
        and never gives a card to a seat the view's seat knows does not hold it.
        """

    def view_sampler(self, view: V) -> ViewSampler:
        """A sampler of :meth:`resample_from_view` prepared for one view, which a search
        keeps for its whole loop.  A game overrides it to work out once what depends only
        on the view; the states dealt for the same ``rng`` are the same either way.
        """
        resample = self.resample_from_view
        return lambda rng: resample(view, rng)

    def greedy_policy(self) -> Policy | None:
        """The game's greedy player (the ``greedy`` bot, and ``easy``/``medium``), or
        ``None`` when it has none (those levels then move at random)."""
        return None

    def search_profile(self) -> SearchProfile:
        """How search walks this game.  The default is built from the contract alone: no
        points before the game ends, the contract's ``apply``, random rollouts."""

        def points(state: S) -> tuple[float, ...]:
            return (0.0,) * self.players(state)

        def apply(state: S, action: A) -> S:
            return self.apply(state, action)[0]

        return SearchProfile(points, 1.0, apply, self.legal_actions, self.to_act)

    # -- notation ---------------------------------------------------------------------
    @abstractmethod
    def format_action(self, action: A) -> str:
        """The canonical text of an action."""

    def display_key(self, action: A) -> tuple[object, ...]:
        """How a list of actions is ordered for people (menus, ``cardtable play``): by
        canonical text unless a game groups them otherwise."""
        return (self.format_action(action),)

    @abstractmethod
    def parse_action(self, state: S, text: str) -> A:
        """Read an action in this state (raises ``InvalidNotationError``)."""

    @abstractmethod
    def format_position(self, state: S) -> str:
        """The canonical position text of a state (round-trips exactly)."""

    @abstractmethod
    def parse_position(self, text: str) -> S:
        """Read a position (raises ``InvalidPositionError``)."""

    def migrate_options(
        self, options: Mapping[str, OptionValue], version: int
    ) -> dict[str, OptionValue]:
        """Options written by record format ``version`` under today's names.  Games whose
        option names changed override this; the default returns them unchanged."""
        return dict(options)

    def migrate_position(self, text: str, version: int) -> str:
        """A position written by record format ``version`` (see ``core.record``) in
        today's notation.  Games whose position text changed override this; the default
        returns the text unchanged."""
        return text

    def state_to_json(self, state: S) -> dict[str, Any]:
        """A state as a JSON object."""
        return {"game": self.info.name, "position": self.format_position(state)}

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """Read back :meth:`state_to_json`."""
        return self.parse_position(str(data["position"]))

    # -- checks ---------------------------------------------------------------------------
    def invariant_failures(self, state: S) -> list[str]:
        """Broken invariants of a state (card conservation and the like); empty when sound."""
        return []

    # -- presentation -----------------------------------------------------------------------
    # What a UI shows, as catalog message ids with typed parameters (core.present).  The
    # defaults work for any game; a game overrides them from its own ``present`` module.
    def describe_event(self, event: Event) -> Message:
        """An event as a message: by default ``event:<kind>`` with the event's fields (a UI
        without that id in its catalog falls back to the event's English ``describe``)."""
        params: dict[str, Param] = {}
        for f in dataclasses.fields(event):
            value = getattr(event, f.name)
            plain = value is None or isinstance(value, bool | int | str)
            params[f.name] = value if plain else str(value)
        return Message("event:" + event.kind, params)

    def describe_action(self, text: str, view: V) -> Message | None:
        """A legal action (its canonical text) in the game's words for the seat whose
        ``view`` it is, builds and melds named by their cards; ``None`` (the default) when
        the game has no words for it (a UI then shows its verb and cards)."""
        del text, view
        return None

    def describe_outcome(self, outcome: Outcome) -> Message | None:
        """How a finished game ended, in words beyond its scores and winners (the outcome's
        ``detail``, which stays the engine's English text in records) as a message; ``None``
        (the default) when the game has none."""
        del outcome
        return None

    def option_text(self, spec: OptionSpec) -> OptionText:
        """An option's label, help and choice labels; by default the option's own English
        name, help and choice values (shown untranslated)."""
        return OptionText(
            Message(spec.name), Message(spec.help), {c: Message(c) for c in spec.choices}
        )

    def score_table(self, event: Event) -> ScoreTable | None:
        """The score breakdown an end-of-unit event carries, as rows; ``None`` for any other
        event (the default: no breakdown)."""
        return None

    def resource_package(self) -> str | None:
        """The package whose ``locale/<lang>/LC_MESSAGES/messages.po`` catalogs hold this
        game's message ids; by default the package of the game's class."""
        return type(self).__module__.rpartition(".")[0] or None

    # -- how to play ---------------------------------------------------------------------------
    HOW_TO_PLAY_LANGUAGES: ClassVar[tuple[str, ...]] = ("en", "cs", "ru")
    """The languages a player's guide may be written in."""

    def how_to_play(self, lang: str) -> str | None:
        """The player's guide ("How to play") in ``lang`` as Markdown, or ``None`` when the
        game has none in that language.

        The default reads ``rules/<lang>.md`` from :meth:`resource_package`.  A guide states
        each rule in a paragraph or list item that starts with a link to itself,
        ``[C6.1](#C6.1) …``: that is the rule's anchor, so a reason that cites the rule
        (:class:`IllegalActionError` ``.rule``) can link to it.
        """
        package = self.resource_package()
        if package is None or lang not in self.HOW_TO_PLAY_LANGUAGES:
            return None
        try:
            return (resources.files(package) / "rules" / f"{lang}.md").read_text("utf-8")
        except (FileNotFoundError, ModuleNotFoundError):
            return None

    # -- research encodings -------------------------------------------------------------------
    def encoding(self) -> Encoding[A, V] | None:
        """The game's action-id space and observation layout for learning environments
        (:mod:`cardtable.core.encoding`), or ``None`` when it declares none (the default).

        A game declares its own from its folder (each of the three games returns the
        ``ENCODING`` of its ``encoding`` module).
        """
        return None
