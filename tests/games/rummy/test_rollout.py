"""Search's rollout (compiled with the rules, in ``playout.py``) plays exactly what the
policy loop through the contract plays: the same actions, draws and estimate."""

from __future__ import annotations

import random

import pytest

from cardtable.games.rummy import GAME, RummyState
from cardtable.games.rummy.playout import links, policy_playout, rollout_policy
from cardtable.games.rummy.scoring import hand_penalty
from cardtable.games.rummy.search import ROLLOUT_DEPTH
from cardtable.games.rummy.state import DISCARD, DRAW, TAKE, Phase
from tests.games.rummy.helpers import pos


def policy_loop(
    state: RummyState, rng: random.Random, depth: int
) -> tuple[tuple[float, ...], bool]:
    """The reference: the rollout policy played through the contract, each seat's score
    at the round's end, or minus its penalties after ``depth`` actions."""
    start = state.round_no
    for _ in range(depth):
        action = rollout_policy(state, GAME.legal_actions(state), rng.random)
        state, _ = GAME.apply(state, action)
        if state.phase == Phase.OVER or state.round_no != start:
            return tuple(float(s) for s in state.scores), state.phase == Phase.OVER
    est = tuple(float(s - hand_penalty(h)) for s, h in zip(state.scores, state.hands, strict=True))
    return est, False


@pytest.mark.parametrize(
    ("options", "players"),
    [({}, 2), ({}, 4), ({"jokers": True}, 2), ({"decks": 2, "wrapKA2": True}, 3)],
)
def test_policy_playout_equals_the_policy_loop(options: dict[str, object], players: int) -> None:
    walk = random.Random(7)
    for seed in range(30):
        state = GAME.new_game(players, options, seed=seed, scope="unit")
        for _ in range(walk.randrange(0, 60)):
            legal = GAME.legal_actions(state)
            nxt, _ = GAME.apply(state, legal[walk.randrange(len(legal))])
            if GAME.to_act(nxt) is None:
                break
            state = nxt
        for depth in (ROLLOUT_DEPTH, 400):
            fast = policy_playout(state, random.Random(seed), depth)
            assert fast == policy_loop(state, random.Random(seed), depth)


def test_R9_3_a_playout_to_the_end_of_the_round_scores_it() -> None:
    s = GAME.new_game(2, seed=5, scope="unit")
    scores, over = policy_playout(s, random.Random(5), 10_000)
    assert over and max(scores) == 25.0


def test_links_count_cards_of_the_rank_and_near_in_the_suit() -> None:
    # 5S with 4S, 7S and 5H; 8H is three ranks from 5H's suit mates, not a link
    assert links(4, 1 << 3 | 1 << 6 | 1 << 17 | 1 << 20) == 3
    assert links(0, 1 << 12) == 0  # no K-A link for the ace of a low run


def test_R4_2_the_rollout_takes_a_discard_that_links_with_two_cards() -> None:
    s = pos("P1: 5S 6S KD\nP2: 9H 9D 3C\ndiscard: 7S\n", phase="DRAW P1")
    moves = GAME.legal_actions(s)
    assert {m.kind for m in moves} == {DRAW, TAKE}
    assert rollout_policy(s, moves, lambda: 0.0).kind == TAKE
    s = pos("P1: 5S 10S KD\nP2: 9H 9D 3C\ndiscard: 7S\n", phase="DRAW P1")
    assert rollout_policy(s, GAME.legal_actions(s), lambda: 0.0).kind == DRAW


def test_R4_4_the_rollout_discards_the_least_linked_then_the_costliest_card() -> None:
    s = pos("P1: 5S 6S KD 9C QS\nP2: 9H 9D 3C\n")
    moves = [m for m in GAME.legal_actions(s) if m.kind == DISCARD]
    assert GAME.format_action(rollout_policy(s, moves, lambda: 0.0)) == "DISCARD QS"
    s = pos("P1: 5S 6S KD 9C QS QH\nP2: 9H 9D 3C\n")  # the queens link now
    moves = [m for m in GAME.legal_actions(s) if m.kind == DISCARD]
    assert GAME.format_action(rollout_policy(s, moves, lambda: 0.0)) == "DISCARD KD"
