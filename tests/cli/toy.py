"""A tiny game on the contract, so the CLI can be tested apart from the real games.

"Take": players in turn take 1 to 3 counters from a pile; whoever takes the last one
scores a point.  A round is the unit; a match is ``rounds`` rounds.  Each player's
"secret" is a number only they may see, to exercise views and redaction.

Everything the layers above need of it is here, as for a real game: it deals a state from
a view (:meth:`TakeGame.resample_from_view`), has a greedy policy (:class:`TakeGreedy`)
and is searched through the contract's generic search profile, so it plays at every bot
level and in the arena with nothing registered for it elsewhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from cardtable.core.errors import IllegalActionError, InvalidNotationError, InvalidPositionError
from cardtable.core.game import Event, Game, GameInfo, Outcome, Scope
from cardtable.core.options import Options, OptionSchema, OptionSpec
from cardtable.core.rng import derive_rng


@dataclass(frozen=True, slots=True)
class TakeState:
    players: int
    options: Options
    pile: int
    turn: int
    scores: tuple[int, ...]
    rounds_left: int
    rounds_done: int
    secrets: tuple[int, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class TakeView:
    seat: int | None
    pile: int
    turn: int
    scores: tuple[int, ...]
    secret: int | None
    options: Options
    rounds_left: int
    rounds_done: int


class TakeGreedy:
    """Leaves the next player a multiple of four counters when it can (then they cannot
    take the last one against best play); otherwise takes one."""

    name = "greedy"

    def choose(self, view: TakeView, legal: Sequence[int], rng: random.Random) -> int:
        """The winning take, else the smallest."""
        best = view.pile % 4
        return best if best in legal else legal[0]


@dataclass(frozen=True, slots=True)
class Took(Event):
    kind: ClassVar[str] = "took"
    seat: int
    count: int

    def describe(self) -> str:
        return f"P{self.seat + 1} took {self.count}"


@dataclass(frozen=True, slots=True)
class RoundScored(Event):
    kind: ClassVar[str] = "round_scored"
    items: tuple[Mapping[str, int], ...]
    secret: int | None

    def describe(self) -> str:
        return f"round scored, secret {self.secret}"


SCHEMA = OptionSchema(
    (
        OptionSpec("rounds", "int", 2, help="rounds in a match", minimum=1, maximum=9),
        OptionSpec("pile", "int", 7, help="counters in the pile", minimum=1, maximum=50),
    )
)


class TakeGame(Game[TakeState, int, TakeView]):
    info = GameInfo(
        name="take",
        title="Take",
        aliases=("toy",),
        min_players=2,
        max_players=3,
        default_players=2,
        options=SCHEMA,
        unit="round",
        summary="Take 1 to 3 counters; the last one scores.",
    )

    def new_game(
        self,
        players: int,
        options: Options | Mapping[str, object] | None = None,
        seed: int = 0,
        scope: Scope = "match",
    ) -> TakeState:
        self.check_players(players)
        opts = self.resolve_options(options)
        rounds = 1 if scope == "unit" else int(opts["rounds"])
        rng = derive_rng(seed, "secrets")
        secrets = tuple(rng.randrange(100) for _ in range(players))
        pile = int(opts["pile"])
        return TakeState(players, opts, pile, 0, (0,) * players, rounds, 0, secrets, seed)

    def players(self, state: TakeState) -> int:
        return state.players

    def options(self, state: TakeState) -> Options:
        return state.options

    def to_act(self, state: TakeState) -> int | None:
        return None if state.rounds_left == 0 else state.turn

    def legal_actions(self, state: TakeState) -> Sequence[int]:
        if state.rounds_left == 0:
            return ()
        return tuple(range(1, min(3, state.pile) + 1))

    def apply(self, state: TakeState, action: int) -> tuple[TakeState, tuple[Event, ...]]:
        if action not in self.legal_actions(state):
            raise self.explain_illegal(state, action)
        seat = state.turn
        pile = state.pile - action
        events: list[Event] = [Took(seat, action)]
        nxt = (seat + 1) % state.players
        if pile > 0:
            return replace(state, pile=pile, turn=nxt), tuple(events)
        scores = tuple(s + (i == seat) for i, s in enumerate(state.scores))
        items = tuple({"last": int(i == seat)} for i in range(state.players))
        events.append(RoundScored(items, state.secrets[0]))
        return (
            replace(
                state,
                pile=int(state.options["pile"]),
                turn=nxt,
                scores=scores,
                rounds_left=state.rounds_left - 1,
                rounds_done=state.rounds_done + 1,
            ),
            tuple(events),
        )

    def explain_illegal(self, state: TakeState, action: int) -> IllegalActionError:
        if state.rounds_left == 0:
            return IllegalActionError("T0", "the game is over")
        return IllegalActionError(
            "T1", f"you may take 1 to {min(3, state.pile)} counters; not {action}"
        )

    def outcome(self, state: TakeState) -> Outcome | None:
        if state.rounds_left:
            return None
        best = max(state.scores)
        winners = tuple(i for i, s in enumerate(state.scores) if s == best)
        return Outcome(self.sides(state.players), state.scores, winners)

    def units_played(self, state: TakeState) -> int:
        return state.rounds_done

    def view(self, state: TakeState, seat: int | None) -> TakeView:
        secret = None if seat is None else state.secrets[seat]
        return TakeView(
            seat,
            state.pile,
            state.turn,
            state.scores,
            secret,
            state.options,
            state.rounds_left,
            state.rounds_done,
        )

    def redact(self, event: Event, seat: int | None) -> Event:
        if isinstance(event, RoundScored) and seat != 0:
            return RoundScored(event.items, None)
        return event

    def shuffle_hidden(self, state: TakeState, seat: int | None, rng: random.Random) -> TakeState:
        return state

    def resample_from_view(self, view: TakeView, rng: random.Random) -> TakeState:
        """Everything but the other players' secrets is in the view; those are dealt."""
        players = len(view.scores)
        secrets = tuple(
            view.secret if i == view.seat and view.secret is not None else rng.randrange(100)
            for i in range(players)
        )
        return TakeState(
            players,
            view.options,
            view.pile,
            view.turn,
            view.scores,
            view.rounds_left,
            view.rounds_done,
            secrets,
            rng.randrange(1 << 30),
        )

    def greedy_policy(self) -> TakeGreedy:
        return TakeGreedy()

    def view_to_json(self, view: TakeView) -> dict[str, Any]:
        return {"pile": view.pile, "turn": view.turn, "scores": list(view.scores)}

    def render_view(self, view: TakeView) -> str:
        return f"pile {view.pile}; scores {list(view.scores)}; your secret {view.secret}"

    def view_seat(self, view: TakeView) -> int | None:
        return view.seat

    def format_action(self, action: int) -> str:
        return f"take {action}"

    def parse_action(self, state: TakeState, text: str) -> int:
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] == "take" and words[1].isdigit():
            return int(words[1])
        raise InvalidNotationError(f"write a move as 'take N'; got {text!r}")

    def format_position(self, state: TakeState) -> str:
        opts = ",".join(f"{k}={v}" for k, v in state.options.items())
        return (
            f"take {state.players} {state.pile} {state.turn} "
            f"{','.join(map(str, state.scores))} {state.rounds_left} {state.rounds_done} "
            f"{','.join(map(str, state.secrets))} {state.seed} {opts}"
        )

    def parse_position(self, text: str) -> TakeState:
        words = text.split()
        if len(words) != 10 or words[0] != "take":
            raise InvalidPositionError(f"a Take position has 10 words; got {len(words)}")
        try:
            players, pile, turn = int(words[1]), int(words[2]), int(words[3])
            scores = tuple(int(x) for x in words[4].split(","))
            left, done = int(words[5]), int(words[6])
            secrets = tuple(int(x) for x in words[7].split(","))
            seed = int(words[8])
        except ValueError:
            raise InvalidPositionError("a Take position has numbers where numbers go") from None
        opts = SCHEMA.parse_assignments(words[9].split(","))
        return TakeState(players, opts, pile, turn, scores, left, done, secrets, seed)

    def invariant_failures(self, state: TakeState) -> list[str]:
        return [] if state.pile >= 0 else ["negative pile"]


GAME = TakeGame()
