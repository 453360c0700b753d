"""Hints: the legal actions ranked by an ISMCTS search from the player's own view.

The web app and ``cardtable play`` (``h``) call :func:`hint`.  Like every bot, the search
sees only the view: a hint can never reveal a hidden card.  Where the game's endgame
solver applies (:mod:`cardtable.bots.pimc`), the hint comes from it instead: ``exact``
when the rest of the unit is of perfect information to the player (the values are then
solved, not estimated), else from solved sampled worlds.

>>> import random
>>> from cardtable.games import get_game
>>> GAME = get_game("royal-casino")
>>> s = GAME.new_game(2, seed=4)
>>> seat = GAME.to_act(s)
>>> hs = hint(GAME, GAME.view(s, seat), GAME.legal_actions(s), 200, random.Random(0))
>>> len(hs) <= 3, 0.0 <= hs[0].win_prob <= 1.0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots.ismcts import adapter_for, search
from cardtable.bots.levels import EXPERT_FACTOR
from cardtable.bots.pimc import solve_view
from cardtable.core.registry import AnyGame

__all__ = ["DEFAULT_HINT_SIMULATIONS", "Hint", "hint"]

DEFAULT_HINT_SIMULATIONS = 1000
"""The default search budget of a hint, in simulations."""


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggested action with the search's estimates.

    ``win_prob``: the share of simulations after which the player's side was ahead at the
    end of the current hand/deal (or had won the game), ties counting half;
    ``expected_points``: the mean points margin over the rest of the hand (own side minus
    the mean of the others); ``visits``: how many simulations tried it first (or how many
    worlds were solved); ``exact``: the numbers are solved values, not estimates (``win_prob``
    is then 1, ½ or 0 and ``expected_points`` the margin the hand ends with, against any
    defence).
    """

    action: Any
    text: str
    win_prob: float
    expected_points: float
    visits: int
    exact: bool = False

    def to_json(self) -> dict[str, Any]:
        """The hint as JSON for the web app."""
        return {
            "action": self.text,
            "win_prob": round(self.win_prob, 3),
            "expected_points": round(self.expected_points, 2),
            "visits": self.visits,
            "exact": self.exact,
        }


def hint(
    game: AnyGame,
    view: Any,
    legal: Sequence[Any],
    budget: int = DEFAULT_HINT_SIMULATIONS,
    rng: random.Random | None = None,
    top: int = 3,
) -> list[Hint]:
    """The ``top`` best actions for the seat of ``view``, best first.

    ``budget`` is a number of simulations (the caller turns a time limit into one).
    Where the game's solver applies, it gets ``expert``'s node budget instead.
    """
    rng = rng or random.Random(0)
    if len(legal) == 1:
        a = legal[0]
        return [Hint(a, game.format_action(a), float("nan"), float("nan"), 0)]
    solver = game.search_profile().solver
    if solver is not None:
        nodes = solver.hard_nodes * EXPERT_FACTOR
        solved = solve_view(game, view, legal, rng, nodes, solver.worlds * EXPERT_FACTOR)
        if solved is not None:
            return [
                Hint(
                    s.action,
                    game.format_action(s.action),
                    s.win_prob,
                    s.points,
                    s.visits,
                    solved.exact,
                )
                for s in solved.result.stats[:top]
            ]
    result = search(adapter_for(game), view, legal, rng, budget)
    return [
        Hint(s.action, game.format_action(s.action), s.win_prob, s.points, s.visits)
        for s in result.stats[:top]
    ]
