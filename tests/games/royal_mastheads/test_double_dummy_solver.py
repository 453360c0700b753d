"""The Royal Mastheads double-dummy solver agrees with brute force on the last tricks.

Brute force is plain search over the game's own ``legal_actions``/``apply_legal`` and its
own scoring (the running totals of a one-deal game), with no pruning and no table: paranoid
minimax (the seat to act maximises its margin, the others minimise it), and max-n (each
player maximises its own margin, the lowest card among equals).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.royal_mastheads import GAME
from cardtable.games.royal_mastheads.double_dummy import margin_of, solve
from cardtable.games.royal_mastheads.rules import apply_legal, legal_actions
from cardtable.games.royal_mastheads.state import Phase, RoyalMastheadsState


def late_position(seed: int, tricks_left: int, played: int, ruleset: str) -> RoyalMastheadsState:
    """A seeded random deal played to ``tricks_left`` tricks from the end, with ``played``
    cards of the current trick on the table."""
    s = GAME.new_game(4, {"ruleset": ruleset}, seed=seed, scope="unit")
    rng = random.Random(seed)
    while (
        s.phase is not Phase.PLAY
        or len(s.tricks) < 11 - tricks_left
        or (len(s.trick) < played and len(s.tricks) == 11 - tricks_left)
    ):
        moves = legal_actions(s)
        s = apply_legal(s, moves[rng.randrange(len(moves))])[0]
    return s


def brute(state: RoyalMastheadsState, seat: int) -> int:
    if state.phase is Phase.OVER:
        scores = state.info.totals
        return margin_of((scores[0], scores[1], scores[2], scores[3]), seat)
    values = [brute(apply_legal(state, c)[0], seat) for c in legal_actions(state)]
    return max(values) if state.to_act == seat else min(values)


def brute_maxn(state: RoyalMastheadsState) -> tuple[int, int, int, int]:
    if state.phase is Phase.OVER:
        t = state.info.totals
        return (t[0], t[1], t[2], t[3])
    mover = state.to_act
    assert mover is not None
    best: tuple[int, int, int, int] | None = None
    for c in legal_actions(state):
        v = brute_maxn(apply_legal(state, c)[0])
        if best is None or margin_of(v, mover) > margin_of(best, mover):
            best = v
    assert best is not None
    return best


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    tricks_left=st.integers(1, 3),
    played=st.integers(0, 3),
    ruleset=st.sampled_from(["pagat", "russian"]),
)
def test_solver_agrees_with_brute_force(
    seed: int, tricks_left: int, played: int, ruleset: str
) -> None:
    state = late_position(seed, tricks_left, played, ruleset)
    seat = state.to_act
    assert seat is not None
    sol = solve(state, model="paranoid")
    assert sol is not None
    expected = {c: brute(apply_legal(state, c)[0], seat) for c in legal_actions(state)}
    assert dict(sol.values) == expected
    assert [v for _, v in sol.values] == sorted(expected.values(), reverse=True)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    tricks_left=st.integers(1, 3),
    played=st.integers(0, 3),
    ruleset=st.sampled_from(["pagat", "russian"]),
)
def test_maxn_agrees_with_brute_force(
    seed: int, tricks_left: int, played: int, ruleset: str
) -> None:
    state = late_position(seed, tricks_left, played, ruleset)
    seat = state.to_act
    assert seat is not None
    sol = solve(state, model="maxn")
    assert sol is not None
    expected = {
        c: margin_of(brute_maxn(apply_legal(state, c)[0]), seat) for c in legal_actions(state)
    }
    assert dict(sol.values) == expected


def test_the_node_budget_binds() -> None:
    state = late_position(8, 3, 0, "pagat")
    sol = solve(state)
    assert sol is not None and sol.nodes > 10
    assert solve(state, sol.nodes - 1) is None
    assert solve(GAME.new_game(4, seed=1)) is None  # the pot phase: nothing to solve
