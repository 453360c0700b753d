"""Determinization: consistent with the view, never a card where the view rules it out."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.determinize import determinizer_for
from cardtable.games import get_game
from tests.bots.helpers import SEARCH_GAMES, random_position


@pytest.mark.parametrize("name", SEARCH_GAMES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), det_seed=st.integers(0, 10**6), other=st.integers(0, 3))
def test_determinization_gives_the_same_view_back(
    name: str, seed: int, det_seed: int, other: int
) -> None:
    game = get_game(name)
    state, seat = random_position(game, seed)
    # any seat, not only the one to act
    seat = (seat + other) % game.players(state)
    view = game.view(state, seat)
    det = determinizer_for(name)
    assert det is not None
    d = det(view, random.Random(det_seed))
    assert game.view(d, seat) == view
    assert game.invariant_failures(d) == []
    # the seat's own legal actions are unchanged when it is to act
    if game.to_act(state) == seat:
        assert list(game.legal_actions(d)) == list(game.legal_actions(state))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), det_seed=st.integers(0, 10**6), other=st.integers(0, 3))
def test_mastheads_voids_are_respected(seed: int, det_seed: int, other: int) -> None:
    from cardtable.bots.determinize.royal_mastheads import determinize, voids
    from cardtable.games.royal_mastheads.state import SUIT_MASK

    game = get_game("royal-mastheads")
    state, seat = random_position(game, seed)
    seat = (seat + other) % 4
    view = game.view(state, seat)
    void = voids(view)
    d = determinize(view, random.Random(det_seed))
    for s in range(4):
        for suit in range(4):
            if void[s] >> suit & 1:
                assert not d.hands[s] & SUIT_MASK[suit], (s, suit)
    # the true state satisfies the same voids (the inference is sound)
    for s in range(4):
        for suit in range(4):
            if void[s] >> suit & 1:
                assert not state.hands[s] & SUIT_MASK[suit]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), det_seed=st.integers(0, 10**6), other=st.integers(0, 3))
def test_casino_unseen_cards_only_and_owners_hold_guards(
    seed: int, det_seed: int, other: int
) -> None:
    from cardtable.bots.determinize.royal_casino import determinize, unseen_cards
    from cardtable.games.royal_casino.state import CAPV

    game = get_game("royal-casino")
    state, seat = random_position(game, seed)
    seat = (seat + other) % state.players
    view = game.view(state, seat)
    d = determinize(view, random.Random(det_seed))
    hidden = unseen_cards(view)
    for s in range(state.players):
        if s != seat:
            assert d.hands[s] & ~hidden == 0
    for c in d.stock:
        assert hidden >> c & 1
    for b in view.builds:
        if b.owner != seat:
            hand = d.hands[b.owner]
            assert any(CAPV[c] == b.value for c in range(52) if hand >> c & 1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), det_seed=st.integers(0, 10**6), other=st.integers(0, 3))
def test_rummy_hidden_cards_only_and_pinned_cards_stay(
    seed: int, det_seed: int, other: int
) -> None:
    from cardtable.bots.determinize.rummy import determinize, unseen_cards
    from cardtable.games.rummy.state import Phase, parse_phys

    game = get_game("rummy")
    state, seat = random_position(game, seed)
    seat = (seat + other) % state.cfg.players
    view = game.view(state, seat)
    d = determinize(view, random.Random(det_seed))
    hidden = 0
    for c in unseen_cards(view):
        hidden |= 1 << c
    pinned = 0
    if state.phase == Phase.PLAY and state.current != seat:
        pinned = state.obligations | ((1 << state.taken) if state.taken >= 0 else 0)
        assert d.hands[state.current] & pinned == pinned
    for s in range(state.cfg.players):
        if s != seat:
            assert d.hands[s] & ~pinned & ~hidden == 0
    if view.stock is None:
        assert all(hidden >> c & 1 for c in d.stock)
    else:
        assert d.stock == tuple(parse_phys(w) for w in view.stock)
