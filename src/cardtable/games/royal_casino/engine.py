"""The Royal Casino engine: a position being played, as mutable fields, and the one
implementation of playing a move on it.

:class:`Board` holds what changes during a hand (hands, stock, loose cards, builds, piles,
sweeps, the last capturer, the turn) and :meth:`Board.play` applies a move and the
automatic steps after it (the next seat, a new round dealt).  Events go to an optional
list: the contract's ``apply`` passes one (:func:`apply_legal`), random playouts and
rollouts pass ``None`` and play many moves on one board.  The frozen
:class:`~cardtable.games.royal_casino.state.RoyalCasinoState` is read into a board and
written back by :meth:`Board.state`, the one place a playing position is constructed.
At the end of a hand :func:`end_hand` scores it and deals the next one.
"""

from __future__ import annotations

from typing import Final

from cardtable.core.game import Event
from cardtable.core.rng import shuffled_deck
from cardtable.games.royal_casino import events as ev
from cardtable.games.royal_casino.moves import (
    ADD,
    BUILD,
    CAPTURE,
    CLOCKWISE,
    LAST_SWEEP,
    TRAIL,
    generate,
    option_flags,
    partition,
)
from cardtable.games.royal_casino.scoring import decide_game, is_restricted, score_hand
from cardtable.games.royal_casino.state import (
    Build,
    Phase,
    RoyalCasinoAction,
    RoyalCasinoState,
    side_of,
)

__all__ = ["Board", "apply_legal", "deal_hand", "end_hand", "play_order"]

_PLAY: Final = Phase.PLAY
_STATE: Final = RoyalCasinoState
"""The state class, as a compiled module's constant (:func:`_position` builds states)."""
_CARD_TEXT: Final = ev.CARD_TEXT
_TRAILED: Final = tuple(ev.Trailed(p, _CARD_TEXT[c]) for p in range(4) for c in range(52))
"""The Trailed event of each seat and card (events are values, made once and shared)."""


def _texts(mask: int) -> tuple[str, ...]:
    """The cards of a set, in notation, in index order (``events.mask_texts``)."""
    out: list[str] = []
    while mask:
        low = mask & -mask
        out.append(_CARD_TEXT[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _position(
    state: RoyalCasinoState,
    hand_no: int,
    dealer: int,
    turn: int,
    hands: tuple[int, ...],
    stock: tuple[int, ...],
    loose: int,
    builds: tuple[Build, ...],
    piles: tuple[int, ...],
    sweeps: tuple[int, ...],
    last: int,
) -> RoyalCasinoState:
    """A position in play: the given fields, the rest (players, options, scope, seed,
    match scores) from ``state``.  ``tuple.__new__`` with every field makes the same value
    as the named tuple's constructor, without the Python frame of its generated
    ``__new__`` (this runs on every move)."""
    return tuple.__new__(
        _STATE,
        (
            state.players,
            state.options,
            state.scope,
            state.seed,
            hand_no,
            dealer,
            turn,
            _PLAY,
            hands,
            stock,
            loose,
            builds,
            piles,
            sweeps,
            last,
            state.scores,
            state.playoff,
            (),
            state.last_hand_points,
        ),
    )


def play_order(dealer: int, players: int, step: int) -> list[int]:
    """The seats in playing order for a dealer: the dealer's right first, dealer last (C3.4)."""
    return [(dealer + step * k) % players for k in range(1, players + 1)]


def _deal(order: list[int], cards: tuple[int, ...], players: int) -> list[int]:
    """Four cards to each seat in ``order`` from the front of ``cards`` (C3.1, C3.2)."""
    hands = [0] * players
    pos = 0
    for seat in order:
        for c in cards[pos : pos + 4]:
            hands[seat] |= 1 << c
        pos += 4
    return hands


class Board:
    """A position being played: the fields a move changes, mutable.

    ``start`` is the position the board was read from; what no move changes (players,
    options, scope, seed, hand number, dealer, match scores) is read from it.
    ``hand_over`` turns True once the last card of the hand is played: the position then
    waits for :func:`end_hand`.
    """

    def __init__(self, state: RoyalCasinoState) -> None:
        self.start = state
        self.players = state.players
        self.flags = option_flags(state.options)
        self.step = -1 if self.flags & CLOCKWISE else 1
        self.turn = state.turn
        self.hands = list(state.hands)
        self.stock = state.stock
        self.loose = state.loose
        self.builds = state.builds
        self.piles = state.piles
        self.sweeps = state.sweeps
        self.last = state.last_capturer
        self.hand_over = False

    def state(self) -> RoyalCasinoState:
        """The frozen position of the board."""
        start = self.start
        return _position(
            start,
            start.hand_no,
            start.dealer,
            self.turn,
            tuple(self.hands),
            self.stock,
            self.loose,
            self.builds,
            self.piles,
            self.sweeps,
            self.last,
        )

    def moves(self) -> list[RoyalCasinoAction]:
        """Every legal move of the seat to act (:func:`~.moves.generate`)."""
        p = self.turn
        return generate(p, self.hands[p], self.loose, self.builds, self.players, self.flags)

    def play(self, move: RoyalCasinoAction, events: list[Event] | None) -> None:
        """Play a legal move of the seat to act, then the automatic steps (C4–C6, C3.2);
        what happened goes to ``events`` unless it is ``None``."""
        kind, card, value, multi, named, used = move
        self.play_parts(kind, card, value, multi, named, used, events)

    def play_parts(
        self,
        kind: int,
        card: int,
        value: int,
        multi: bool,
        named: int,
        used: int,
        events: list[Event] | None,
    ) -> None:
        """:meth:`play` on the move's fields (:data:`~.moves.MoveParts`): ``named`` is
        its bit set of builds, ``used`` its loose cards."""
        p = self.turn
        bit = 1 << card
        self.hands[p] &= ~bit
        if kind == TRAIL:
            self.loose |= bit
            if events is not None:
                events.append(_TRAILED[p * 52 + card])
        elif kind == CAPTURE:
            self._capture(p, card, named, used, events)
        elif kind == BUILD:
            self.loose &= ~used
            full = bit | used
            comps = (partition(full, value) or (full,)) if multi else (full,)
            self.builds = (*self.builds, Build(value, multi, p, full, comps))
            if events is not None:
                number = len(self.builds)
                texts = _texts(used)
                events.append(ev.Built(p, _CARD_TEXT[card], value, multi, texts, number))
        else:
            self._change_build(p, kind == ADD, card, value, named, used, events)
        self._next_turn(p, events)

    def _capture(
        self, p: int, card: int, named: int, used: int, events: list[Event] | None
    ) -> None:
        """Take the loose cards ``used`` and the builds ``named`` with ``card`` (C5.2, C7)."""
        side = side_of(p, self.players)
        taken = 1 << card | used
        before = self.builds
        if named:
            kept: list[Build] = []
            for i, b in enumerate(before):
                if named >> i & 1:
                    taken |= b.mask
                else:
                    kept.append(b)
            self.builds = tuple(kept)
        self.loose &= ~used
        piles = list(self.piles)
        piles[side] |= taken
        self.piles = tuple(piles)
        self.last = p
        sweep = not self.loose and not self.builds
        if sweep and not self.flags & LAST_SWEEP:
            sweep = any(self.hands) or bool(self.stock)
        if sweep:
            sweeps = list(self.sweeps)
            sweeps[side] += 1
            self.sweeps = tuple(sweeps)
        if events is not None:
            numbers = tuple(i + 1 for i in range(len(before)) if named >> i & 1)
            text = _CARD_TEXT[card]
            events.append(ev.Captured(p, text, _texts(used), numbers, _texts(taken), sweep))

    def _change_build(
        self,
        p: int,
        add: bool,
        card: int,
        value: int,
        named: int,
        used: int,
        events: list[Event] | None,
    ) -> None:
        """Add to a build (C5.4) or raise it to ``value`` (C5.5): the player owns it
        afterwards."""
        builds = self.builds
        bit = 1 << card
        i = named.bit_length() - 1
        b = builds[i]
        self.loose &= ~used
        text = _CARD_TEXT[card]
        if add:
            added = partition(bit | used, b.value) or (bit | used,)
            nb = Build(b.value, True, p, b.mask | bit | used, b.comps + added)
            if events is not None:
                events.append(ev.Added(p, text, i + 1, _texts(used), b.owner, b.value))
        else:
            absorbed = partition(used, value) or ()
            nb = Build(value, bool(used), p, b.mask | bit | used, (b.mask | bit, *absorbed))
            if events is not None:
                events.append(ev.Raised(p, text, i + 1, b.value, value, _texts(used), b.owner))
        self.builds = (*builds[:i], nb, *builds[i + 1 :])

    def _next_turn(self, p: int, events: list[Event] | None) -> None:
        """The next seat with cards; a new round dealt when no one has any (C3.2); the
        hand over when the stock is empty too."""
        step = self.step
        players = self.players
        hands = self.hands
        turn = (p + step) % players
        if not hands[turn]:
            if any(hands):
                # Only in hand-made positions: skip seats with no cards.
                while not hands[turn]:
                    turn = (turn + step) % players
            elif self.stock:
                turn = self._deal_round(events)
            else:
                self.hand_over = True
        self.turn = turn

    def _deal_round(self, events: list[Event] | None) -> int:
        """Deal four more cards to each player, none to the table (C3.2); the first to
        play."""
        start = self.start
        players = self.players
        order = play_order(start.dealer, players, self.step)
        stock = self.stock
        self.hands = _deal(order, stock, players)
        self.stock = stock[4 * players :]
        if events is not None:
            deal_no = (52 - 4 - len(stock)) // (4 * players) + 1
            hands = tuple(ev.mask_texts(h) for h in self.hands)
            events.append(ev.Dealt(start.hand_no, deal_no, start.dealer, hands, ()))
        return order[0]


def apply_legal(
    state: RoyalCasinoState, move: RoyalCasinoAction
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """Apply a move already known to be legal, then run the automatic steps."""
    board = Board(state)
    events: list[Event] = []
    board.play(move, events)
    if board.hand_over:
        return end_hand(board.state(), events)
    return board.state(), tuple(events)


# -- dealing and the end of a hand -----------------------------------------------------------
def deal_hand(
    state: RoyalCasinoState, hand_no: int, dealer: int
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """Shuffle (seeded), deal four table cards and four to each player (C3.1, C3.5)."""
    deck = shuffled_deck(state.seed, "hand", hand_no)
    players = state.players
    order = play_order(dealer, players, state.step)
    table = deck[:4]
    hands = _deal(order, tuple(deck[4:]), players)
    loose = 0
    for c in table:
        loose |= 1 << c
    zeros = (0,) * state.sides
    stock = tuple(deck[4 + 4 * players :])
    new = _position(
        state, hand_no, dealer, order[0], tuple(hands), stock, loose, (), zeros, zeros, -1
    )
    dealt = ev.Dealt(
        hand_no,
        1,
        dealer,
        tuple(ev.mask_texts(h) for h in hands),
        tuple(_CARD_TEXT[c] for c in sorted(table)),
    )
    return new, (dealt,)


def end_hand(
    state: RoyalCasinoState, events: list[Event]
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """Leftovers to the last capturer (C8.1), score the hand (C9), decide the game (C10)."""
    players = state.players
    piles = list(state.piles)
    loose = state.loose
    if loose and state.last_capturer >= 0:
        side = side_of(state.last_capturer, players)
        piles[side] |= loose
        events.append(ev.Leftovers(state.last_capturer, ev.mask_texts(loose)))
        loose = 0
    restricted = tuple(is_restricted(s, state.playoff) for s in state.scores)
    hand = score_hand(piles, state.sweeps, state.options, restricted)
    points = tuple(h.total for h in hand)
    if state.scope == "unit":
        best = max(points)
        winners = tuple(i for i, pt in enumerate(points) if pt == best)
        scores = tuple(s + pt for s, pt in zip(state.scores, points, strict=True))
        events.append(ev.HandScored(state.hand_no, hand, points, scores))
        events.append(ev.GameOver(scores, winners, "one hand"))
        return _finish(state, tuple(piles), loose, scores, winners, points, False), tuple(events)
    decision = decide_game(state.scores, hand, state.options, state.playoff)
    events.append(ev.HandScored(state.hand_no, hand, points, decision.scores))
    if decision.winners:
        detail = "automatic win (C10.2)" if decision.automatic else "reached 21"
        events.append(ev.GameOver(decision.scores, decision.winners, detail))
        return (
            _finish(state, tuple(piles), loose, decision.scores, decision.winners, points, False),
            tuple(events),
        )
    # Next hand: the deal passes to the old dealer's right (C1.4).
    base = _finish(state, tuple(piles), loose, decision.scores, (), points, decision.playoff)
    next_dealer = (state.dealer + state.step) % players
    nxt, deal_events = deal_hand(base, state.hand_no + 1, next_dealer)
    events.extend(deal_events)
    return nxt, tuple(events)


def _finish(
    state: RoyalCasinoState,
    piles: tuple[int, ...],
    loose: int,
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    points: tuple[int, ...],
    playoff: bool,
) -> RoyalCasinoState:
    """The position after the last hand's scoring: over, or waiting for the next deal."""
    return state._replace(
        turn=-1,
        phase=Phase.OVER,
        loose=loose,
        piles=piles,
        scores=scores,
        playoff=playoff,
        winners=winners,
        last_hand_points=points,
    )
