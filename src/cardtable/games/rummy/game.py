"""The Rummy game object: the contract of :class:`cardtable.core.game.Game` for Czech Rummy.

>>> from cardtable.games.rummy import GAME
>>> s = GAME.new_game(2, seed=1, scope="unit")
>>> [GAME.format_action(a) for a in GAME.legal_actions(s)]
['DRAW_STOCK', 'TAKE_DISCARD']
>>> s, events = GAME.apply(s, GAME.parse_action(s, "draw"))
>>> GAME.to_act(s) == s.current, s.phase.name
(True, 'PLAY')
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardtable.core.encoding import Encoding
from cardtable.core.errors import IllegalActionError, InvalidOptionError
from cardtable.core.game import Event, Game, GameInfo, Outcome, Scope
from cardtable.core.kit import SearchProfile
from cardtable.core.options import Options, OptionSpec
from cardtable.core.present import Message, OptionText, ScoreTable
from cardtable.core.rng import derive_rng
from cardtable.games.rummy import notation, present, rules, search, view
from cardtable.games.rummy.determinize import RummySampler
from cardtable.games.rummy.encoding import ENCODING
from cardtable.games.rummy.greedy import RummyGreedyBot
from cardtable.games.rummy.playout import random_playout
from cardtable.games.rummy.scoring import rank_winners
from cardtable.games.rummy.state import (
    JOKER0,
    LAYOFF,
    OPTIONS,
    Phase,
    RummyAction,
    RummyState,
    card_text,
    make_config,
)
from cardtable.games.rummy.view import RummyView

__all__ = ["RummyGame"]


INFO = GameInfo(
    name="rummy",
    title="Rummy",
    aliases=("czech-rummy",),
    min_players=2,
    max_players=12,
    default_players=2,
    options=OPTIONS,
    unit="round",
    summary="Czech Rummy: runs and sets, lay off anywhere, Q♠ costs 40, closer +25.",
)
"""Rummy's declared metadata."""


class RummyGame(Game[RummyState, RummyAction, RummyView]):
    """Czech Rummy (žolíky), every §R12 variant as an option."""

    info = INFO

    # -- set-up ---------------------------------------------------------------------
    def new_game(
        self,
        players: int,
        options: Options | Mapping[str, object] | None = None,
        seed: int = 0,
        scope: Scope = "match",
    ) -> RummyState:
        """Deal the first round; the first dealer is chosen at random from ``seed`` (R3.1)."""
        self.check_players(players)
        if scope not in ("match", "unit"):
            raise InvalidOptionError(f"scope is match or unit; got {scope!r}")
        cfg = make_config(players, self.resolve_options(options))
        dealer = derive_rng(seed, "dealer").randrange(players)
        zero = (0,) * players
        state, _ = rules.deal(cfg, seed, scope, 0, dealer, zero, zero, zero)
        return state

    def players(self, state: RummyState) -> int:
        """The number of seats."""
        return state.cfg.players

    def options(self, state: RummyState) -> Options:
        """The validated options."""
        return state.cfg.options

    # -- play -----------------------------------------------------------------------
    def to_act(self, state: RummyState) -> int | None:
        """The seat to act, or None once the game is over."""
        return None if state.phase == Phase.OVER else state.current

    # The contract's legal_actions, is_legal and apply are the rules' functions themselves
    # (compiled, with no interpreted frame around them): every legal action in canonical
    # order, draws, melds, lay-offs, swaps, discards (:func:`rules.legal_actions`); whether
    # an action is legal (:func:`rules.is_legal`); the next state and its events, or
    # IllegalActionError, the generator asked about that one action (:func:`rules.apply_checked`).
    legal_actions = staticmethod(rules.legal_actions)
    is_legal = staticmethod(rules.is_legal)
    apply = staticmethod(rules.apply_checked)

    def explain_illegal(self, state: RummyState, action: RummyAction) -> IllegalActionError:
        """The rule id and a one-line reason why an action is not legal."""
        return rules.explain_illegal(state, action)

    def describe_outcome(self, outcome: Outcome) -> Message | None:
        """How the game ended in the game's words (see :func:`.present.describe_outcome`)."""
        return present.describe_outcome(outcome)

    def outcome(self, state: RummyState) -> Outcome | None:
        """Totals and winners once the game is over (R10)."""
        if state.phase != Phase.OVER:
            return None
        winners = rank_winners(state.scores, state.closes, state.penalties)
        n = state.cfg.players
        detail = "blocked" if state.last_closer < 0 else f"P{state.last_closer + 1} went out"
        return Outcome(
            tuple((i,) for i in range(n)), state.scores, winners, f"last round: {detail}"
        )

    def playout(self, state: RummyState, rng: random.Random) -> tuple[RummyState, int]:
        """Random legal actions to the end of the game by the fast path of
        :mod:`cardtable.games.rummy.playout`: the contract loop's final state and action
        count for the same generator, without per-action states and events."""
        return random_playout(state, rng)

    def units_played(self, state: RummyState) -> int:
        """Rounds completed."""
        return state.round_no

    # -- hidden information -----------------------------------------------------------
    def view(self, state: RummyState, seat: int | None) -> RummyView:
        """What ``seat`` may know."""
        return view.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        """The event as ``seat`` may see it."""
        return view.redact(event, seat)

    def shuffle_hidden(self, state: RummyState, seat: int | None, rng: random.Random) -> RummyState:
        """The state with the cards hidden from ``seat`` permuted among hidden places."""
        return view.shuffle_hidden(state, seat, rng)

    def view_to_json(self, view_: RummyView) -> dict[str, Any]:
        """A view as JSON."""
        return view.view_to_json(view_)

    def render_view(self, view_: RummyView) -> str:
        """A view as terminal text."""
        return view.render_view(view_)

    def view_seat(self, view_: RummyView) -> int | None:
        """The seat of a view."""
        return view_.seat

    # -- the kit for search and bots ----------------------------------------------------
    def resample_from_view(self, view_: RummyView, rng: random.Random) -> RummyState:
        """A full state consistent with ``view_`` (see :mod:`.determinize`)."""
        return RummySampler(view_)(rng)

    def view_sampler(self, view_: RummyView) -> RummySampler:
        """The view's hidden cards worked out once, for a whole search."""
        return RummySampler(view_)

    def greedy_policy(self) -> RummyGreedyBot:
        """The greedy bot of :mod:`.greedy`."""
        return RummyGreedyBot()

    def search_profile(self) -> SearchProfile:
        """Points, fast paths and the ``hard`` budget of :mod:`.search`."""
        return search.search_profile(self)

    # -- notation -------------------------------------------------------------------
    def format_action(self, action: RummyAction) -> str:
        """Canonical action text."""
        return notation.format_action(action)

    def display_key(self, action: RummyAction) -> tuple[object, ...]:
        """Lay-offs grouped by the meld they go to, then the rest by their text."""
        text = notation.format_action(action)
        if action.kind == LAYOFF:
            return (1, action.target, text)
        return (0 if not text.startswith("DISCARD") else 2, 0, text)

    def parse_action(self, state: RummyState, text: str) -> RummyAction:
        """Read an action (lenient: lower case, any card order, omitted joker meanings
        when they are forced)."""
        return notation.parse_action(state, text, rules.legal(state)[0])

    def format_position(self, state: RummyState) -> str:
        """The canonical position text."""
        return notation.format_position(state)

    def parse_position(self, text: str) -> RummyState:
        """Read a position."""
        return notation.parse_position(text)

    # -- checks -----------------------------------------------------------------------
    def invariant_failures(self, state: RummyState) -> list[str]:
        """Card conservation (52/54/104/108), a sound turn state, sane counters, and publicly
        known cards in their hands."""
        cfg = state.cfg
        out: list[str] = []
        seen = 0
        total = 0
        places: list[tuple[str, list[int]]] = [
            (f"P{i + 1}", [c for c in range(108) if h >> c & 1]) for i, h in enumerate(state.hands)
        ]
        places.append(("stock", list(state.stock)))
        places.append(("discard", list(state.discard)))
        places.append(("out", [c for c in range(108) if state.out >> c & 1]))
        for i, m in enumerate(state.melds):
            places.append((f"M{i + 1}", list(m.cards)))
        for name, cards in places:
            for c in cards:
                total += 1
                if seen >> c & 1:
                    out.append(f"{card_text(c)} appears twice (again in {name})")
                seen |= 1 << c
        if seen != cfg.all_cards:
            out.append("cards missing or foreign: conservation broken")
        if total != cfg.pack_size:
            out.append(f"{total} cards in play; expected {cfg.pack_size}")
        if state.phase == Phase.DRAW and (state.taken >= 0 or state.obligations):
            out.append("a turn in DRAW has a taken card or obligations")
        if state.phase != Phase.OVER and not state.hands[state.current]:
            out.append("the player to act has no cards")
        if state.obligations & ~state.hands[state.current]:
            out.append("an obligated card is not in the current hand")
        in_hands = 0
        for h in state.hands:
            in_hands |= h
        if state.known & ~in_hands:
            out.append("a card publicly known to be in a hand is in none")
        if state.phase == Phase.PLAY:
            public = state.obligations | (1 << state.taken if state.taken >= 0 else 0)
            if public & ~state.known:
                out.append("the taken card or an obligated card is not publicly known")
        if cfg.max_turnovers >= 0 and state.turnovers > cfg.max_turnovers:
            out.append("too many turnovers")
        if state.turn_no >= cfg.max_turns and state.phase != Phase.OVER:
            out.append("the turn limit was passed")
        for i, m in enumerate(state.melds):
            nat = sum(1 for c in m.cards if c < JOKER0)
            if nat < 1 or len(m.cards) < 3:
                out.append(f"M{i + 1} is not a valid meld")
        if state.phase == Phase.OVER and state.last_closer >= 0:
            if state.hands[state.last_closer]:
                out.append("the closer still holds cards")
            if state.last_scores[state.last_closer] != 25:
                out.append("the closer did not score +25")
        return out

    # -- research encodings -------------------------------------------------------------------
    def encoding(self) -> Encoding[RummyAction, RummyView]:
        """The action-id space and observation layout of :mod:`.encoding`."""
        return ENCODING

    # -- presentation -----------------------------------------------------------------------
    def describe_event(self, event: Event) -> Message:
        """An event as a message id with typed parameters (see ``present``)."""
        return present.describe_event(event) or super().describe_event(event)

    def describe_action(self, text: str, view: RummyView) -> Message | None:
        """A legal action in words, builds and melds by their cards (see ``present``)."""
        return present.describe_action(text, view)

    def option_text(self, spec: OptionSpec) -> OptionText:
        """An option's label, help and choice labels as message ids."""
        return present.option_text(spec)

    def score_table(self, event: Event) -> ScoreTable | None:
        """The end-of-unit score breakdown an event carries, as rows."""
        return present.score_table(event)


GAME = RummyGame()
"""The Rummy game instance registered as ``rummy``."""
