"""The pot inference (M-7): determinizations that draw the other seats' hidden pot cards by
weight stay consistent with the view and its voids, and do put trumps and royals into the
pot far less often than the uniform sampler."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.royal_mastheads import GAME
from cardtable.games.royal_mastheads.determinize import MastheadsSampler, voids
from cardtable.games.royal_mastheads.pot_inference import FLOOR, pot_sampler, pot_weights
from cardtable.games.royal_mastheads.state import RANK, SUIT, SUIT_MASK, RoyalMastheadsState
from cardtable.games.royal_mastheads.view import RoyalMastheadsView
from tests.bots.helpers import random_position


def _in_play(seed: int, tricks: int) -> tuple[RoyalMastheadsState, int]:
    """A seeded deal played at random past the pot to ``tricks`` completed tricks."""
    rng = random.Random(seed)
    state = GAME.new_game(4, seed=seed, scope="unit")
    while GAME.view(state, 0).phase == "pot" or len(state.tricks) < tricks:
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])[0]
    seat = GAME.to_act(state)
    assert seat is not None
    return state, seat


def _hidden_pot(view: RoyalMastheadsView, state: RoyalMastheadsState) -> list[int]:
    """The other seats' pot cards in a dealt state (the view's own two taken out)."""
    own = set(view.own_pot)
    return [c for c in state.pot if c not in own]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), det_seed=st.integers(0, 10**6), other=st.integers(0, 3))
def test_M_7_pot_inference_gives_the_view_back_and_respects_voids(
    seed: int, det_seed: int, other: int
) -> None:
    state, seat = random_position(GAME, seed)
    seat = (seat + other) % 4
    view = GAME.view(state, seat)
    dealt = pot_sampler(view)(random.Random(det_seed))
    assert GAME.view(dealt, seat) == view
    assert GAME.invariant_failures(dealt) == []
    void = voids(view)
    for s in range(4):
        for suit in range(4):
            if void[s] >> suit & 1:
                assert not dealt.hands[s] & SUIT_MASK[suit], (s, suit)
    if GAME.to_act(state) == seat:
        assert list(GAME.legal_actions(dealt)) == list(GAME.legal_actions(state))


def test_M_7_trumps_and_royals_rarely_go_to_the_pot() -> None:
    state, seat = _in_play(11, 6)
    view = GAME.view(state, seat)
    weighted, uniform = pot_sampler(view), MastheadsSampler(view)
    rng = random.Random(0)

    def prize_share(sample: MastheadsSampler) -> float:
        prizes = total = 0
        for _ in range(2000):
            hidden = _hidden_pot(view, sample(rng))
            total += len(hidden)
            prizes += sum(1 for c in hidden if SUIT[c] == view.trumps or RANK[c] > 10)
        return prizes / total

    unseen_prizes = [c for c in weighted.cards if SUIT[c] == view.trumps or RANK[c] > 10]
    assert unseen_prizes, "the position should leave some trumps or royals unseen"
    share_uniform, share_weighted = prize_share(uniform), prize_share(weighted)
    # uniform: about their share of the unseen cards; weighted: a small fraction of that
    assert share_uniform > 0.2
    assert share_weighted < share_uniform / 5


def test_M_7_a_card_no_hand_may_hold_goes_to_the_pot() -> None:
    # find a position where every other seat is void in a suit some unseen card is of
    for seed in range(2000):
        state, seat = _in_play(seed, 5)
        view = GAME.view(state, seat)
        sampler = pot_sampler(view)
        if sampler.forced_pot:
            break
    else:
        raise AssertionError("no position with a card only the pot may hold")
    rng = random.Random(1)
    for _ in range(50):
        dealt = sampler(rng)
        assert set(sampler.forced_pot) <= set(_hidden_pot(view, dealt))
        assert GAME.view(dealt, seat) == view


def test_M_7_weights_cover_every_card_and_russian_stays_uniform() -> None:
    view = GAME.view(GAME.new_game(4, seed=2, scope="unit"), 0)
    w = pot_weights(view)
    assert w is not None and len(w) == 52 and min(w) >= FLOOR
    trump_royal = [c for c in range(52) if SUIT[c] == view.trumps and RANK[c] > 10]
    plain_low = [
        c
        for c in range(52)
        if SUIT[c] != view.trumps and 2 <= RANK[c] <= 10 and RANK[c] != view.masthead
    ]
    assert all(w[c] == FLOOR for c in trump_royal)
    assert all(w[c] > 1 for c in plain_low)
    russian = GAME.new_game(4, seed=2, scope="unit", options={"ruleset": "russian"})
    assert pot_weights(GAME.view(russian, 0)) is None
