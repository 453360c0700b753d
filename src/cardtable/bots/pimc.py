"""Solving the end of a unit: exact play, or perfect-information Monte Carlo (PIMC).

A game's kit may offer a :class:`~cardtable.core.kit.Solver` (its search profile's
``solver``).  Where it says the rest of the unit is of perfect information to the viewer
(:attr:`SolveMode.EXACT`), one determinization of the view *is* the world, and one solve
gives every action's exact value.  Where it says few cards remain
(:attr:`SolveMode.SAMPLED`), :func:`solve_view` solves several sampled worlds and ranks
the actions by their mean value (PIMC, as in bridge's and Skat's card-play programs).

The work is counted in solver nodes: ``max_nodes`` bounds the whole call (all worlds), so
a bot's budget binds on every machine; a solve that runs out of nodes gives ``None`` (for
an exact solve) or the worlds finished so far.

>>> import random
>>> from cardtable.games import get_game
>>> GAME = get_game("royal-casino")
>>> s = GAME.new_game(2, seed=1)
>>> solve_view(GAME, GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s), random.Random(0), 1000)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots.ismcts import ActionStats, SearchResult
from cardtable.core.kit import SolveMode
from cardtable.core.registry import AnyGame

__all__ = ["SolvedResult", "solve_view"]


@dataclass(frozen=True, slots=True)
class SolvedResult:
    """What solving gave for one view.

    ``result`` ranks the actions like a search result (``visits``: worlds solved,
    ``value``: the mean solver value, ``win_prob``: the share of worlds where the side
    ends the unit ahead, ``points``: the mean point margin); ``exact`` is True when the
    values are proven (one world, the only one consistent with the view); ``nodes`` counts
    the solver's work.
    """

    result: SearchResult
    exact: bool
    nodes: int


def solve_view(
    game: AnyGame,
    view: Any,
    legal: Sequence[Any],
    rng: random.Random,
    max_nodes: int,
    worlds: int = 16,
) -> SolvedResult | None:
    """Solve from ``view`` within ``max_nodes`` solver nodes in all, or ``None`` when the
    game has no solver, its solver does not apply here, or nothing was solved in budget.

    The result depends only on the view, the legal actions, ``rng``'s state and the budget.
    """
    solver = game.search_profile().solver
    if solver is None or max_nodes <= 0:
        return None
    mode = solver.mode(view)
    if mode == SolveMode.NONE:
        return None
    sampler = game.view_sampler(view)
    count = 1 if mode == SolveMode.EXACT else max(1, worlds)
    sums: dict[Any, list[float]] = {a: [0.0, 0.0, 0.0] for a in legal}
    solved = 0
    used = 0
    for _ in range(count):
        got = solver.solve(sampler(rng), max_nodes - used)
        if got is None:
            used = max_nodes  # the failed solve spent the rest of the budget
            break
        used += got.nodes
        solved += 1
        for action, value, margin, win in got.values:
            row = sums.get(action)
            if row is not None:
                row[0] += value
                row[1] += margin
                row[2] += win
    if not solved:
        return None
    stats = [
        ActionStats(a, solved, row[0] / solved, row[2] / solved, row[1] / solved)
        for a, row in sums.items()
    ]
    order = {a: i for i, a in enumerate(legal)}
    stats.sort(key=lambda s: (-s.value, order[s.action]))
    return SolvedResult(SearchResult(solved, tuple(stats)), mode == SolveMode.EXACT, used)
