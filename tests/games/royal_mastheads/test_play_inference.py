"""Worlds weighed by how likely the other seats' plays were in them (play_inference.py):
the likelihood follows the model, the sampler deals only worlds of the view, and a
search runs with it (a pilot option, ``lab/expert_pilot.py --play-inference``)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.games.royal_mastheads import GAME
from cardtable.games.royal_mastheads.greedy import MastheadsGreedyBot
from cardtable.games.royal_mastheads.play_inference import (
    PlayInferenceSampler,
    play_likelihood,
)
from cardtable.games.royal_mastheads.state import RoyalMastheadsState
from tests.script_loader import load_script


def _played(seed: int, moves: int, greedy_seats: frozenset[int]) -> RoyalMastheadsState:
    """A deal ``moves`` actions in: ``greedy`` in ``greedy_seats``, random elsewhere."""
    rng = random.Random(seed)
    bot = MastheadsGreedyBot()
    s = GAME.new_game(4, seed=seed, scope="unit")
    for _ in range(moves):
        seat = GAME.to_act(s)
        assert seat is not None
        legal = GAME.legal_actions(s)
        if seat in greedy_seats:
            action = bot.choose(GAME.view(s, seat), legal, rng)
        else:
            action = rng.choice(list(legal))
        s, _ = GAME.apply(s, action)
    return s


@given(st.integers(0, 10**6), st.integers(8, 40))
@settings(max_examples=25, deadline=None)
def test_with_no_uniform_share_the_true_world_of_greedy_players_is_certain(
    seed: int, moves: int
) -> None:
    # e = 0: the model is greedy itself, so where the others played greedy's cards the
    # true world explains every play (likelihood 1) whatever the viewer did
    s = _played(seed, moves, frozenset({1, 2, 3}))
    viewer = 0
    v = GAME.view(s, viewer)
    assert play_likelihood(v, s, 0.0, 0.0) == 1.0
    # and with a uniform share the same plays weigh the product of (1 - e) + e / legal,
    # never more than 1 and above 0
    p = play_likelihood(v, s)
    assert 0.0 < p <= 1.0


def test_a_random_players_true_world_is_unlikely_to_a_greedy_model() -> None:
    zeros = 0
    for seed in range(12):
        s = _played(seed, 36, frozenset())
        if play_likelihood(GAME.view(s, 0), s, 0.0, 0.0) == 0.0:
            zeros += 1
    # a random seat rarely plays greedy's card at every choice of a deal's first tricks
    assert zeros >= 10


@given(st.integers(0, 10**6), st.integers(8, 40), st.integers(0, 3))
@settings(max_examples=15, deadline=None)
def test_the_sampler_deals_worlds_of_the_view_only(seed: int, moves: int, viewer: int) -> None:
    s = _played(seed, moves, frozenset({1, 2, 3}))
    v = GAME.view(s, viewer)
    sampler = PlayInferenceSampler(v, pool=16)
    rng = random.Random(seed)
    for _ in range(6):
        assert GAME.view(sampler(rng), viewer) == v
    assert len(sampler.weights) == 16 and max(sampler.weights) == 1.0
    assert 1.0 <= sampler.effective_size() <= 16.0


def test_before_the_others_play_every_world_weighs_alike() -> None:
    # the pot is chosen (8 actions), the first lead is the viewer's: nothing to learn yet
    s = _played(5, 8, frozenset({1, 2, 3}))
    seat = GAME.to_act(s)
    assert seat is not None and not GAME.view(s, seat).trick
    sampler = PlayInferenceSampler(GAME.view(s, seat), pool=32)
    sampler(random.Random(1))
    assert sampler.weights == [1.0] * 32


def test_a_uniform_model_weighs_a_play_by_one_over_its_legal_cards() -> None:
    # e = 1: a seat plays any legal card alike, so a world weighs the product of
    # 1 / legal over the others' plays: the worlds differ only by those counts
    s = _played(5, 30, frozenset({1, 2, 3}))
    v = GAME.view(s, 0)
    p = play_likelihood(v, s, 1.0, 1.0)
    inverse = round(1 / p)
    assert abs(1 / p - inverse) < 1e-6 * inverse  # a product of whole numbers


def test_greedy_players_make_the_pool_uneven_and_the_true_hands_likelier() -> None:
    # where the others play greedy's cards the model learns from them: the pool's weights
    # spread, and the worlds nearest the true hands weigh more than the rest on average
    s = _played(2, 32, frozenset({1, 2, 3}))
    v = GAME.view(s, 0)
    sampler = PlayInferenceSampler(v, pool=128)
    sampler(random.Random(3))
    assert sampler.effective_size() < 100

    def overlap(world: RoyalMastheadsState) -> int:
        return sum(bin(world.hands[i] & s.hands[i]).count("1") for i in (1, 2, 3))

    pairs = list(zip(sampler.weights, sampler.worlds, strict=True))
    pairs.sort(key=lambda wp: -wp[0])
    top = [overlap(w) for _, w in pairs[:32]]
    rest = [overlap(w) for _, w in pairs[32:]]
    assert sum(top) / len(top) > sum(rest) / len(rest)


def test_the_pilot_searches_with_it() -> None:
    pilot = load_script("lab/expert_pilot.py")
    profile = pilot.candidate_profile(GAME, "expert", "base", 0.0, play_inference=True)
    expert = GAME.search_profile().expert
    assert expert is not None
    assert dataclasses.replace(profile, sampler=None) == dataclasses.replace(expert, sampler=None)
    s = _played(4, 24, frozenset({1, 2, 3}))
    seat = GAME.to_act(s)
    assert seat is not None
    r = search(
        SearchAdapter(GAME, profile),
        GAME.view(s, seat),
        GAME.legal_actions(s),
        random.Random(0),
        200,
    )
    assert r.simulations == 200 and r.best() in GAME.legal_actions(s)
    with pytest.raises(ValueError, match="not combined"):
        pilot.candidate_profile(
            GAME, "expert", "base", 0.0, pot_inference=True, play_inference=True
        )
