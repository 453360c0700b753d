"""A margin reward with a wide tail (:attr:`SearchProfile.tail`): a share of the reward is
``tanh(margin / wide scale)``, the rest the profile's own sharp ``tanh``.  Royal
Mastheads' ``expert`` searches with this reward, shaped like the chance that a seating's
margin wins the duplicate match."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.bots.ismcts import SearchAdapter, _margin_rewards, search
from cardtable.games import get_game
from tests.bots.helpers import SEARCH_GAMES, random_view

end_points = st.lists(st.integers(-600, 900), min_size=4, max_size=4)


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_a_tail_with_the_profiles_own_scale_searches_as_without_one(name: str) -> None:
    # tanh(d / s) mixed with itself is tanh(d / s): the same rewards, the same search.
    game = get_game(name)
    view, legal = random_view(game, 11)
    base = game.search_profile()
    same = dataclasses.replace(base, tail=(0.5, base.scale))
    plain = search(SearchAdapter(game, base), view, legal, random.Random(2), 300)
    tailed = search(SearchAdapter(game, same), view, legal, random.Random(2), 300)
    assert [(s.action, s.visits) for s in tailed.stats] == [
        (s.action, s.visits) for s in plain.stats
    ]
    for a, b in zip(tailed.stats, plain.stats, strict=True):
        assert a.value == pytest.approx(b.value)


def test_a_tail_changes_what_royal_mastheads_expert_prefers() -> None:
    game = get_game("royal-mastheads")
    view, legal = random_view(game, 4, players=4)
    expert = game.search_profile().expert
    assert expert is not None
    tailed = dataclasses.replace(expert, scale=40.0, tail=(0.35, 500.0))
    a = search(SearchAdapter(game, expert), view, legal, random.Random(3), 400)
    b = search(SearchAdapter(game, tailed), view, legal, random.Random(3), 400)
    assert a.simulations == b.simulations == 400
    assert a != b


@given(end_points, st.floats(0.05, 1.0), st.sampled_from([20.0, 40.0, 60.0]))
def test_the_tailed_reward_is_the_mix_of_the_two_tanh(
    end: list[int], share: float, scale: float
) -> None:
    sides = ((0,), (1,), (2,), (3,))
    start = (0.0, 0.0, 0.0, 0.0)
    pts = tuple(float(x) for x in end)
    reward, wins, margin = _margin_rewards(sides, scale, start, pts, 4, share, 500.0)
    plain_reward, plain_wins, plain_margin = _margin_rewards(sides, scale, start, pts, 4)
    assert wins == plain_wins and margin == plain_margin
    for i in range(4):
        d = margin[i]
        mix = (1 - share) * math.tanh(d / scale) + share * math.tanh(d / 500.0)
        assert reward[i] == pytest.approx(0.5 + 0.5 * mix)
        assert 0.0 <= reward[i] <= 1.0
        # the seats in the plain reward's order: a larger margin is never worth less, and
        # the wide part still tells apart the margins where the sharp tanh is saturated
        for j in range(4):
            if margin[i] > margin[j]:
                assert reward[i] > reward[j] and plain_reward[i] >= plain_reward[j]
