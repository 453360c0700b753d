"""Royal Mastheads behind the one game contract (:class:`~cardtable.core.game.Game`).

>>> s = GAME.new_game(4, {"ruleset": "russian", "deals": 2}, seed=9)
>>> GAME.to_act(s) is not None, GAME.format_action(GAME.legal_actions(s)[0])[:4]
(True, 'pot ')
>>> s, events = GAME.apply(s, GAME.parse_action(s, GAME.format_action(GAME.legal_actions(s)[0])))
>>> [e.kind for e in events]
['pot_card_chosen']
>>> GAME.apply(s, 0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cardtable.core.errors.IllegalActionError: M-7: first each player puts two cards into the pot; ...
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardtable.core.encoding import Encoding
from cardtable.core.errors import IllegalActionError
from cardtable.core.game import Event, Game, GameInfo, Outcome, Scope
from cardtable.core.kit import SearchProfile
from cardtable.core.options import Options, OptionSpec, OptionValue
from cardtable.core.present import Message, OptionText, ScoreTable
from cardtable.games.royal_mastheads import notation, present, rules, search
from cardtable.games.royal_mastheads import view as view_mod
from cardtable.games.royal_mastheads.determinize import MastheadsSampler
from cardtable.games.royal_mastheads.encoding import ENCODING
from cardtable.games.royal_mastheads.engine import Deal
from cardtable.games.royal_mastheads.greedy import MastheadsGreedyBot
from cardtable.games.royal_mastheads.scoring import reference_card_points, score_deal
from cardtable.games.royal_mastheads.state import (
    BIT,
    OPTIONS,
    SUIT,
    Phase,
    RoyalMastheadsAction,
    RoyalMastheadsState,
    is_validated,
)
from cardtable.games.royal_mastheads.view import RoyalMastheadsView

__all__ = ["GAME", "INFO", "RoyalMastheadsGame"]

INFO = GameInfo(
    name="royal-mastheads",
    title="Royal Mastheads",
    aliases=("mastheads", "korolevskoe-nakazanie"),
    min_players=4,
    max_players=4,
    default_players=4,
    options=OPTIONS,
    unit="deal",
    summary=(
        "Four players, trumps and a masthead rank from a turned card, a secret two-card pot "
        "for the strict trick leader, progressive card points; a set of 10 deals."
    ),
)
"""The declared metadata of Royal Mastheads."""

_OVER = Phase.OVER
_PLAY = Phase.PLAY
_POT = Phase.POT
_DEFAULTS = OPTIONS.defaults()


class RoyalMastheadsGame(Game[RoyalMastheadsState, RoyalMastheadsAction, RoyalMastheadsView]):
    """Royal Mastheads (``royal-mastheads``): rules M-1 … M-17 of the shared spec.

    Actions are ints (``0..51`` play a card, ``52 + card`` puts a card into the pot).
    """

    info = INFO

    # -- set-up -----------------------------------------------------------------------
    def new_game(
        self,
        players: int,
        options: Options | Mapping[str, object] | None = None,
        seed: int = 0,
        scope: Scope = "match",
    ) -> RoyalMastheadsState:
        """A new set (scope ``match``) or single deal (scope ``unit``), dealt from ``seed``."""
        self.check_players(players)
        return rules.new_match_state(self.resolve_options(options), seed, scope)

    def resolve_options(self, options: Options | Mapping[str, object] | None) -> Options:
        """Validate options; options this game already validated (or none) are reused as they
        are, so starting many deals with the same options costs nothing."""
        if options is None:
            return _DEFAULTS
        if isinstance(options, Options) and is_validated(options):
            return options
        return super().resolve_options(options)

    def players(self, state: RoyalMastheadsState) -> int:
        """Always 4 (M-1)."""
        return 4

    def options(self, state: RoyalMastheadsState) -> Options:
        """The options the game is played with."""
        return state.info.cfg.options

    # -- play -------------------------------------------------------------------------
    def to_act(self, state: RoyalMastheadsState) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        phase = state.phase
        if phase is _PLAY:
            return (state.leader + len(state.trick)) & 3
        if phase is _POT:
            return (state.info.dealer + 1 + (len(state.pot) >> 1)) & 3
        return None

    # The contract's legal_actions, apply and is_legal are the rules' functions themselves
    # (compiled, with no interpreted frame around them): every legal action in card order
    # (:func:`rules.legal_actions`); the state after an action and its events, or
    # IllegalActionError (:func:`rules.apply_checked`); whether an action is legal
    # (:func:`rules.is_legal`).
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply_checked)
    is_legal = staticmethod(rules.is_legal)

    def playout(
        self, state: RoyalMastheadsState, rng: random.Random
    ) -> tuple[RoyalMastheadsState, int]:
        """Random legal actions to the end of the game, deal by deal on the mutable
        :class:`~cardtable.games.royal_mastheads.engine.Deal`, which reaches the contract
        loop's state for the same generator (tests check it)."""
        actions = 0
        while state.phase is not Phase.OVER:
            deal = Deal(state)
            actions += deal.finish(rng)
            state = rules.finish_deal(deal)
        return state, actions

    def explain_illegal(self, state: RoyalMastheadsState, action: int) -> IllegalActionError:
        """Why ``action`` is not legal: a rule id and a one-line reason."""
        return rules.explain_illegal(state, action)

    def outcome(self, state: RoyalMastheadsState) -> Outcome | None:
        """Once over: totals by seat, the highest total wins (equal highest: co-winners)."""
        if state.phase is not _OVER:
            return None
        totals = state.info.totals
        winners = rules.winners_of(totals)
        deals = len(state.info.history)
        detail = f"{deals} deal(s)"
        if len(winners) > 1:
            detail += ", co-winners"
        return Outcome(self.sides(4), totals, winners, detail)

    def units_played(self, state: RoyalMastheadsState) -> int:
        """How many deals have been scored."""
        return len(state.info.history)

    # -- hidden information -------------------------------------------------------------
    def view(self, state: RoyalMastheadsState, seat: int | None) -> RoyalMastheadsView:
        """What ``seat`` may know (see :mod:`.view`)."""
        return view_mod.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        """The event as ``seat`` may see it."""
        return view_mod.redact(event, seat)

    def shuffle_hidden(
        self, state: RoyalMastheadsState, seat: int | None, rng: random.Random
    ) -> RoyalMastheadsState:
        """The cards hidden from ``seat`` moved at random among the hidden places."""
        return view_mod.shuffle_hidden(state, seat, rng)

    def view_to_json(self, view: RoyalMastheadsView) -> dict[str, Any]:
        """A view as a JSON object."""
        return view_mod.view_to_json(view)

    def render_view(self, view: RoyalMastheadsView) -> str:
        """A view as terminal text."""
        return view_mod.render_view(view)

    def view_seat(self, view: RoyalMastheadsView) -> int | None:
        """The seat a view belongs to."""
        return view.seat

    # -- the kit for search and bots ----------------------------------------------------
    def resample_from_view(
        self, view: RoyalMastheadsView, rng: random.Random
    ) -> RoyalMastheadsState:
        """A full state consistent with ``view`` (see :mod:`.determinize`)."""
        return MastheadsSampler(view)(rng)

    def view_sampler(self, view: RoyalMastheadsView) -> MastheadsSampler:
        """The view's hidden cards worked out once, for a whole search."""
        return MastheadsSampler(view)

    def greedy_policy(self) -> MastheadsGreedyBot:
        """The greedy bot of :mod:`.greedy`."""
        return MastheadsGreedyBot()

    def search_profile(self) -> SearchProfile:
        """Points, fast paths and the ``hard`` budget of :mod:`.search`."""
        return search.search_profile()

    # -- notation ---------------------------------------------------------------------
    def format_action(self, action: int) -> str:
        """``pot 2C`` or ``play KS``."""
        return notation.format_action(action)

    def parse_action(self, state: RoyalMastheadsState, text: str) -> int:
        """Read an action (lenient: case, ``T``/``10``, suit symbols, bare card)."""
        return notation.parse_action(state, text)

    def format_position(self, state: RoyalMastheadsState) -> str:
        """The canonical one-line position text."""
        return notation.format_position(state)

    def parse_position(self, text: str) -> RoyalMastheadsState:
        """Read a position (raises ``InvalidPositionError``)."""
        return notation.parse_position(text)

    def migrate_options(
        self, options: Mapping[str, OptionValue], version: int
    ) -> dict[str, OptionValue]:
        """Options of an older record format under today's names (``ace_points`` was
        renamed ``acePoints`` in format 2, like the other games' camel-case options)."""
        if version >= 2:
            return dict(options)
        return {notation.V1_OPTION_NAMES.get(k, k): v for k, v in options.items()}

    def migrate_position(self, text: str, version: int) -> str:
        """A position of an older record format, with its seats renumbered ``P1`` …."""
        return notation.migrate_position(text, version)

    # -- checks ---------------------------------------------------------------------------
    def invariant_failures(self, state: RoyalMastheadsState) -> list[str]:
        """Broken invariants: 52 cards conserved, hand and pot sizes, at most 11 tricks of 4,
        trick winners, and (once over) the last deal's score recomputed independently."""
        out: list[str] = []
        info = state.info
        seen = 0
        n = 0
        cards = [c for h in state.hands for c in range(52) if h >> c & 1]
        cards.extend(state.pot)
        cards.extend(state.trick)
        for t in state.tricks:
            cards.extend(t.cards)
        for c in cards:
            if seen & BIT[c]:
                out.append(f"card {c} is in two places")
            seen |= BIT[c]
            n += 1
        if n != 52:
            out.append(f"{n} cards instead of 52")
        if len(state.tricks) > 11:
            out.append(f"{len(state.tricks)} tricks")
        if state.phase is not Phase.POT and len(state.pot) != 8:
            out.append(f"the pot holds {len(state.pot)} cards after the pot phase")
        for i, t in enumerate(state.tricks):
            real = rules.trick_winner(t.cards, t.leader, info.trumps, info.cfg.ace_high)
            if real != t.winner:
                out.append(f"trick {i + 1} is won by P{real + 1}, recorded P{t.winner + 1}")
        if state.phase is Phase.PLAY:
            for seat in range(4):
                in_trick = 1 if (seat - state.leader) & 3 < len(state.trick) else 0
                want = 11 - len(state.tricks) - in_trick
                if state.hands[seat].bit_count() != want:
                    out.append(f"P{seat + 1} holds {state.hands[seat].bit_count()}, not {want}")
        if state.phase is _OVER:
            if len(state.tricks) != 11:
                out.append(f"the deal ended after {len(state.tricks)} tricks, not 11")
            else:
                out.extend(self._score_failures(state))
        return out

    def _score_failures(self, state: RoyalMastheadsState) -> list[str]:
        info = state.info
        cfg = info.cfg
        got = score_deal(cfg, info.turned, state.tricks, state.pot)
        if info.history[-1] != got.scores:
            return [f"last deal recorded {info.history[-1]}, scores {got.scores}"]
        won = [0, 0, 0, 0]
        captured: list[list[int]] = [[], [], [], []]
        for t in state.tricks:
            won[t.winner] += 1
            captured[t.winner].extend(t.cards)
        top = max(won)
        if won.count(top) == 1:
            captured[won.index(top)].extend(state.pot)
        out = []
        for s in range(4):
            cs = captured[s]
            points = reference_card_points(cfg, info.turned, cs)
            trumps = sum(1 for c in cs if SUIT[c] == info.trumps)
            heads = sum(1 for c in cs if c % 13 + 1 == info.masthead)
            royals = sum(1 for c in cs if c % 13 >= 10)
            count = trumps if cfg.count_trumps else heads
            bonus = {3: 25, 4: 50}.get(count, 0)
            if not cfg.count_trumps and count > 4:
                bonus = 50
            bonus += {9: 100, 10: 200, 11: 400}.get(won[s], 0)
            bonus += 1000 if royals == 12 else 500 if royals >= 7 else 0
            bonus += cfg.trumps_bonus if trumps == 13 else 0
            if points + bonus != got.scores[s]:
                out.append(f"P{s + 1}: recomputed {points} + {bonus}, scored {got.scores[s]}")
        return out

    # -- research encodings -------------------------------------------------------------------
    def encoding(self) -> Encoding[RoyalMastheadsAction, RoyalMastheadsView]:
        """The action-id space and observation layout of :mod:`.encoding`."""
        return ENCODING

    # -- presentation -----------------------------------------------------------------------
    def describe_event(self, event: Event) -> Message:
        """An event as a message id with typed parameters (see ``present``)."""
        return present.describe_event(event) or super().describe_event(event)

    def describe_action(self, text: str, view: RoyalMastheadsView) -> Message | None:
        """A legal action in words, builds and melds by their cards (see ``present``)."""
        return present.describe_action(text, view)

    def option_text(self, spec: OptionSpec) -> OptionText:
        """An option's label, help and choice labels as message ids."""
        return present.option_text(spec)

    def describe_outcome(self, outcome: Outcome) -> Message | None:
        """The number of deals played (and a shared win), with its plural (see
        :func:`.present.describe_outcome`)."""
        return present.describe_outcome(outcome)

    def score_table(self, event: Event) -> ScoreTable | None:
        """The end-of-unit score breakdown an event carries, as rows."""
        return present.score_table(event)


GAME = RoyalMastheadsGame()
"""The Royal Mastheads game object (register it; it holds no per-game state)."""
