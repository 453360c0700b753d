"""How search walks Rummy: signed scores, a rollout policy that melds and keeps linked
cards, and a short playout that estimates the rest of the round from the penalties still
in each hand.

The tree is walked through the game's contract (``apply`` and ``legal_actions``, below the
root only the melds and lay-offs when there are any); the
playout (:func:`~cardtable.games.rummy.playout.policy_playout`, compiled with the rules)
calls the rules directly (:func:`rules.legal` and :func:`rules.apply_action` with the play
data the generator just made), so a rollout step generates each legal list once.

>>> import random
>>> from cardtable.games.rummy import GAME
>>> profile = search_profile(GAME)
>>> s = GAME.new_game(2, seed=3)
>>> profile.points(s)
(0.0, 0.0)
>>> len(profile.playout(s, random.Random(0))[0])
2
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.core.game import Game
from cardtable.core.kit import SearchProfile
from cardtable.games.rummy.playout import links, policy_playout, rollout_policy
from cardtable.games.rummy.scoring import hand_penalty
from cardtable.games.rummy.state import LAYOFF, MELD, Phase, RummyAction, RummyState
from cardtable.games.rummy.view import RummyView

__all__ = [
    "EXPERT_SIMULATIONS",
    "FINAL_MARGIN",
    "HARD_SIMULATIONS",
    "ROLLOUT_DEPTH",
    "SCALE",
    "estimate",
    "links",
    "points",
    "rollout_policy",
    "search_profile",
]

HARD_SIMULATIONS = 1600
"""Simulations per move of ``hard``, within its time contract (0.5 s a move), on the
compiled build: ``scripts/level_timing.py rummy --level hard`` (docs/bots.md gives the
figures and the load they were measured under).  Arena matches chose 1,600 with the
inference and the meld-first tree; 3,000 simulations fit the contract on the compiled
rollout but did not play better (lab/notes/bots-experiments.md), so the budget stayed."""
EXPERT_SIMULATIONS = 12_800
"""Simulations per move of ``expert`` (eight times ``hard``'s, in two trees of 6,400, one
per core): within its time contract (2 s a move; docs/bots.md gives the figures).  At
four times ``hard``'s ``expert`` won 56.0% of 100 duplicate matches against
``hard``, short of its target; the other levers tried since (four trees, deeper
playouts, an opponent model, a smaller exploration constant) gained nothing at
``hard``'s budget (lab/notes/bots-experiments.md)."""
SCALE = 100.0
"""The reward's scale, ``0.5 + 0.5 * tanh(margin / SCALE)``: about linear over a round's
margins (a round is won by 25 plus the loser's penalty points, 35 to 100 or so), as a
duplicate match counts them; at 30 a round lost by 60 and one lost by 120 would be
rewarded alike, so the search would pay little for the penalty points it holds when it is
caught (arena matches: lab/notes/bots-experiments.md)."""
FINAL_MARGIN = 1.0
"""When a simulation ends the game (a one-round game, as the arena plays it, ends with its
round), it is rewarded by the round's point margin alone, as every other simulation is: a
duplicate match is won on the total points of its seatings, so a lost round still counts
the penalty points it costs, and a won one the points it takes.  (With 0, the win/loss
reward, every discard of a round about to be lost would look the same.)  In a whole match
the last round is then played for its points too, not for the match alone."""
ROLLOUT_DEPTH = 40
"""Rollouts stop after this many actions (a round is hundreds of random actions); the rest
of the round is estimated from the penalty values still in each hand."""

_OVER = Phase.OVER
_PLAY = Phase.PLAY


def points(state: RummyState) -> tuple[float, ...]:
    """Each seat's score (signed, R9.3: the closer +25, the others minus their penalties)."""
    return tuple(float(s) for s in state.scores)


def estimate(state: RummyState) -> tuple[float, ...]:
    """Scores so far minus the penalty each seat would pay if the round ended now."""
    return tuple(float(s - hand_penalty(h)) for s, h in zip(state.scores, state.hands, strict=True))


def search_profile(game: Game[RummyState, RummyAction, RummyView]) -> SearchProfile:
    """Rummy's search profile, played through ``game``'s contract."""
    apply = game.apply
    legal = game.legal_actions

    def playout(state: Any, rng: random.Random) -> tuple[tuple[float, ...], bool]:
        return policy_playout(state, rng, ROLLOUT_DEPTH)

    def apply_action(state: RummyState, action: RummyAction) -> RummyState:
        return apply(state, action)[0]

    def tree_legal(state: RummyState) -> Sequence[RummyAction]:
        # Below the root, a seat that can meld or lay off does so before it discards (as
        # the rollout policy and ``medium`` do): the search's model of every seat's later
        # turns, its own included, then melds at once, and it stops putting off its own
        # melds to the next turn, a turn at a time (measured: lab/notes/bots-experiments.md).
        moves = legal(state)
        if state.phase == _PLAY:
            plays = [m for m in moves if m.kind == MELD or m.kind == LAYOFF]
            if plays:
                return plays
        return moves

    return SearchProfile(
        points,
        SCALE,
        apply_action,
        tree_legal,
        game.to_act,
        None,
        playout,
        final_margin=FINAL_MARGIN,
        hard_simulations=HARD_SIMULATIONS,
        expert_simulations=EXPERT_SIMULATIONS,
    )
