"""How search walks Royal Mastheads: running totals, a fast apply, and a playout of the rest
of the deal on the engine's mutable :class:`~cardtable.games.royal_mastheads.engine.Deal`
(:mod:`~cardtable.games.royal_mastheads.deal_playout`).

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> profile = search_profile()
>>> s = GAME.new_game(4, seed=1, scope="unit")
>>> totals, over = profile.playout(s, random.Random(0))
>>> len(totals), over
(4, True)
"""

from __future__ import annotations

import dataclasses
from typing import Final

from cardtable.core.kit import SearchProfile, Solved, SolveMode, Solver
from cardtable.games.royal_mastheads import double_dummy
from cardtable.games.royal_mastheads.deal_playout import random_totals
from cardtable.games.royal_mastheads.play_model import model_sampler
from cardtable.games.royal_mastheads.rules import apply_quietly, legal_actions
from cardtable.games.royal_mastheads.state import RoyalMastheadsState
from cardtable.games.royal_mastheads.view import RoyalMastheadsView

__all__ = [
    "EXPERT_FINAL_MARGIN",
    "EXPERT_SCALE",
    "EXPERT_SIMULATIONS",
    "EXPERT_TAIL",
    "FINAL_MARGIN",
    "HARD_NODES",
    "HARD_SIMULATIONS",
    "ROLLOUT_GREEDY",
    "SCALE",
    "fast_playout",
    "search_profile",
    "solve_mode",
    "solve_state",
]

HARD_SIMULATIONS = 12_000
"""Simulations per move of ``hard``, within its time contract (0.5 s a move).  With the
rules, the playout and the search compiled (mypyc), ``scripts/level_timing.py
royal-mastheads --level hard --games 4 --seed 1001`` measured, in CPU seconds a move (load
average 17.6, which inflates CPU time too): mean 0.34, 95th percentile 0.40, largest 0.42
(41 moves); 5,000 simulations took at most 0.18 there.  Before the compiled build the
budget was 5,000 (10,400 simulations a second at the dearest move)."""
HARD_NODES = 8_000
"""Double-dummy nodes per move of ``hard`` (PIMC over sampled worlds in the last
:data:`~cardtable.games.royal_mastheads.double_dummy.PIMC_TRICKS` tricks): a world with
three tricks to play takes about 1,650 nodes with max-n (the largest of 20, 3,800; 1,070
and 2,400 with the paranoid model)."""
PIMC_WORLDS = 8
"""Worlds ``hard`` samples per move there (``expert`` four times as many)."""
SCALE = 60.0
"""A typical point margin of one deal."""
ROLLOUT_GREEDY = 0.0
"""Share of greedy follows in rollouts.  Measured with ``ismcts:1000`` against ``medium``
(60 deals x 4 seatings, seed 11): 0 won 61.7% of duplicate matches, 0.5 won 63.3% and 0.8
won 46.7%, so rollouts stay random (which is also faster)."""
FINAL_MARGIN = 0.5
"""Share of the point-margin reward when the game ends inside a simulation.  Same
measurement: 0 (win or lose only) 61.7% of duplicate matches, mean points 58.3 against
44.2; 0.5 63.3%, 87.8 against 42.1; 1 61.7%, 70.2 against 44.6."""


EXPERT_SIMULATIONS = 48_000
"""Simulations per move of ``expert``: four times ``hard``'s, in two trees of 24,000, one
per core.  On an idle machine (load average 1.0) ``scripts/level_timing.py
royal-mastheads --level expert --games 4 --seed 1001`` measured 0.62 / 0.77 / 0.87 s a move
(mean / 95th percentile / largest; the contract is 2 s).  It won 59.0% (49.2-68.1) of 100
duplicate matches against ``hard`` on seed 1.  Eight times ``hard``'s (96,000, 1.26 / 1.52
/ 1.65 s a move) won 39.0% (30.0-48.8), +0.2 +- 14.8 points a deal, on seed 6; this budget,
replayed on the same deals (rule fixed before the run), won more matches and
by a larger margin (lab/notes/bots-experiments.md), so the budget went back to half the time a
move."""
EXPERT_SCALE = 40.0
"""The sharp part's margin scale of ``expert``'s reward (``hard``: :data:`SCALE`), with
:data:`EXPERT_TAIL` the wide part: ``0.6 tanh(margin / 40) + 0.4 tanh(margin / 500)``.
The arena decides a duplicate match by the sign of the total margin over a deal's four
seatings, which the usual small margins (median 20 points) decide in most deals and a
royal bonus (500) in the rest; that mix is the nearest of its form to what a seating's
margin was worth to the match in the seed-8 row of the level before it
(``lab/pilot_journal.py --utility``; 0.6 / 35 / 0.4 / 600 on the play model's
journal).  Before this mix the reward was ``tanh(margin / 300)`` alone, nearly linear up to a royal
bonus: the level with it won points (+68.2 +- 24.2 a deal on seed 8) but 51.5 of 100
matches (lab/notes/bots-experiments.md)."""
EXPERT_TAIL = (0.4, 500.0)
"""The wide part of ``expert``'s reward: its share and scale
(:attr:`~cardtable.core.kit.SearchProfile.tail`)."""
EXPERT_FINAL_MARGIN = 1.0
"""``expert`` rewards the point margin alone when the deal ends the game (``hard``:
:data:`FINAL_MARGIN`, half of its reward for finishing first of four, whatever the
points)."""


def points(state: RoyalMastheadsState) -> tuple[float, ...]:
    """Each seat's running total."""
    return state.info.totals


def to_act(state: RoyalMastheadsState) -> int | None:
    """The seat to act, or ``None`` when the game is over."""
    return state.to_act


fast_playout: Final = random_totals
"""Play the rest of the deal at random: each seat's total at its end, and whether the
game is then over (:data:`ROLLOUT_GREEDY`: the rollouts stay random)."""


def solve_mode(view: RoyalMastheadsView) -> SolveMode:
    """Sampled worlds once at most ``PIMC_TRICKS`` tricks are left, else search.  Never
    exact: the other hands stay hidden until the last card."""
    if (
        view.phase == "play"
        and view.seat is not None
        and view.to_act == view.seat
        and 11 - len(view.tricks) <= double_dummy.PIMC_TRICKS
    ):
        return SolveMode.SAMPLED
    return SolveMode.NONE


def solve_state(state: RoyalMastheadsState, max_nodes: int) -> Solved | None:
    """The double-dummy values in the kit's terms (``None``: out of nodes)."""
    sol = double_dummy.solve(state, max_nodes)
    if sol is None:
        return None
    out = []
    for card, value in sol.values:
        margin = value / 3
        win = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        out.append((card, float(value), margin, win))
    return Solved(tuple(out), sol.nodes)


SOLVER = Solver(solve_mode, solve_state, HARD_NODES, PIMC_WORLDS)
"""Royal Mastheads' double-dummy solver for the bots, not in the search profile: PIMC in
the last three tricks did not play better than ISMCTS against ``medium``
(``lab/endgame_duel.py``, 100 endgames, seed 1: paranoid -2.8 ± 1.9 points, max-n
-4.4 ± 2.6), so ``hard`` and ``expert`` keep searching there."""
USE_SOLVER = False
"""Whether the search profile offers :data:`SOLVER` to the bots (see there)."""


def search_profile() -> SearchProfile:
    """Royal Mastheads' search profile; its ``expert`` profile searches the same game for
    the point margin shaped like a match's chances (:data:`EXPERT_SCALE`,
    :data:`EXPERT_TAIL`, :data:`EXPERT_FINAL_MARGIN`), on worlds
    weighed by how likely the other seats' plays were under the model of ``hard``
    (:func:`~cardtable.games.royal_mastheads.play_model.model_sampler`: it won 58 of
    seed 6's 100 duplicate matches against ``hard``, where six other candidates won 38 to
    52.5).  With both, the level won 68 of seed 9's 100 duplicate matches against ``hard``
    (58.3-76.3%; lab/notes/bots-experiments.md).

    >>> p = search_profile()
    >>> p.scale, p.final_margin, p.expert is not None and (p.expert.scale, p.expert.final_margin)
    (60.0, 0.5, (40.0, 1.0))
    >>> p.tail is None and p.expert is not None and p.expert.tail
    (0.4, 500.0)
    >>> p.sampler is None and p.expert is not None and p.expert.sampler is model_sampler
    True
    """
    hard = SearchProfile(
        points,
        SCALE,
        apply_quietly,
        legal_actions,
        to_act,
        None,
        fast_playout,
        FINAL_MARGIN,
        HARD_SIMULATIONS,
        SOLVER if USE_SOLVER else None,
    )
    expert = dataclasses.replace(
        hard,
        scale=EXPERT_SCALE,
        tail=EXPERT_TAIL,
        final_margin=EXPERT_FINAL_MARGIN,
        sampler=model_sampler,
    )
    return dataclasses.replace(hard, expert=expert, expert_simulations=EXPERT_SIMULATIONS)
