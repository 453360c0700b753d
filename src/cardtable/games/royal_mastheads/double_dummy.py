"""A double-dummy solver for the last tricks of a Royal Mastheads deal.

Given a full state (every hand and the pot known: a determinization), :func:`solve` plays
the rest of the deal out exactly for the seat to act.  Four players play each for
themselves, so the search is *paranoid*: the seat to act maximises its margin (its deal
score minus the mean of the other three), the other three together minimise it.  That
makes it a two-sided game, searched with alpha-beta, a transposition table keyed on the
hand masks (with the trick on the table, the leader, trick counts and captured cards, as
the scores depend on them) and move ordering (winning cards first).  Scores come from the
game's own scoring (``deal_playout.score_captures``: card points, pot, bonuses).

The bots use it on sampled worlds (PIMC) once at most :data:`PIMC_TRICKS` tricks remain.
Work is counted in nodes; a solve that exceeds ``max_nodes`` returns ``None``.

>>> from cardtable.games.royal_mastheads import GAME
>>> from cardtable.games.royal_mastheads.rules import apply_legal, legal_actions
>>> s = GAME.new_game(4, seed=3, scope="unit")
>>> while len(s.tricks) < 9:
...     s = apply_legal(s, legal_actions(s)[0])[0]
>>> sol = solve(s)
>>> sol is not None and sorted(a for a, _ in sol.values) == sorted(legal_actions(s))
True
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.games.royal_mastheads.deal_playout import _tables, score_captures
from cardtable.games.royal_mastheads.state import BIT, SUIT, Phase, RoyalMastheadsState

__all__ = [
    "MODEL",
    "PIMC_TRICKS",
    "SOLVE_NODES",
    "DDSolution",
    "cards_of",
    "margin_of",
    "solve",
]

PIMC_TRICKS = 3
"""The bots solve sampled worlds once at most this many tricks are left to play."""
SOLVE_NODES = 100_000
"""The default node budget of one solve."""

MODEL = "maxn"
"""How :func:`solve` has the other players play by default (see there)."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True, slots=True)
class DDSolution:
    """Each legal card's value for the seat to act (its final margin × 3: its deal score
    times three minus the other three's), best first, and the nodes expanded."""

    values: tuple[tuple[int, int], ...]
    nodes: int

    def best(self) -> int:
        """The best card (the lowest index among equals)."""
        return self.values[0][0]


class _OutOfNodes(Exception):
    """The node budget ran out."""


def cards_of(mask: int) -> list[int]:
    """The card indices of a mask, lowest first.

    >>> cards_of(0b1011)
    [0, 1, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def margin_of(scores: tuple[int, int, int, int], seat: int) -> int:
    """Three times ``seat``'s margin: its score times three minus the others' sum.

    >>> margin_of((10, 4, 2, 0), 0)
    24
    """
    return 4 * scores[seat] - sum(scores)


class _Solver:
    def __init__(self, state: RoyalMastheadsState, seat: int, max_nodes: int) -> None:
        self.state = state
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        # M-12: under ``pagat`` a rank's points depend only on how many were captured
        self.order_free = state.info.cfg.ruleset == "pagat"
        self.tables = _tables(state)[2]
        self.pot = state.pot
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        self.vectors: dict[tuple[object, ...], tuple[int, int, int, int]] = {}

    def value(
        self,
        hands: list[int],
        trick: tuple[int, ...],
        leader: int,
        captured: list[tuple[int, ...]],
        counts: list[int],
        alpha: int,
        beta: int,
    ) -> int:
        """The margin of the root seat with best play (the root seat maximising, the
        others minimising), within the window."""
        if not any(hands) and not trick:
            return margin_of(score_captures(self.state, captured, counts, self.pot), self.seat)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        caps: tuple[object, ...] = (
            tuple(sum(BIT[c] for c in cs) for cs in captured)
            if self.order_free
            else tuple(captured)
        )
        key = (tuple(hands), trick, leader, tuple(counts), caps)
        entry = self.table.get(key)
        if entry is not None:
            flag, v = entry
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        mover = (leader + len(trick)) & 3
        hand = hands[mover]
        moves = _moves(hand, trick)
        maximise = mover == self.seat
        a0, b0 = alpha, beta
        if trick:
            strength = self.tables[SUIT[trick[0]]]
            # the strongest cards first for the maximiser, the weakest for the others
            moves.sort(key=lambda c: -strength[c] if maximise else strength[c])
        best = -(1 << 30) if maximise else 1 << 30
        for c in moves:
            hands[mover] = hand & ~BIT[c]
            nt = (*trick, c)
            if len(nt) == 4:
                table = self.tables[SUIT[nt[0]]]
                w = max(range(4), key=lambda i: table[nt[i]])
                winner = (leader + w) & 3
                old = captured[winner]
                captured[winner] = (*old, *nt)
                counts[winner] += 1
                v = self.value(hands, (), winner, captured, counts, alpha, beta)
                counts[winner] -= 1
                captured[winner] = old
            else:
                v = self.value(hands, nt, leader, captured, counts, alpha, beta)
            hands[mover] = hand
            if maximise:
                if v > best:
                    best = v
                if best > alpha:
                    alpha = best
            else:
                if v < best:
                    best = v
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        self.table[key] = (flag, best)
        return best

    def scores(
        self,
        hands: list[int],
        trick: tuple[int, ...],
        leader: int,
        captured: list[tuple[int, ...]],
        counts: list[int],
    ) -> tuple[int, int, int, int]:
        """The four deal scores when every player maximises its own margin (max-n; the
        lowest card among equals)."""
        if not any(hands) and not trick:
            return score_captures(self.state, captured, counts, self.pot)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        caps: tuple[object, ...] = (
            tuple(sum(BIT[c] for c in cs) for cs in captured)
            if self.order_free
            else tuple(captured)
        )
        key = (tuple(hands), trick, leader, tuple(counts), caps)
        got = self.vectors.get(key)
        if got is not None:
            return got
        mover = (leader + len(trick)) & 3
        hand = hands[mover]
        best: tuple[int, int, int, int] | None = None
        best_margin = -(1 << 30)
        for c in _moves(hand, trick):
            hands[mover] = hand & ~BIT[c]
            v = self.after(hands, (*trick, c), leader, captured, counts)
            hands[mover] = hand
            m = margin_of(v, mover)
            if m > best_margin:
                best, best_margin = v, m
        assert best is not None
        self.vectors[key] = best
        return best

    def after(
        self,
        hands: list[int],
        nt: tuple[int, ...],
        leader: int,
        captured: list[tuple[int, ...]],
        counts: list[int],
    ) -> tuple[int, int, int, int]:
        """The max-n scores after a card was added to the trick ``nt``."""
        if len(nt) < 4:
            return self.scores(hands, nt, leader, captured, counts)
        table = self.tables[SUIT[nt[0]]]
        winner = (leader + max(range(4), key=lambda i: table[nt[i]])) & 3
        old = captured[winner]
        captured[winner] = (*old, *nt)
        counts[winner] += 1
        v = self.scores(hands, (), winner, captured, counts)
        counts[winner] -= 1
        captured[winner] = old
        return v


def _moves(hand: int, trick: tuple[int, ...]) -> list[int]:
    """The cards a hand may play to a trick (M-10: follow suit if able)."""
    if trick:
        led = SUIT[trick[0]]
        m = hand & (0x1FFF << (13 * led))
        if m:
            return cards_of(m)
    return cards_of(hand)


def solve(
    state: RoyalMastheadsState, max_nodes: int = SOLVE_NODES, model: str = MODEL
) -> DDSolution | None:
    """Every legal card's value (see :class:`DDSolution`) for the seat to act in the play
    phase, or ``None`` outside play or when ``max_nodes`` were not enough.

    ``model`` is how the other players play: ``"paranoid"`` (together against the seat)
    or ``"maxn"`` (each for its own margin)."""
    if state.phase is not Phase.PLAY:
        return None
    seat = (state.leader + len(state.trick)) & 3
    solver = _Solver(state, seat, max_nodes)
    captured: list[tuple[int, ...]] = [(), (), (), ()]
    counts = [0, 0, 0, 0]
    for t in state.tricks:
        captured[t.winner] = (*captured[t.winner], *t.cards)
        counts[t.winner] += 1
    hands = list(state.hands)
    full = 1 << 30
    out: list[tuple[int, int]] = []
    if model == "maxn":
        try:
            for c in _moves(hands[seat], state.trick):
                hand = hands[seat]
                hands[seat] = hand & ~BIT[c]
                vec = solver.after(hands, (*state.trick, c), state.leader, captured, counts)
                hands[seat] = hand
                out.append((c, margin_of(vec, seat)))
        except _OutOfNodes:
            return None
        out.sort(key=lambda cv: -cv[1])
        return DDSolution(tuple(out), solver.nodes)
    try:
        for c in _moves(hands[seat], state.trick):
            hand = hands[seat]
            hands[seat] = hand & ~BIT[c]
            nt = (*state.trick, c)
            if len(nt) == 4:
                table = solver.tables[SUIT[nt[0]]]
                w = max(range(4), key=lambda i: table[nt[i]])
                winner = (state.leader + w) & 3
                old = captured[winner]
                captured[winner] = (*old, *nt)
                counts[winner] += 1
                v = solver.value(hands, (), winner, captured, counts, -full, full)
                counts[winner] -= 1
                captured[winner] = old
            else:
                v = solver.value(hands, nt, state.leader, captured, counts, -full, full)
            hands[seat] = hand
            out.append((c, v))
    except _OutOfNodes:
        return None
    out.sort(key=lambda cv: -cv[1])
    return DDSolution(tuple(out), solver.nodes)
