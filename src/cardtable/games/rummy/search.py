"""How search walks Rummy: signed scores, a rollout policy that melds and keeps linked
cards, and a short playout that estimates the rest of the round from the penalties still
in each hand.

The tree is walked through the game's contract (``apply`` and ``legal_actions``, below the
root only the melds and lay-offs when there are any); the
playout calls the rules directly (:func:`rules.legal` and :func:`rules.apply_action` with the
play data the generator just made), so a rollout step generates each legal list once.

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
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.core.game import Game
from cardtable.core.kit import SearchProfile
from cardtable.games.rummy.rules import apply_action as rules_apply
from cardtable.games.rummy.rules import legal as rules_legal
from cardtable.games.rummy.scoring import PENALTY, hand_penalty
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    F52,
    JOKER0,
    LAYOFF,
    MELD,
    TAKE,
    Phase,
    RummyAction,
    RummyState,
)
from cardtable.games.rummy.view import RummyView

__all__ = [
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
figures and the load they were measured under).  It was 900 for the pure-Python engine;
the arena pilots of docs/bots.md ("Rummy: what was measured") chose 1,600 with the
inference and the meld-first tree."""
SCALE = 30.0
"""A typical point margin of one round."""
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


def links(face: int, faces: int) -> int:
    """How many cards of ``faces`` could make a set or a run with ``face``."""
    rank, suit = face % 13, face // 13
    n = 0
    for other in range(4):
        if other != suit and faces >> (other * 13 + rank) & 1:
            n += 1
    for d in (-2, -1, 1, 2):
        r = rank + d
        if 0 <= r < 13 and faces >> (suit * 13 + r) & 1:
            n += 1
    return n


def rollout_policy(
    state: RummyState, moves: Sequence[RummyAction], rnd: Callable[[], float]
) -> RummyAction:
    """Meld and lay off the most cards; take the top discard when it links with two cards
    of the hand; discard the least linked, most costly card (90%)."""
    first = moves[0].kind
    hand = state.hands[state.current]
    faces = (hand | hand >> 52) & F52
    if first in (DRAW, TAKE):
        if state.discard and rnd() < 0.9:
            top = state.discard[-1]
            if top < JOKER0 and links(top % 52, faces) >= 2:
                for m in moves:
                    if m.kind == TAKE and m.target == 0:
                        return m
        for m in moves:
            if m.kind == DRAW:
                return m
        return moves[int(rnd() * len(moves))]
    best = None
    best_n = 0
    for m in moves:
        if m.kind == MELD or m.kind == LAYOFF:
            n = len(m.cards)
            if n > best_n:
                best, best_n = m, n
    if best is not None:
        return best
    discards = [m for m in moves if m.kind == DISCARD]
    if discards and rnd() < 0.9:

        def cost(m: RummyAction) -> tuple[int, int]:
            c = m.cards[0]
            if c >= JOKER0:
                return (-99, 0)  # never throw a joker away
            return (-links(c % 52, faces & ~(1 << (c % 52))), PENALTY[c])

        return max(discards, key=cost)
    return moves[int(rnd() * len(moves))]


def search_profile(game: Game[RummyState, RummyAction, RummyView]) -> SearchProfile:
    """Rummy's search profile, played through ``game``'s contract."""
    apply = game.apply
    legal = game.legal_actions

    def playout(state: Any, rng: random.Random) -> tuple[tuple[float, ...], bool]:
        rnd = rng.random
        start_round = state.round_no
        for _ in range(ROLLOUT_DEPTH):
            moves, plays = rules_legal(state)
            action = rollout_policy(state, moves, rnd)
            state = rules_apply(state, action, plays.get(action))[0]
            if state.phase == _OVER or state.round_no != start_round:
                return points(state), state.phase == _OVER
        return estimate(state), False

    def apply_action(state: RummyState, action: RummyAction) -> RummyState:
        return apply(state, action)[0]

    def tree_legal(state: RummyState) -> Sequence[RummyAction]:
        # Below the root, a seat that can meld or lay off does so before it discards (as
        # the rollout policy and ``medium`` do): the search's model of every seat's later
        # turns, its own included, then melds at once, and it stops putting off its own
        # melds to the next turn, a turn at a time (measured: docs/bots.md).
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
        hard_simulations=HARD_SIMULATIONS,
    )
