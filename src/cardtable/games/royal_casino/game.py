"""Royal Casino behind the game contract."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cardtable.cards import FULL_DECK, iter_mask
from cardtable.core.encoding import Encoding
from cardtable.core.errors import IllegalActionError
from cardtable.core.game import Event, Game, GameInfo, Outcome, Scope
from cardtable.core.kit import SearchProfile
from cardtable.core.options import Options, OptionSpec
from cardtable.core.present import Message, OptionText, ScoreTable
from cardtable.core.rng import derive_rng
from cardtable.games.royal_casino import notation, present, rules, search, view
from cardtable.games.royal_casino.determinize import RoyalCasinoSampler
from cardtable.games.royal_casino.encoding import ENCODING
from cardtable.games.royal_casino.greedy import RoyalCasinoGreedyBot
from cardtable.games.royal_casino.playout import random_playout
from cardtable.games.royal_casino.state import OPTIONS, Phase, RoyalCasinoAction, RoyalCasinoState
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = ["GAME", "RoyalCasinoGame"]

INFO = GameInfo(
    name="royal-casino",
    title="Royal Casino",
    aliases=("casino", "royal_casino", "royalcasino"),
    min_players=2,
    max_players=4,
    default_players=2,
    options=OPTIONS,
    unit="hand",
    summary="The Dominican fishing game: capture, build and sweep to 21.",
)


class RoyalCasinoGame(Game[RoyalCasinoState, RoyalCasinoAction, RoyalCasinoView]):
    """Royal Casino (Dominican rules; the guide is ``rules/<lang>.md``).

    >>> s = GAME.new_game(2, seed=1)
    >>> GAME.to_act(s) in (0, 1), len(GAME.legal_actions(s)) > 0
    (True, True)
    """

    info = INFO

    # -- set-up ---------------------------------------------------------------------
    def new_game(
        self,
        players: int,
        options: Options | Mapping[str, object] | None = None,
        seed: int = 0,
        scope: Scope = "match",
    ) -> RoyalCasinoState:
        """A new game: the first dealer is drawn from the seed (C1.4), then the deal."""
        self.check_players(players)
        opts = self.resolve_options(options)
        dealer = derive_rng(seed, "first-dealer").randrange(players)
        sides = 2 if players == 4 else players
        blank = RoyalCasinoState(
            players,
            opts,
            scope,
            seed,
            1,
            dealer,
            0,
            Phase.PLAY,
            (0,) * players,
            (),
            0,
            (),
            (0,) * sides,
            (0,) * sides,
            -1,
            (0,) * sides,
            False,
        )
        state, _ = rules.deal_hand(blank, 1, dealer)
        return state

    def players(self, state: RoyalCasinoState) -> int:
        """The number of seats."""
        return state.players

    def options(self, state: RoyalCasinoState) -> Options:
        """The options in force."""
        return state.options

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Partnerships {0, 2} and {1, 3} with four players (C1.2); else everyone alone."""
        if players == 4:
            return ((0, 2), (1, 3))
        return tuple((s,) for s in range(players))

    # -- play -----------------------------------------------------------------------
    def to_act(self, state: RoyalCasinoState) -> int | None:
        """The seat to play, or None when the game is over."""
        return None if state.phase == Phase.OVER else state.turn

    # The contract's legal_actions and apply are the rules' functions themselves (compiled,
    # with no interpreted frame around them): every legal move, the single source of truth
    # (:func:`rules.legal_actions`); the move played, or IllegalActionError with the state
    # unchanged if it is not legal (:func:`rules.apply_checked`).
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply_checked)

    def playout(self, state: RoyalCasinoState, rng: random.Random) -> tuple[RoyalCasinoState, int]:
        """Random legal moves to the end: the contract loop's game, on the fast path."""
        return random_playout(state, rng)

    def explain_illegal(
        self, state: RoyalCasinoState, action: RoyalCasinoAction
    ) -> IllegalActionError:
        """Why a move is not legal."""
        return rules.explain_illegal(state, action)

    def describe_outcome(self, outcome: Outcome) -> Message | None:
        """How the game ended in the game's words (see :func:`.present.describe_outcome`)."""
        return present.describe_outcome(outcome)

    def outcome(self, state: RoyalCasinoState) -> Outcome | None:
        """Final scores and winners once over (for a single hand: the hand's points)."""
        if state.phase != Phase.OVER:
            return None
        detail = "one hand" if state.scope == "unit" else "match to 21"
        return Outcome(self.sides(state.players), state.scores, state.winners, detail)

    def units_played(self, state: RoyalCasinoState) -> int:
        """Hands completed."""
        return state.hand_no if state.phase == Phase.OVER else state.hand_no - 1

    # -- hidden information -----------------------------------------------------------
    def view(self, state: RoyalCasinoState, seat: int | None) -> RoyalCasinoView:
        """What a seat may know."""
        return view.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event:
        """An event as a seat may see it."""
        return view.redact(event, seat)

    def view_to_json(self, v: RoyalCasinoView) -> dict[str, Any]:
        """A view as JSON."""
        return view.view_to_json(v)

    def render_view(self, v: RoyalCasinoView) -> str:
        """A view as terminal text."""
        return view.render_view(v)

    def view_seat(self, v: RoyalCasinoView) -> int | None:
        """The seat of a view."""
        return v.seat

    def shuffle_hidden(
        self, state: RoyalCasinoState, seat: int | None, rng: random.Random
    ) -> RoyalCasinoState:
        """Redistribute the other hands and the stock at random, keeping their sizes."""
        others = [i for i in range(state.players) if i != seat]
        pool = [c for i in others for c in iter_mask(state.hands[i])] + list(state.stock)
        rng.shuffle(pool)
        hands = list(state.hands)
        pos = 0
        for i in others:
            size = state.hands[i].bit_count()
            m = 0
            for c in pool[pos : pos + size]:
                m |= 1 << c
            hands[i] = m
            pos += size
        return state._replace(hands=tuple(hands), stock=tuple(pool[pos:]))

    # -- the kit for search and bots ----------------------------------------------------
    def resample_from_view(self, v: RoyalCasinoView, rng: random.Random) -> RoyalCasinoState:
        """A full state consistent with ``v`` (see :mod:`.determinize`)."""
        return RoyalCasinoSampler(v)(rng)

    def view_sampler(self, v: RoyalCasinoView) -> RoyalCasinoSampler:
        """The view's hidden cards worked out once, for a whole search."""
        return RoyalCasinoSampler(v)

    def greedy_policy(self) -> RoyalCasinoGreedyBot:
        """The greedy bot of :mod:`.greedy`."""
        return RoyalCasinoGreedyBot()

    def search_profile(self) -> SearchProfile:
        """Points, fast paths and the ``hard`` budget of :mod:`.search`."""
        return search.search_profile()

    # -- notation -------------------------------------------------------------------
    def format_action(self, action: RoyalCasinoAction) -> str:
        """Canonical move text."""
        return notation.format_move(action)

    def parse_action(self, state: RoyalCasinoState, text: str) -> RoyalCasinoAction:
        """Read a move (lenient: case, ``→``, a bare card when unambiguous)."""
        return notation.parse_move(state, text)

    def format_position(self, state: RoyalCasinoState) -> str:
        """Canonical position text."""
        return notation.format_position(state)

    def parse_position(self, text: str) -> RoyalCasinoState:
        """Read a position."""
        return notation.parse_position(text)

    def migrate_position(self, text: str, version: int) -> str:
        """A position of an older record format, with its seats renumbered ``P1`` …."""
        return notation.migrate_position(text, version)

    # -- checks -------------------------------------------------------------------------
    def invariant_failures(self, state: RoyalCasinoState) -> list[str]:
        """Card conservation (C6.5c), build sanity, and no build left at the end (C6.5b)."""
        failures = []
        masks = [*state.hands, state.loose, *(b.mask for b in state.builds), *state.piles]
        stock = 0
        for c in state.stock:
            stock |= 1 << c
        masks.append(stock)
        total = 0
        union = 0
        for m in masks:
            total += m.bit_count()
            union |= m
        if total != 52 or union != FULL_DECK or len(state.stock) != stock.bit_count():
            failures.append(f"C6.5c: {total} cards in play, {union.bit_count()} distinct")
        for i, b in enumerate(state.builds):
            if not 2 <= b.value <= 14:
                failures.append(f"b{i + 1} has value {b.value}")
            cm = 0
            for c in b.comps:
                cm |= c
            if cm != b.mask:
                failures.append(f"b{i + 1}: components do not match its cards")
        if state.phase == Phase.OVER:
            if state.builds:
                failures.append("C6.5b: a build is left at the end of the hand")
            if state.loose and state.last_capturer >= 0:
                failures.append("C8.1: leftovers were not taken")
        hand_sizes = {h.bit_count() for h in state.hands}
        if state.phase == Phase.PLAY and max(hand_sizes) - min(hand_sizes) > 1:
            failures.append("hand sizes differ by more than one card")
        return failures

    # -- research encodings -------------------------------------------------------------------
    def encoding(self) -> Encoding[RoyalCasinoAction, RoyalCasinoView]:
        """The action-id space and observation layout of :mod:`.encoding`."""
        return ENCODING

    # -- presentation -----------------------------------------------------------------------
    def describe_event(self, event: Event) -> Message:
        """An event as a message id with typed parameters (see ``present``)."""
        return present.describe_event(event) or super().describe_event(event)

    def describe_action(self, text: str, view: RoyalCasinoView) -> Message | None:
        """A legal action in words, builds and melds by their cards (see ``present``)."""
        return present.describe_action(text, view)

    def option_text(self, spec: OptionSpec) -> OptionText:
        """An option's label, help and choice labels as message ids."""
        return present.option_text(spec)

    def score_table(self, event: Event) -> ScoreTable | None:
        """The end-of-unit score breakdown an event carries, as rows."""
        return present.score_table(event)


GAME = RoyalCasinoGame()
"""The Royal Casino game object registered as ``royal-casino``."""
