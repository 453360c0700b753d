"""The working state of a round: the one implementation of what each action does.

A :class:`Board` is a mutable copy of a :class:`~cardtable.games.rummy.state.RummyState`'s
round (hands, stock, discard pile, melds, the turn's bookkeeping).  Its four moves —
:meth:`Board.draw_stock`, :meth:`Board.take`, :meth:`Board.play` and :meth:`Board.discard_card` —
are every change an action makes to a round, and :meth:`Board.freeze` gives the state value
back.  The contract's pure ``apply`` (:func:`~cardtable.games.rummy.rules.apply_action`)
copies the state into a board, makes one move with an event list and freezes the board; the
random playouts (:mod:`cardtable.games.rummy.playout`) keep one board for a whole round and
pass no event list, so no event is built.  A move returns :data:`CONTINUES`, or the closer
of the round it ended (-1 for a blocked round, R7.3-R7.5): scoring and the next deal are
:func:`~cardtable.games.rummy.rules.end_round`'s, on the frozen board.

Moves do not check legality: the legal-action generator
(:func:`~cardtable.games.rummy.rules.legal`) does, and a play's outcome comes from it.

>>> from cardtable.games.rummy import GAME
>>> state = GAME.new_game(2, seed=3)
>>> board = Board(state)
>>> board.draw_stock(None)
-2
>>> after = board.freeze()
>>> after.phase, bin(after.hands[after.current] ^ state.hands[state.current]).count("1")
(<Phase.PLAY: 1>, 1)
"""

from __future__ import annotations

from typing import Final

from cardtable.core.game import Event
from cardtable.games.rummy.events import (
    Discarded,
    DrewStock,
    LaidOff,
    Melded,
    StockTurnedOver,
    SwappedJoker,
    TookDiscard,
)
from cardtable.games.rummy.melds import meld_text, slot_text
from cardtable.games.rummy.plays import Play
from cardtable.games.rummy.state import (
    LAYOFF,
    MELD,
    Config,
    Meld,
    Phase,
    RummyState,
    card_text,
)

__all__ = ["CONTINUES", "Board", "take_result"]

CONTINUES: Final = -2
"""What a move returns when the round goes on (else the closer, -1 when blocked)."""

_DRAW_PHASE: Final = Phase.DRAW
_PLAY_PHASE: Final = Phase.PLAY
_STATE: Final = RummyState
"""The state class, as a compiled module's constant (``freeze`` builds states with it)."""


def take_result(
    cfg: Config, discard: tuple[int, ...], depth: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(cards taken, discard pile after, chosen card) for TAKE@depth (R4.5, R11)."""
    n = len(discard)
    chosen = discard[n - 1 - depth]
    if depth == 0 or cfg.pickup == 1:
        return discard[n - 1 - depth :], discard[: n - 1 - depth], chosen
    return (chosen,), discard[: n - 1 - depth] + discard[n - depth :], chosen


# Events are immutable values: the DrewStock and Discarded events of each seat and card are
# made the first time they happen and shared after (no event built on most actions).
_SEATS: Final = 12
_CARDS: Final = 108
_DREW: Final[list[DrewStock | None]] = [None] * (2 * _SEATS * _CARDS)
_DISCARDED: Final[list[Discarded | None]] = [None] * (_SEATS * _CARDS)


def _drew(seat: int, card: int, public: bool) -> DrewStock:
    """``DrewStock(seat, card_text(card), public)``, shared."""
    key = (seat * _CARDS + card) * 2 + (1 if public else 0)
    found = _DREW[key]
    if found is None:
        found = _DREW[key] = DrewStock(seat, card_text(card), public)
    return found


def _discarded(seat: int, card: int) -> Discarded:
    """``Discarded(seat, card_text(card))``, shared."""
    key = seat * _CARDS + card
    found = _DISCARDED[key]
    if found is None:
        found = _DISCARDED[key] = Discarded(seat, card_text(card))
    return found


class Board:
    """A round in progress, changed in place by the four moves (see the module's text).

    The fields are the state's (``stock[sp:]`` is the stock, index 0 the top card); the
    fields that stay put for a round are read from ``base``, the state the board was made
    from.
    """

    base: RummyState
    cfg: Config
    phase: Phase
    current: int
    hands: list[int]
    known: int
    stock: tuple[int, ...]
    sp: int
    discard: list[int]
    melds: tuple[Meld, ...]
    taken: int
    obligations: int
    melds_this_turn: int
    placed_this_turn: bool
    placed: tuple[bool, ...]
    turn_no: int
    turnovers: int
    stock_public: bool
    passed: list[int]

    def __init__(self, state: RummyState) -> None:
        self.base = state
        self.cfg = state.cfg
        self.phase = state.phase
        self.current = state.current
        self.hands = list(state.hands)
        self.known = state.known
        self.stock = state.stock
        self.sp = 0
        self.discard = list(state.discard)
        self.melds = state.melds
        self.taken = state.taken
        self.obligations = state.obligations
        self.melds_this_turn = state.melds_this_turn
        self.placed_this_turn = state.placed_this_turn
        self.placed = state.placed
        self.turn_no = state.turn_no
        self.turnovers = state.turnovers
        self.stock_public = state.stock_public
        self.passed = list(state.passed)

    def freeze(self) -> RummyState:
        """The state value of the board (the only place a state is built field by field)."""
        base = self.base
        stock = self.stock
        return tuple.__new__(
            _STATE,
            (
                self.cfg,
                base.seed,
                base.scope,
                base.round_no,
                base.dealer,
                self.phase,
                self.current,
                tuple(self.hands),
                self.known,
                stock[self.sp :] if self.sp else stock,
                tuple(self.discard),
                self.melds,
                self.taken,
                self.obligations,
                self.melds_this_turn,
                self.placed_this_turn,
                self.placed,
                self.turn_no,
                self.turnovers,
                self.stock_public,
                base.scores,
                base.closes,
                base.penalties,
                base.last_closer,
                base.last_scores,
                base.out,
                tuple(self.passed),
            ),
        )

    def draw_stock(self, events: list[Event] | None) -> int:
        """DRAW_STOCK (R4.2): the top stock card to the hand, turning the discard pile over
        into a new, public stock when the stock is empty (R7.1), or blocking the round
        when it cannot be (R7.3-R7.5)."""
        seat = self.current
        discard = self.discard
        if self.sp == len(self.stock):
            if not discard or self.turnovers == self.cfg.max_turnovers:
                return -1
            self.stock = tuple(discard)
            self.sp = 0
            discard.clear()
            self.turnovers += 1
            self.stock_public = True
            if events is not None:
                events.append(StockTurnedOver(seat, self.turnovers, len(self.stock)))
        elif discard:  # the top of the pile, passed up for the stock (public)
            self.passed[seat] |= 1 << discard[-1]
        card = self.stock[self.sp]
        self.sp += 1
        if events is not None:
            events.append(_drew(seat, card, self.stock_public))
        self.hands[seat] |= 1 << card
        if self.stock_public:  # everyone knows the order of a turned-over stock (R4.9)
            self.known |= 1 << card
        self._start_play()
        return CONTINUES

    def take(self, depth: int, events: list[Event] | None) -> int:
        """TAKE_DISCARD at ``depth`` (R4.5, R11): the chosen card (with those above it,
        under anyWithAbove) to the hand, face up; a card from below the top, or the top
        one under pickupMustBeUsed, must be played this turn (R4.8, R11.2)."""
        seat = self.current
        cfg = self.cfg
        discard = self.discard
        if depth == 0 and not cfg.must_use:  # the common case, without tuples
            chosen = discard.pop()
            bits = 1 << chosen
            cards: tuple[int, ...] = (chosen,)
        else:
            cards, after, chosen = take_result(cfg, tuple(discard), depth)
            self.discard = list(after)
            bits = 0
            for c in cards:
                bits |= 1 << c
        if events is not None:
            events.append(
                TookDiscard(seat, depth, tuple([card_text(c) for c in cards]), card_text(chosen))
            )
        self.hands[seat] |= bits
        self.known |= bits  # taken face up: known to all (R4.9)
        self._start_play()
        self.taken = chosen if depth == 0 else -1
        if depth > 0 or cfg.must_use:
            self.obligations = 1 << chosen
        return CONTINUES

    def _start_play(self) -> None:
        self.phase = _PLAY_PHASE
        self.taken = -1
        self.obligations = 0
        self.melds_this_turn = 0
        self.placed_this_turn = False

    def play(self, play: Play, events: list[Event] | None) -> int:
        """A MELD, LAYOFF or SWAP (R5, R6, R8.7) with its outcome from the generator: a
        joker freed by a swap comes to the hand face up and must be played this turn."""
        seat = self.current
        action, nh, melds, nmade, freed = play
        if events is not None:
            kind = action.kind
            if kind == MELD:
                events.append(Melded(seat, len(melds) - 1, meld_text(melds[-1])))
            elif kind == LAYOFF:
                text = slot_text(action.cards[0], action.meanings[0])
                events.append(LaidOff(seat, action.target, text))
            else:
                cards = action.cards
                events.append(
                    SwappedJoker(seat, action.target, card_text(cards[0]), card_text(cards[1]))
                )
        hand = self.hands[seat]
        self.hands[seat] = nh
        if self.known:  # the cards played leave it
            self.known &= ~(hand ^ nh)
        if freed:
            self.known |= freed
        self.melds = melds
        self.melds_this_turn = nmade
        self.placed_this_turn = True
        if not nh:
            self.taken = -1
            self.obligations = 0
            return seat
        self.obligations = (self.obligations & nh) | freed
        taken = self.taken
        if taken >= 0 and not nh >> taken & 1:
            self.taken = -1
        return CONTINUES

    def discard_card(self, card: int, events: list[Event] | None) -> int:
        """DISCARD (R4.4): the card to the pile, which ends the turn; an empty hand closes
        the round (R9.1), and so does the last turn a round may have (R7.3)."""
        seat = self.current
        bit = 1 << card
        if events is not None:
            events.append(_discarded(seat, card))
        hand = self.hands[seat] ^ bit
        self.hands[seat] = hand
        if self.known & bit:
            self.known ^= bit
        self.discard.append(card)
        self.taken = -1
        if not hand:
            return seat
        self.turn_no += 1
        if self.turn_no >= self.cfg.max_turns:
            return -1
        if self.placed_this_turn and not self.placed[seat]:
            placed = self.placed
            self.placed = (*placed[:seat], True, *placed[seat + 1 :])
        self.current = (seat + 1) % self.cfg.players
        self.phase = _DRAW_PHASE
        self.obligations = 0
        self.melds_this_turn = 0
        self.placed_this_turn = False
        return CONTINUES
