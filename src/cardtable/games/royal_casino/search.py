"""How search walks Royal Casino: points by seat, a fast apply and a capturing rollout.

The fast paths are the game's own rules functions (``apply_legal`` does not re-check an
action that came from the legal-action generator), so the rules stay the game's.

>>> from cardtable.games.royal_casino import GAME
>>> profile = search_profile()
>>> s = GAME.new_game(4, seed=1)
>>> profile.points(s), profile.to_act(s) == GAME.to_act(s)
((0, 0, 0, 0), True)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from cardtable.core.kit import SearchProfile, Solved, SolveMode, Solver
from cardtable.games.royal_casino import endgame
from cardtable.games.royal_casino.rules import apply_legal, legal_actions
from cardtable.games.royal_casino.state import (
    ACE_BITS,
    SPADES,
    TEN_OF_DIAMONDS,
    TWO_OF_SPADES,
    Kind,
    Phase,
    RoyalCasinoAction,
    RoyalCasinoState,
)
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = [
    "EXPERT_SCALE",
    "EXPERT_SIMULATIONS",
    "FINAL_MARGIN",
    "HARD_NODES",
    "HARD_SIMULATIONS",
    "PRECIOUS",
    "RANDOM_ROLLOUT",
    "SCALE",
    "SWEEP_WORTH",
    "capture_worth",
    "rollout",
    "search_profile",
    "solve_mode",
    "solve_state",
]

HARD_SIMULATIONS = 600
"""Simulations per move of ``hard``, within its time contract (0.5 s a move).  The first
move of a hand is the dearest (48 cards of rollout).  Every strength measurement of
``hard`` searched 600 simulations a move: ``scripts/level_timing.py royal-casino --level
hard --games 4 --seed 1001`` (64 moves) gave 0.14 / 0.25 / 0.30 CPU seconds a move
(mean / 95th percentile / largest) at load average 16.6 (docs/bots.md)."""
HARD_NODES = 24_000
"""Solver nodes per move of ``hard``, about half its time contract (some 10 µs a node with
the compiled rules): 95% of two-player final deals are solved from their first card
within 5,800 nodes (see :data:`~cardtable.games.royal_casino.endgame.EXACT_NODES`), every
later card in far fewer; before the final deal a sampled world of the last
:data:`~cardtable.games.royal_casino.endgame.PIMC_CARDS_2P` cards takes about 500 to 3,000
nodes, so 8 to 16 worlds fit (all 16 with fewer cards left)."""
SCALE = 3.0
"""A typical point margin of one hand."""
EXPERT_SIMULATIONS = 4_800
"""Simulations per move of ``expert``: eight times ``hard``'s (two trees of 2,400), where
the other games' ``expert`` searches four times.  On the idle machine
``scripts/level_timing.py royal-casino --level expert --games 4 --seed 1001`` gave 0.36 /
0.59 / 0.84 seconds a move (mean / 95th percentile / largest; 67 moves, 15 of them
solved; two worker processes), inside the 2 s contract (docs/bots.md)."""
EXPERT_SCALE = 6.0
"""The margin scale of ``expert``'s reward (``hard``: :data:`SCALE`).  A duplicate match
is won on the total points of its seatings, so a point gained on a lead counts as much as
one gained when behind; ``tanh(d / 3)`` sees a 3-point and a 6-point lead almost alike
(0.76 and 0.96), ``tanh(d / 6)`` tells them apart (0.46 and 0.76)."""
FINAL_MARGIN = 1.0
"""The share of the hand's margin reward in the reward of a simulation that ends the
game (the rest: win or loss).  A duplicate match is won on the total points of its
seatings, so every point counts, not only who is ahead: the arena's one-hand games
are scored on the margin alone (measured in lab/notes/bots-experiments.md)."""
RANDOM_ROLLOUT = 0.1
"""The share of rollout moves chosen uniformly at random."""
SWEEP_WORTH = 1.0
"""What a rollout counts for a capture that clears the table (a sweep, C7)."""
PRECIOUS = ACE_BITS | TEN_OF_DIAMONDS | TWO_OF_SPADES
"""The cards a rollout does not trail while it has another move: each is worth points."""

_OVER = Phase.OVER
_CAPTURE = Kind.CAPTURE


def points(state: RoyalCasinoState) -> tuple[float, ...]:
    """Each seat's side's points (partners share theirs at four)."""
    sc = state.scores
    if state.players == 4:
        return (sc[0], sc[1], sc[0], sc[1])
    return tuple(sc)


def to_act(state: RoyalCasinoState) -> int | None:
    """The seat to act, or ``None`` when the game is over."""
    return None if state.phase == _OVER else state.turn


def capture_worth(taken: int) -> float:
    """What the cards of a capture are worth toward the hand's points (C9.1), roughly:
    the greedy policy's weights (a card toward most cards, a spade toward most spades,
    10♦ two points, 2♠ and each ace one).

    >>> from cardtable.cards import parse_mask
    >>> capture_worth(parse_mask("10D 10H")) > capture_worth(parse_mask("5C 5H 5S 5D"))
    True
    """
    return (
        0.12 * taken.bit_count()
        + 0.08 * (taken & SPADES).bit_count()
        + 2.0 * bool(taken & TEN_OF_DIAMONDS)
        + bool(taken & TWO_OF_SPADES)
        + (taken & ACE_BITS).bit_count()
    )


def rollout(
    state: RoyalCasinoState, moves: Sequence[RoyalCasinoAction], rng: random.Random
) -> RoyalCasinoAction:
    """Mostly greedy for points: the capture worth most (:func:`capture_worth`, plus
    :data:`SWEEP_WORTH` when it clears the table); without a capture, a random move that
    does not trail an ace, 10♦ or 2♠ (any move when there is no other); and for a tenth
    of the moves (:data:`RANDOM_ROLLOUT`), a uniformly random move."""
    if rng.random() < RANDOM_ROLLOUT:
        return moves[rng.randrange(len(moves))]
    best = None
    best_worth = -1.0
    builds = state.builds
    n_builds = len(builds)
    loose = state.loose
    cheap = []
    for m in moves:
        if m.kind == _CAPTURE:
            taken = (1 << m.card) | m.loose
            if m.builds:
                for i in range(n_builds):
                    if m.builds >> i & 1:
                        taken |= builds[i].mask
            worth = capture_worth(taken)
            if m.loose == loose and m.builds.bit_count() == n_builds:
                worth += SWEEP_WORTH
            if worth > best_worth:
                best, best_worth = m, worth
        elif not (1 << m.card) & PRECIOUS:
            cheap.append(m)
    if best is not None:
        return best
    if cheap:
        return cheap[rng.randrange(len(cheap))]
    return moves[rng.randrange(len(moves))]


def _apply(state: RoyalCasinoState, action: RoyalCasinoAction) -> RoyalCasinoState:
    return apply_legal(state, action)[0]


def solve_mode(view: RoyalCasinoView) -> SolveMode:
    """Exact in a two-player final deal, sampled worlds in the second half of the deal
    before it and near the end of a four-player hand
    (:mod:`~cardtable.games.royal_casino.endgame`), otherwise search."""
    if endgame.is_exact(view):
        return SolveMode.EXACT
    if endgame.is_sampled(view):
        return SolveMode.SAMPLED
    return SolveMode.NONE


def solve_state(state: RoyalCasinoState, max_nodes: int) -> Solved | None:
    """The endgame solver's values in the kit's terms (``None``: out of nodes)."""
    sol = endgame.solve(state, max_nodes)
    if sol is None:
        return None
    out = []
    for action, value in sol.values:
        diff, _result = endgame.decode(value)
        win = 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        out.append((action, float(value), float(diff), win))
    return Solved(tuple(out), sol.nodes)


SOLVER = Solver(solve_mode, solve_state, HARD_NODES)
"""Royal Casino's endgame solver for the bots."""


def search_profile() -> SearchProfile:
    """Royal Casino's search profile; ``expert`` searches :data:`EXPERT_SIMULATIONS` with
    its own profile, the same but for the reward's scale (:data:`EXPERT_SCALE`).

    >>> p = search_profile()
    >>> p.scale, p.expert is not None and p.expert.scale, p.expert_simulations
    (3.0, 6.0, 4800)
    """
    hard = SearchProfile(
        points,
        SCALE,
        _apply,
        legal_actions,
        to_act,
        rollout,
        final_margin=FINAL_MARGIN,
        hard_simulations=HARD_SIMULATIONS,
        solver=SOLVER,
    )
    expert = dataclasses.replace(hard, scale=EXPERT_SCALE)
    return dataclasses.replace(hard, expert=expert, expert_simulations=EXPERT_SIMULATIONS)
