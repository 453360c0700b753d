"""Exact play of the last cards of a Royal Casino hand (a perfect-information solver).

Once the stock is empty, the only hidden cards are the other hands.  With two players
they are exactly the cards the seat has not seen, so the rest of the hand is a game of
perfect information: :func:`solve` searches it to the end with negamax, alpha-beta and a
transposition table.  Before the final deal the stock's order is hidden too: the bots
then solve sampled worlds (PIMC: each a full position, the stock's order dealt at random)
once at most :data:`PIMC_CARDS_2P` cards are left to play.  With four players (two
partnerships, still two sides that alternate) the other hands are not known; the bots
solve sampled worlds when few cards remain (:data:`PIMC_CARDS`).  Three players are three
sides: not solved here.

The value of a finished hand for a side is lexicographic: first the hand's points
difference (own side minus the other, C9), then the game result (won, undecided or lost
after this hand, C10).  It is encoded as one integer, ``3 * difference + result`` with
``result`` in {-1, 0, +1}.

The work is counted in nodes (positions expanded): ``max_nodes`` bounds it, and a solve
that runs out returns ``None`` rather than a guess.

>>> from cardtable.games.royal_casino import GAME
>>> s = GAME.parse_position(
...     "royal-casino 2p; scope=unit; seed=4; hand=1; dealer=P1; turn=P2; scores=0 0; "
...     "hands=6H 4S / 10H 2S; stock=-; loose=7D AH; builds=-; piles=KS KC QD JC 10S 10D "
...     "10C 8S 8H 8D 8C 7C 6S 6D 5H 5D 5C 4D 4C 3S 3D 2H 2C AS AD / KH KD QS QH QC JS JH "
...     "JD 9S 9H 9D 9C 7S 7H 6C 5S 4H 3H 3C 2D AC; sweeps=1 2; last=P1")
>>> sol = solve(s)
>>> [(GAME.format_action(a), decode(v)) for a, v in sol.values]  # (points, result)
[('build 2S -> 10 (single): 7D AH', (4, 1)), ('trail 2S', (-8, -1)), ('trail 10H', (-8, -1))]
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.games.royal_casino.rules import apply_legal, legal_actions
from cardtable.games.royal_casino.scoring import decide_game, is_restricted, score_hand
from cardtable.games.royal_casino.state import (
    Kind,
    Phase,
    RoyalCasinoAction,
    RoyalCasinoState,
    side_of,
)
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = [
    "EXACT_NODES",
    "PIMC_CARDS",
    "Solution",
    "cards_left",
    "decode",
    "encode",
    "is_exact",
    "is_sampled",
    "solve",
    "terminal_value",
]

PIMC_CARDS = 8
"""With four players, the bots solve sampled worlds once at most this many cards are left
in the hands (the last two rounds) and the stock is empty."""
PIMC_CARDS_2P = 12
"""With two players, the bots solve sampled worlds once at most this many cards are left
to play, hands and stock together, before the final deal (which is solved exactly): the
second half of the deal before it, when a world (the opponent's hand and the order of the
stock) takes a few thousand nodes."""
EXACT_NODES = 200_000
"""The default node budget of one solve (a two-player final deal needs far fewer: of 200
positions reached by capture-minded random play, the median took 1,400 nodes, 95% under
5,800, the largest 11,000)."""

_OVER = Phase.OVER
_CAPTURE = Kind.CAPTURE
_WIN = 1
_LOSS = -1
_EXACT, _LOWER, _UPPER = 0, 1, 2


def encode(difference: int, result: int) -> int:
    """One integer ordering outcomes by points difference, then by result.

    >>> encode(1, -1) > encode(0, 1) > encode(0, 0) > encode(0, -1) > encode(-1, 1)
    True
    """
    return 3 * difference + result


def decode(value: int) -> tuple[int, int]:
    """The (difference, result) pair of :func:`encode`.

    >>> [decode(encode(d, r)) for d, r in ((2, -1), (0, 0), (-3, 1))]
    [(2, -1), (0, 0), (-3, 1)]
    """
    difference = (value + 1) // 3
    return difference, value - 3 * difference


@dataclass(frozen=True, slots=True)
class Solution:
    """The solved value of every legal action of the seat to act, best first.

    ``values`` pairs each action with its :func:`encode`-d value for the mover's side;
    ``exact`` is True (a solution is only returned when the search finished); ``nodes``
    counts the positions expanded.
    """

    values: tuple[tuple[RoyalCasinoAction, int], ...]
    nodes: int
    exact: bool = True

    def best(self) -> RoyalCasinoAction:
        """The action with the highest value (the first in legal order among equals)."""
        return self.values[0][0]


class _OutOfNodes(Exception):
    """The node budget ran out."""


def cards_left(view: RoyalCasinoView) -> int:
    """The cards still to be played this hand, all hands and the stock together."""
    return sum(view.hand_sizes) + view.stock_size


def is_exact(view: RoyalCasinoView) -> bool:
    """Whether the rest of the hand is of perfect information to the viewer: two
    players, the stock empty, so the unseen cards are exactly the other hand."""
    return (
        not view.over
        and view.seat is not None
        and view.players == 2
        and view.stock_size == 0
        and view.turn == view.seat
    )


def is_sampled(view: RoyalCasinoView) -> bool:
    """Whether the bots solve sampled worlds here: four players (two sides), the stock
    empty and at most :data:`PIMC_CARDS` cards left in the hands; or two players, cards
    still in the stock and at most :data:`PIMC_CARDS_2P` cards left to play."""
    if view.over or view.seat is None:
        return False
    if view.players == 4:
        return view.stock_size == 0 and cards_left(view) <= PIMC_CARDS
    return (
        view.players == 2
        and view.turn == view.seat
        and view.stock_size > 0
        and cards_left(view) <= PIMC_CARDS_2P
    )


def terminal_value(state: RoyalCasinoState, start: RoyalCasinoState, side: int) -> int:
    """The :func:`encode`-d value for ``side`` of a hand that has just ended.

    ``state`` is the position after the last card (leftovers given, scope ``unit``);
    ``start`` the position the solve started from (its match scores decide the game).
    """
    if start.scope == "unit" and state.last_hand_points:
        # the rules scored this one-hand game already (C9): the points decide it
        mine = state.last_hand_points[side]
        other = state.last_hand_points[1 - side]
        return encode(mine - other, _WIN if mine > other else _LOSS if mine < other else 0)
    restricted = tuple(is_restricted(s, start.playoff) for s in start.scores)
    hand = score_hand(state.piles, state.sweeps, start.options, restricted)
    mine = hand[side].total
    other = hand[1 - side].total
    if start.scope == "unit":
        result = _WIN if mine > other else _LOSS if mine < other else 0
    else:
        winners = decide_game(start.scores, hand, start.options, start.playoff).winners
        result = 0
        if winners == (side,):
            result = _WIN
        elif winners == (1 - side,):
            result = _LOSS
    return encode(mine - other, result)


def _key(s: RoyalCasinoState) -> tuple[object, ...]:
    # No stock: within one solve (one world) the cards not yet played fix what is left
    # of the stock, in its order (a test checks against minimax over whole states).
    return (
        s.turn,
        s.hands,
        s.loose,
        tuple((b.value, b.multi, b.owner, b.mask) for b in s.builds),
        s.piles,
        s.sweeps,
        s.last_capturer,
    )


def _order(moves: list[RoyalCasinoAction], first: RoyalCasinoAction | None) -> None:
    """Captures that take most first, the transposition table's best move before all."""

    def weight(m: RoyalCasinoAction) -> int:
        if m == first:
            return -1000
        if m.kind == _CAPTURE:
            return -(m.loose.bit_count() + 2 * m.builds.bit_count() + 2)
        return 0

    moves.sort(key=weight)


class _Solver:
    """One solve: the transposition table and the node count."""

    def __init__(self, start: RoyalCasinoState, max_nodes: int) -> None:
        self.start = start
        self.players = start.players
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[int, int, RoyalCasinoAction | None]] = {}

    def child_value(self, child: RoyalCasinoState, side: int, alpha: int, beta: int) -> int:
        """The value for ``side`` of the position after a move."""
        if child.phase == _OVER:
            return terminal_value(child, self.start, side)
        if side_of(child.turn, self.players) == side:
            return self.negamax(child, alpha, beta)
        return -self.negamax(child, -beta, -alpha)

    def negamax(self, state: RoyalCasinoState, alpha: int, beta: int) -> int:
        """The value of ``state`` for the side to act, within the window (fail-soft)."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        key = _key(state)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            flag, value, first = entry
            if flag == _EXACT:
                return value
            if flag == _LOWER and value >= beta:
                return value
            if flag == _UPPER and value <= alpha:
                return value
        side = side_of(state.turn, self.players)
        moves = legal_actions(state)
        _order(moves, first)
        a0 = alpha
        best = -(1 << 30)
        best_move = None
        for m in moves:
            v = self.child_value(apply_legal(state, m)[0], side, alpha, beta)
            if v > best:
                best, best_move = v, m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= a0 else _LOWER if best >= beta else _EXACT
        self.table[key] = (flag, best, best_move)
        return best


def solve(state: RoyalCasinoState, max_nodes: int = EXACT_NODES) -> Solution | None:
    """Every legal action's exact value for the side to act, or ``None`` when the node
    budget runs out or the position is not a two-sided endgame (two sides; with four
    players, the stock empty).  With two players and cards in the stock, the stock's
    order is part of the position (a sampled world): the deals are played out as dealt.
    """
    if state.phase == _OVER or state.players == 3 or (state.stock and state.players == 4):
        return None
    start = state._replace(scope="unit") if state.scope != "unit" else state
    solver = _Solver(state, max_nodes)
    side = side_of(state.turn, state.players)
    moves = legal_actions(start)
    out: list[tuple[RoyalCasinoAction, int]] = []
    full = 1 << 20
    try:
        for m in moves:
            out.append((m, solver.child_value(apply_legal(start, m)[0], side, -full, full)))
    except _OutOfNodes:
        return None
    out.sort(key=lambda mv: -mv[1])  # stable: equal values keep the legal order
    return Solution(tuple(out), solver.nodes)
