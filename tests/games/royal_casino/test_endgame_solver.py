"""The Royal Casino endgame solver: exact values, checked against brute force.

Small endgames are reached by seeded random play (so they are real positions), with the
stock empty and a few cards left in the hands.  Brute force is plain minimax over the
game's own ``legal_actions``/``apply_legal``, with no pruning and no table.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core.game import Scope
from cardtable.games.royal_casino import GAME
from cardtable.games.royal_casino.endgame import (
    PIMC_CARDS_2P,
    Solution,
    decode,
    is_exact,
    is_sampled,
    solve,
    terminal_value,
)
from cardtable.games.royal_casino.rules import apply_legal, legal_actions
from cardtable.games.royal_casino.state import Phase, RoyalCasinoState, side_of

SCOPES: tuple[Scope, ...] = ("unit", "match")


def endgame(players: int, seed: int, left: int, scope: Scope = "unit") -> RoyalCasinoState:
    """A position of a seeded random game with the stock empty and ``left`` cards in the
    hands (captures preferred, so tables stay small)."""
    s = GAME.new_game(players, seed=seed, scope=scope)
    rng = random.Random(seed)
    while s.stock or sum(h.bit_count() for h in s.hands) > left:
        moves = GAME.legal_actions(s)
        captures = [m for m in moves if m.kind == 1]
        pick = captures or list(moves)
        s, _ = GAME.apply(s, pick[rng.randrange(len(pick))])
    return s


def before_the_last_deal(seed: int, in_hands: int) -> RoyalCasinoState:
    """A two-player position of a seeded random game with the last deal still in the stock
    and ``in_hands`` cards in the hands (captures preferred)."""
    s = GAME.new_game(2, seed=seed, scope="unit")
    rng = random.Random(seed)
    while len(s.stock) > 8 or sum(h.bit_count() for h in s.hands) > in_hands:
        moves = GAME.legal_actions(s)
        captures = [m for m in moves if m.kind == 1]
        pick = captures or list(moves)
        s, _ = GAME.apply(s, pick[rng.randrange(len(pick))])
    return s


def memo_minimax(
    state: RoyalCasinoState, start: RoyalCasinoState, side: int, memo: dict[object, int]
) -> int:
    """Plain minimax for ``side``, remembering whole states (stock order included)."""
    got = memo.get(state)
    if got is not None:
        return got
    values = []
    for m in legal_actions(state):
        child = apply_legal(state, m)[0]
        if child.phase == Phase.OVER:
            values.append(terminal_value(child, start, side))
        else:
            values.append(memo_minimax(child, start, side, memo))
    mover = side_of(state.turn, state.players)
    value = max(values) if mover == side else min(values)
    memo[state] = value
    return value


def brute(state: RoyalCasinoState, start: RoyalCasinoState, side: int) -> int:
    """The minimax value for ``side`` (which maximises; the other side minimises)."""
    values = []
    for m in legal_actions(state):
        child = apply_legal(state, m)[0]
        if child.phase == Phase.OVER:
            values.append(terminal_value(child, start, side))
        else:
            values.append(brute(child, start, side))
    mover = side_of(state.turn, state.players)
    return max(values) if mover == side else min(values)


def brute_root(state: RoyalCasinoState) -> list[int]:
    """Every root action's brute-force value for the side to act."""
    start = state._replace(scope="unit")
    side = side_of(state.turn, state.players)
    out = []
    for m in legal_actions(start):
        child = apply_legal(start, m)[0]
        if child.phase == Phase.OVER:
            out.append(terminal_value(child, state, side))
        else:
            out.append(brute(child, state, side))
    return out


def _solved(state: RoyalCasinoState) -> Solution:
    sol = solve(state)
    assert sol is not None
    return sol


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    left=st.integers(1, 5),
    players=st.sampled_from([2, 4]),
    scope=st.sampled_from(SCOPES),
)
def test_solver_agrees_with_brute_force(seed: int, left: int, players: int, scope: Scope) -> None:
    state = endgame(players, seed, left, scope)
    sol = _solved(state)
    moves = legal_actions(state._replace(scope="unit"))
    expected = dict(zip(moves, brute_root(state), strict=True))
    assert {m: v for m, v in sol.values} == expected
    assert sol.values[0][1] == max(expected.values())
    assert [v for _, v in sol.values] == sorted((v for _, v in sol.values), reverse=True)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), in_hands=st.integers(1, 2))
def test_a_sampled_world_with_the_stock_is_solved_exactly(seed: int, in_hands: int) -> None:
    """Two players, the last deal still in the stock (a world of PIMC: its order known):
    the solver plays the deal as dealt and agrees with minimax over whole states."""
    state = before_the_last_deal(seed, in_hands)
    assert state.stock
    sol = _solved(state)
    start = state._replace(scope="unit")
    side = side_of(state.turn, 2)
    memo: dict[object, int] = {}
    expected = {}
    for m in legal_actions(start):
        child = apply_legal(start, m)[0]
        expected[m] = (
            terminal_value(child, state, side)
            if child.phase == Phase.OVER
            else memo_minimax(child, state, side, memo)
        )
    assert dict(sol.values) == expected


def guaranteed(state: RoyalCasinoState, start: RoyalCasinoState, side: int) -> int:
    """The worst value ``side`` gets by playing the solver's best move at each of its turns
    against every reply of the other side."""
    mover = side_of(state.turn, state.players)
    if mover == side:
        moves = [_solved(state._replace(scope=start.scope)).best()]
    else:
        moves = list(legal_actions(state))
    worst = 1 << 30
    for m in moves:
        child = apply_legal(state, m)[0]
        if child.phase == Phase.OVER:
            v = terminal_value(child, start, side)
        else:
            v = guaranteed(child, start, side)
        worst = min(worst, v)
    return worst


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), left=st.integers(2, 6))
def test_exact_play_never_loses_a_won_position(seed: int, left: int) -> None:
    """Playing the solver's moves keeps at least the solved value against every reply: a
    won hand stays won, and no point of the solved margin is given away."""
    state = endgame(2, seed, left)
    side = side_of(state.turn, 2)
    value = _solved(state).values[0][1]
    got = guaranteed(state._replace(scope="unit"), state, side)
    assert got >= value
    if decode(value)[0] > 0:
        assert decode(got)[0] > 0


def test_the_node_budget_binds() -> None:
    state = endgame(2, 11, 8)
    sol = _solved(state)
    assert sol.nodes > 10
    assert solve(state, sol.nodes - 1) is None
    again = solve(state, sol.nodes)
    assert again is not None and again.values == sol.values


def test_when_the_bots_solve() -> None:
    two = endgame(2, 5, 8)
    seat = two.turn
    assert is_exact(GAME.view(two, seat))
    assert not is_exact(GAME.view(two, 1 - seat))  # not the seat to act
    early = GAME.new_game(2, seed=5)
    assert not is_exact(GAME.view(early, early.turn))
    four = endgame(4, 5, 8)
    assert is_sampled(GAME.view(four, four.turn)) and not is_exact(GAME.view(four, four.turn))
    assert not is_sampled(GAME.view(endgame(4, 5, 12), four.turn))
    assert not is_sampled(GAME.view(early, early.turn))  # too many cards left
    assert solve(GAME.new_game(3, seed=1)) is None  # three sides: not solved
    assert solve(GAME.new_game(4, seed=1)) is None  # four players: not with a stock
    assert solve(early, 1_000) is None  # a whole hand is far beyond a thousand nodes
    penultimate = before_the_last_deal(5, PIMC_CARDS_2P - 8)
    seat = penultimate.turn
    assert is_sampled(GAME.view(penultimate, seat)) and not is_exact(GAME.view(penultimate, seat))
    assert not is_sampled(GAME.view(penultimate, 1 - seat))  # not the seat to act
    assert not is_sampled(GAME.view(before_the_last_deal(5, 8), seat))  # not yet
