"""The play model fitted to a level's decisions (play_model.py): its probabilities are a
distribution over the legal cards, the likelihood of a world adds up each other seat's
decisions (pot and plays) under it, the weighed sampler deals only worlds of the view and
keeps its effective size, the fitting script learns a level it is shown, and a pilot
searches with it (``lab/expert_pilot.py --play-model``)."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.cards import mask_of
from cardtable.core.record import Record
from cardtable.games.royal_mastheads import GAME
from cardtable.games.royal_mastheads.determinize import MastheadsSampler
from cardtable.games.royal_mastheads.greedy import MastheadsGreedyBot
from cardtable.games.royal_mastheads.play_model import (
    FEATURES,
    WEIGHTS,
    Kind,
    Rules,
    choice_probabilities,
    legal_cards,
    model_sampler,
    rules_of,
    weight_vector,
    world_log_likelihood,
)
from cardtable.games.royal_mastheads.state import POT_BASE, RoyalMastheadsState, pot_owner
from cardtable.games.royal_mastheads.weighed_worlds import (
    PlayInferenceSampler,
    effective_size,
    plays_of,
    tempered,
)
from tests.script_loader import load_script


def _played(
    seed: int, moves: int, greedy_seats: frozenset[int]
) -> tuple[RoyalMastheadsState, Record]:
    """A deal ``moves`` actions in (``greedy`` in ``greedy_seats``, random elsewhere) and
    its record."""
    rng = random.Random(seed)
    bot = MastheadsGreedyBot()
    s = GAME.new_game(4, seed=seed, scope="unit")
    lines: list[str] = []
    for _ in range(moves):
        seat = GAME.to_act(s)
        assert seat is not None
        legal = GAME.legal_actions(s)
        if seat in greedy_seats:
            action = bot.choose(GAME.view(s, seat), legal, rng)
        else:
            action = rng.choice(list(legal))
        lines.append(GAME.format_action(action))
        s, _ = GAME.apply(s, action)
    record = Record("royal-mastheads", 4, seed, {}, "unit", actions=tuple(lines))
    return s, record


_WEIGHTS = st.dictionaries(st.sampled_from(FEATURES), st.floats(-6.0, 6.0), max_size=12)


@given(st.integers(0, 10**6), st.integers(0, 40), _WEIGHTS)
@settings(max_examples=40, deadline=None)
def test_the_model_is_a_distribution_over_the_legal_cards(
    seed: int, moves: int, weights: dict[str, float]
) -> None:
    s, _ = _played(seed, moves, frozenset())
    seat = GAME.to_act(s)
    assert seat is not None
    v = GAME.view(s, seat)
    hand = mask_of(v.hand)
    gone = mask_of([c for _l, _w, cards in v.tricks for c in cards]) | mask_of(v.trick)
    kind: Kind = "pot" if v.phase == "pot" else ("follow" if v.trick else "lead")
    probs = choice_probabilities(rules_of(v), kind, hand, v.trick, gone, weights)
    legal = GAME.legal_actions(s)
    assert sorted(probs) == sorted(a - POT_BASE if a >= POT_BASE else a for a in legal)
    assert math.isclose(sum(probs.values()), 1.0)
    assert all(p > 0 for p in probs.values())
    if not weights:
        assert all(math.isclose(p, 1 / len(probs)) for p in probs.values())


@given(st.integers(0, 10**6), st.integers(9, 44), st.integers(0, 3))
@settings(max_examples=30, deadline=None)
def test_with_no_weights_a_world_weighs_one_over_each_choice_it_explains(
    seed: int, moves: int, viewer: int
) -> None:
    # a uniform model: each other seat's play weighs 1 / its legal cards in the world and
    # its two pot cards 2 / (13 * 12) (either order), whatever cards the world dealt
    s, _ = _played(seed, moves, frozenset())
    v = GAME.view(s, viewer)
    expected = 0.0
    for i in range(len(s.pot)):
        if pot_owner(v.dealer, i) != viewer and i % 2 == 1:
            expected += math.log(2 / (13 * 12))
    hands = list(s.hands)
    plays = plays_of(v)
    for seat, card, _before, _gone in plays:
        hands[seat] |= 1 << card
    for seat, card, before, _gone in plays:
        n = len(legal_cards("follow" if before else "lead", hands[seat], before))
        hands[seat] &= ~(1 << card)
        if seat != viewer:
            expected -= math.log(n)
    got = world_log_likelihood(v, s, weight_vector({}))
    assert math.isclose(got, expected, abs_tol=1e-9)


def test_a_model_of_greedy_finds_the_true_world_of_greedy_players_likelier() -> None:
    # weights that favour greedy's habits (the cheapest winning card, the lowest loser,
    # hiding low cards): the true hands of greedy players outweigh worlds dealt at random
    weights = weight_vector(
        {
            "f_wins_cheapest": 3.0,
            "f_loses_lowest": 2.0,
            "p_rank": -6.0,
            "p_trump": -3.0,
            "l_royal": 3.0,
        }
    )
    better = 0
    for seed in range(10):
        s, _ = _played(seed, 30, frozenset({1, 2, 3}))
        v = GAME.view(s, 0)
        truth = world_log_likelihood(v, s, weights)
        sampler = model_sampler(v, {}, pool=64, pot_kinds=False)
        rng = random.Random(seed)
        others = [world_log_likelihood(v, sampler(rng), weights) for _ in range(64)]
        if truth > sum(others) / len(others):
            better += 1
    assert better >= 9


@given(st.lists(st.floats(-200.0, 0.0), min_size=2, max_size=60), st.floats(1.0, 30.0))
@settings(max_examples=60, deadline=None)
def test_tempering_keeps_the_effective_size_or_changes_nothing(
    logs: list[float], min_ess: float
) -> None:
    weights = tempered(logs, min_ess)
    assert max(weights) == 1.0 and all(w > 0 for w in weights)
    target = min(min_ess, len(logs))
    plain = tempered(logs, 0.0)
    if effective_size(plain) >= target:
        assert weights == plain
    else:
        # bisection to 1/1024 of beta: within a hair of the floor, and never the untempered
        assert effective_size(weights) >= target - 1e-6 or weights == [1.0] * len(logs)


@given(st.integers(0, 10**6), st.integers(8, 40), st.integers(0, 3), st.booleans())
@settings(max_examples=20, deadline=None)
def test_the_weighed_sampler_deals_worlds_of_the_view_only(
    seed: int, moves: int, viewer: int, pot_kinds: bool
) -> None:
    s, _ = _played(seed, moves, frozenset({1, 2, 3}))
    v = GAME.view(s, viewer)
    weights = {"f_wins_cheapest": 4.0, "p_rank": -8.0}
    sampler = model_sampler(v, weights, pool=32, min_ess=4.0, pot_kinds=pot_kinds)
    rng = random.Random(seed)
    for _ in range(6):
        assert GAME.view(sampler(rng), viewer) == v
    assert isinstance(sampler, PlayInferenceSampler)
    assert len(sampler.weights) == 32 and max(sampler.weights) == 1.0
    assert sampler.effective_size() >= 4.0 - 1e-6


def test_under_another_ruleset_the_worlds_are_dealt_as_before_the_model() -> None:
    # the weights and the pot's kinds were measured under pagat only
    s = GAME.new_game(4, {"ruleset": "russian"}, seed=2, scope="unit")
    for _ in range(20):
        s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    v = GAME.view(s, 0)
    sampler = model_sampler(v)
    assert isinstance(sampler, MastheadsSampler)
    assert sampler(random.Random(4)) == MastheadsSampler(v)(random.Random(4))


def test_with_the_pot_drawn_by_kind_only_the_plays_weigh() -> None:
    # pot_kinds: the pool's pot comes from the count by kind, so the likelihood leaves the
    # pot out: a weight on a pot fact changes nothing, a weight on a play fact does
    s, _ = _played(7, 30, frozenset({1, 2, 3}))
    v = GAME.view(s, 0)
    uniform = world_log_likelihood(v, s, weight_vector({}), pot=False)
    pot_only = weight_vector({"p_rank": -8.0})
    assert world_log_likelihood(v, s, pot_only, pot=False) == uniform
    assert world_log_likelihood(v, s, pot_only) != world_log_likelihood(v, s, weight_vector({}))
    plays = weight_vector({"f_wins_cheapest": 3.0})
    assert world_log_likelihood(v, s, plays, pot=False) != uniform


def test_the_fitted_weights_name_features_of_the_model() -> None:
    assert set(WEIGHTS) <= set(FEATURES)
    assert len(set(FEATURES)) == len(FEATURES)


def test_the_fitting_script_learns_a_level_it_is_shown(tmp_path: Path) -> None:
    # greedy's decisions, written as records and fitted: the fitted model foresees most of
    # them (a uniform guess foresees about a quarter)
    script = load_script("scripts/fit_play_model.py")
    obs = []
    for seed in range(6):
        _, record = _played(seed, 52, frozenset({0, 1, 2, 3}))
        (tmp_path / f"r{seed}.json").write_text(record.dumps(), encoding="utf-8")
        obs.extend(script.observations(record))
    assert {kind for kind, _x, _c in obs} == {"pot", "lead", "follow"}
    w = script.fit(obs, 1.0)
    agreed = 0
    for _kind, x, chosen in obs:
        agreed += int((x @ w).argmax() == chosen)
    assert agreed / len(obs) > 0.7
    assert script.main([str(tmp_path), "--out", str(tmp_path / "w.json")]) == 0
    assert (tmp_path / "w.json").exists()


def test_the_rules_of_a_view_are_its_deal_s() -> None:
    s, _ = _played(3, 10, frozenset())
    v = GAME.view(s, 0)
    assert rules_of(v) == Rules(v.trumps, v.masthead, v.ace_high, v.ace_points)


def test_the_pilot_searches_with_it() -> None:
    pilot = load_script("lab/expert_pilot.py")
    profile = pilot.candidate_profile(GAME, "expert", "base", 0.0, play_model=True)
    assert profile.sampler is model_sampler
    expert = GAME.search_profile().expert
    assert expert is not None
    assert dataclasses.replace(profile, sampler=None) == dataclasses.replace(expert, sampler=None)
    s, _ = _played(4, 24, frozenset({1, 2, 3}))
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
        pilot.candidate_profile(GAME, "expert", "base", 0.0, pot_inference=True, play_model=True)
