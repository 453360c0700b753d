"""A profile's model of what the other players play for (:attr:`SearchProfile.others`):
the nodes of the seats outside the searching seat's side are backed up with that reward,
the searching side's with the profile's own; a model equal to the profile's own reward
changes nothing.  Royal Mastheads' pilots use it to give ``expert``'s tree ``hard``'s
reward for the three other seats; no level uses it unless a pilot shows it plays better."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.bots.ismcts import SearchAdapter, _margin_rewards, _others_rewarded, search
from cardtable.games import get_game
from tests.bots.helpers import SEARCH_GAMES, random_view
from tests.script_loader import load_script


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_a_model_equal_to_the_own_reward_searches_as_without_one(name: str) -> None:
    game = get_game(name)
    view, legal = random_view(game, 11)
    base = game.search_profile()
    same = dataclasses.replace(base, others=(base.scale, base.final_margin))
    plain = search(SearchAdapter(game, base), view, legal, random.Random(2), 300)
    modelled = search(SearchAdapter(game, same), view, legal, random.Random(2), 300)
    assert modelled == plain


def test_another_reward_for_the_other_seats_changes_what_the_tree_expects() -> None:
    # Royal Mastheads' expert with hard's reward for the three others: the others' replies
    # are chosen by another objective below the root, so the root statistics differ.
    game = get_game("royal-mastheads")
    view, legal = random_view(game, 4, players=4)
    hard = game.search_profile()
    assert hard.expert is not None
    expert = hard.expert
    modelled = dataclasses.replace(expert, others=(hard.scale, hard.final_margin))
    a = search(SearchAdapter(game, expert), view, legal, random.Random(3), 400)
    b = search(SearchAdapter(game, modelled), view, legal, random.Random(3), 400)
    assert a.simulations == b.simulations == 400
    assert a != b


end_points = st.lists(st.integers(-600, 900), min_size=4, max_size=4)


@given(end_points, st.integers(0, 3), st.booleans())
def test_the_searching_side_keeps_its_reward_and_the_others_get_the_model(
    end: list[int], seat: int, over: bool
) -> None:
    sides = ((0, 2), (1, 3))
    own_side = frozenset(next(s for s in sides if seat in s))
    start = (0.0, 0.0, 0.0, 0.0)
    pts = tuple(float(x) for x in end)
    own = _margin_rewards(sides, 300.0, start, pts, 4)[0]
    model = _margin_rewards(sides, 60.0, start, pts, 4)[0]
    won = [1.0, 0.0, 1.0, 0.0] if over else None
    if won is not None:
        model = [0.5 * w + 0.5 * m for w, m in zip(won, model, strict=True)]
    mixed = _others_rewarded(own, (60.0, 0.5), own_side, sides, start, pts, 4, won)
    for i in range(4):
        assert mixed[i] == pytest.approx(own[i] if i in own_side else model[i])


def test_the_pilot_gives_the_expert_candidate_hards_reward_for_the_others() -> None:
    pilot = load_script("scripts/expert_pilot.py")
    game = get_game("royal-mastheads")
    hard = game.search_profile()
    assert hard.expert is not None
    plain = pilot.candidate_profile(game, "expert", "base", 0.0)
    modelled = pilot.candidate_profile(game, "expert", "base", 0.0, others_hard=True)
    assert plain == hard.expert and plain.others is None
    assert modelled.others == (hard.scale, hard.final_margin) != (plain.scale, plain.final_margin)
    assert dataclasses.replace(modelled, others=None) == plain
