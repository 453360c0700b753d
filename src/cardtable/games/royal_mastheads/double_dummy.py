"""A double-dummy solver for the last tricks of a Royal Mastheads deal.

Given a full state (every hand and the pot known: a determinization), :func:`solve` plays
the rest of the deal out exactly for the seat to act.  Four players play each for
themselves, so the search is *paranoid*: the seat to act maximises its margin (its deal
score minus the mean of the other three), the other three together minimise it.  That
makes it a two-sided game, searched with alpha-beta, a transposition table keyed on the
hand masks (with the trick on the table, the leader, trick counts and captured cards, as
the scores depend on them) and move ordering (winning cards first).  Scores come from the
game's own scoring (card points, pot, bonuses), and the moves are the engine's
(:class:`~cardtable.games.royal_mastheads.engine.Deal`'s ``push`` and ``pop``).

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

from cardtable.games.royal_mastheads.engine import Deal, card_list
from cardtable.games.royal_mastheads.state import BIT, Phase, RoyalMastheadsState

__all__ = [
    "MODEL",
    "PIMC_TRICKS",
    "SOLVE_NODES",
    "DDSolution",
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


def margin_of(scores: tuple[int, int, int, int], seat: int) -> int:
    """Three times ``seat``'s margin: its score times three minus the others' sum.

    >>> margin_of((10, 4, 2, 0), 0)
    24
    """
    return 4 * scores[seat] - sum(scores)


class _Solver:
    """The search over one world: a :class:`~cardtable.games.royal_mastheads.engine.Deal`
    walked with ``push`` and ``pop``, and its transposition tables."""

    def __init__(self, state: RoyalMastheadsState, seat: int, max_nodes: int) -> None:
        self.deal = Deal(state)
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        # M-12: under ``pagat`` a rank's points depend only on how many were captured
        self.order_free = state.info.cfg.ruleset == "pagat"
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        self.vectors: dict[tuple[object, ...], tuple[int, int, int, int]] = {}

    def key(self) -> tuple[object, ...]:
        """What the rest of the deal depends on: the hands, the trick on the table, its
        leader, the tricks won and the cards captured (as masks when order is free)."""
        deal = self.deal
        captured, counts = deal.captures()
        caps: tuple[object, ...] = (
            tuple(sum(BIT[c] for c in cs) for cs in captured)
            if self.order_free
            else tuple(tuple(cs) for cs in captured)
        )
        trick = tuple(deal.played[len(deal.played) & ~3 :])
        return (tuple(deal.hands), trick, deal.leader, tuple(counts), caps)

    def count_node(self) -> None:
        """One more node expanded; raise :class:`_OutOfNodes` past the budget."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes

    def value(self, alpha: int, beta: int) -> int:
        """The margin of the root seat with best play (the root seat maximising, the
        others minimising), within the window."""
        deal = self.deal
        if deal.is_done():
            return margin_of(deal.scores(), self.seat)
        self.count_node()
        key = self.key()
        entry = self.table.get(key)
        if entry is not None:
            flag, v = entry
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        maximise = deal.to_act() == self.seat
        moves = card_list(deal.legal_mask())
        led = deal.led()
        if led >= 0:
            strength = deal.tables[led]
            # the strongest cards first for the maximiser, the weakest for the others
            moves.sort(key=lambda c: -strength[c] if maximise else strength[c])
        a0, b0 = alpha, beta
        best = -(1 << 30) if maximise else 1 << 30
        for c in moves:
            deal.push(c)
            v = self.value(alpha, beta)
            deal.pop()
            if maximise:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if alpha >= beta:
                break
        flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        self.table[key] = (flag, best)
        return best

    def scores(self) -> tuple[int, int, int, int]:
        """The four deal scores when every player maximises its own margin (max-n; the
        lowest card among equals)."""
        deal = self.deal
        if deal.is_done():
            return deal.scores()
        self.count_node()
        key = self.key()
        got = self.vectors.get(key)
        if got is not None:
            return got
        mover = deal.to_act()
        best: tuple[int, int, int, int] | None = None
        best_margin = -(1 << 30)
        for c in card_list(deal.legal_mask()):
            deal.push(c)
            v = self.scores()
            deal.pop()
            m = margin_of(v, mover)
            if m > best_margin:
                best, best_margin = v, m
        assert best is not None
        self.vectors[key] = best
        return best


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
    deal = solver.deal
    full = 1 << 30
    out: list[tuple[int, int]] = []
    try:
        for c in card_list(deal.legal_mask()):
            deal.push(c)
            maxn = model == "maxn"
            v = margin_of(solver.scores(), seat) if maxn else solver.value(-full, full)
            deal.pop()
            out.append((c, v))
    except _OutOfNodes:
        return None
    out.sort(key=lambda cv: -cv[1])
    return DDSolution(tuple(out), solver.nodes)
