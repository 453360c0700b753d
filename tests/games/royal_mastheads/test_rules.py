"""Rules M-1 … M-11 and M-17 as scenarios, and the option precedence."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtable.cards import format_card, parse_card, parse_cards
from cardtable.core.errors import IllegalActionError, InvalidOptionError
from cardtable.games import get_game
from cardtable.games.royal_mastheads import GAME, OPTIONS, Phase
from cardtable.games.royal_mastheads.events import (
    CardTurned,
    DealScored,
    Dealt,
    PotCardChosen,
    SetOver,
    TrickWon,
)
from cardtable.games.royal_mastheads.rules import is_over_after, new_match
from cardtable.games.royal_mastheads.state import config_of

from .helpers import (
    EXAMPLE_HANDS,
    EXAMPLE_POT,
    EXAMPLE_TRICKS_1_TO_7,
    A,
    B,
    C,
    D,
    act,
    act_all,
    deal,
    example,
    outcome,
    play_tricks,
    pot_all,
    random_finish,
)


def test_registry_names_and_aliases():
    assert get_game("royal-mastheads") is GAME
    assert get_game("mastheads") is GAME
    assert get_game("korolevskoe-nakazanie") is GAME
    assert GAME.info.unit == "deal" and GAME.info.min_players == GAME.info.max_players == 4


def test_M1_four_players_only():
    with pytest.raises(InvalidOptionError):
        GAME.new_game(3)
    assert GAME.players(GAME.new_game(4)) == 4


def test_M4_first_dealer_random_then_passes_left():
    dealers = Counter(GAME.new_game(4, seed=s).info.dealer for s in range(200))
    assert set(dealers) == {0, 1, 2, 3}
    state = GAME.new_game(4, {"deals": 3}, seed=5)
    first = state.info.dealer
    rng = random.Random(1)
    seen: list[int] = []
    while GAME.to_act(state) is not None:
        seen.append(state.info.dealer) if not seen or seen[-1] != state.info.dealer else None
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    assert seen == [first, (first + 1) % 4, (first + 2) % 4]


def test_M5_turned_card_sets_trumps_and_mastheads_and_is_dealt_to_a_uniform_seat():
    holders: Counter[int] = Counter()
    for seed in range(400):
        state, events = new_match(OPTIONS.defaults(), seed)
        turned = state.info.turned
        (shown,) = [e for e in events if isinstance(e, CardTurned)]
        assert shown.card == format_card(turned)
        assert shown.trumps == ("spades", "hearts", "diamonds", "clubs")[turned // 13]
        assert shown.masthead is not None
        (holder,) = [s for s in range(4) if state.hands[s] >> turned & 1]
        holders[(holder - state.info.dealer) % 4] += 1
    # put back at a uniformly random position: not always the dealer (the bottom card)
    assert all(60 <= holders[k] <= 140 for k in range(4)), holders


def test_M5_russian_has_no_masthead():
    _, events = new_match(OPTIONS.validate({"ruleset": "russian"}), 3)
    (shown,) = [e for e in events if isinstance(e, CardTurned)]
    assert shown.masthead is None
    assert "mastheads none" in GAME.render_view(
        GAME.view(GAME.new_game(4, {"ruleset": "russian"}), 0)
    )


def test_M6_thirteen_cards_each():
    state, events = new_match(OPTIONS.defaults(), 11)
    assert [h.bit_count() for h in state.hands] == [13, 13, 13, 13]
    (dealt,) = [e for e in events if isinstance(e, Dealt)]
    assert [len(h or ()) for h in dealt.hands] == [13, 13, 13, 13]


def test_M7_pot_in_turn_from_dealers_left_any_two_cards():
    state = deal(EXAMPLE_HANDS, "7H", dealer=B)
    order = []
    for _ in range(8):
        seat = GAME.to_act(state)
        assert seat is not None
        order.append(seat)
        # any card of the hand may go into the pot: trumps and mastheads too
        assert len(GAME.legal_actions(state)) == state.hands[seat].bit_count()
        state, (ev,) = GAME.apply(state, GAME.legal_actions(state)[-1])
        assert isinstance(ev, PotCardChosen) and ev.seat == seat
    assert order == [C, C, D, D, A, A, B, B]
    assert state.phase is Phase.PLAY
    assert [h.bit_count() for h in state.hands] == [11, 11, 11, 11]


def test_M7_pot_cards_hidden_from_others():
    state = deal(EXAMPLE_HANDS, "7H", dealer=D)
    state, (ev,) = act(state, "pot 2C")
    assert GAME.redact(ev, A) == ev
    assert GAME.redact(ev, B) == GAME.redact(ev, None) == PotCardChosen(A, None)
    assert GAME.view(state, A).own_pot == parse_cards("2C")
    assert GAME.view(state, B).own_pot == () and GAME.view(state, B).pot_counts == (1, 0, 0, 0)


def test_M7_play_before_pot_is_complete_is_illegal():
    state = deal(EXAMPLE_HANDS, "7H", dealer=D)
    with pytest.raises(IllegalActionError) as e:
        act(state, "play KS")
    assert e.value.rule == "M-7"
    state = example()
    with pytest.raises(IllegalActionError, match="M-7: the pot is complete"):
        act(state, "pot KS")


def test_M9_dealers_left_leads_first_then_the_winner_leads():
    state = example()
    assert GAME.to_act(state) == A
    state, _ = play_tricks(state, EXAMPLE_TRICKS_1_TO_7[:5])  # trick 5 won by C
    assert GAME.to_act(state) == C


def test_M10_must_follow_suit_with_reason():
    state = example()
    state, _ = act(state, "KS")  # A leads a spade; B holds spades
    with pytest.raises(IllegalActionError) as e:
        act(state, "9H")
    assert str(e.value) == "M-10: you hold a spade, so you must follow suit"
    assert GAME.explain_illegal(state, parse_card("9H")).rule == "M-10"
    assert set(GAME.legal_actions(state)) == set(parse_cards("JS 10S 9S 7S"))


def test_M10_void_may_play_any_card_without_duty_to_trump():
    state = example()
    state, _ = play_tricks(state, EXAMPLE_TRICKS_1_TO_7[:6])
    state, _ = act_all(state, ["JS"])  # B leads a spade; C is void in spades
    legal = set(GAME.legal_actions(state))
    assert legal == set(parse_cards("4H 3H JD 10D 9D"))  # trumps or a discard
    state, _ = act(state, "9D")  # a discard although C holds trumps
    assert GAME.to_act(state) == D


def test_M10_card_not_held_and_game_over():
    state = example()
    with pytest.raises(IllegalActionError, match="you do not hold 9H"):
        act(state, "9H")
    with pytest.raises(IllegalActionError):
        GAME.apply(state, "KS")
    over, _ = random_finish(state, random.Random(2))
    with pytest.raises(IllegalActionError, match="the game is over"):
        GAME.apply(over, 0)


def test_M11_pagat_ace_is_lowest_trump_but_beats_non_trumps():
    state = example()
    state, _ = play_tricks(state, EXAMPLE_TRICKS_1_TO_7)
    # trick 8: KH AH 3H 7C -> A (the ace is the lowest trump)
    state, events = act_all(state, ["KH", "AH", "3H", "7C"])
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [A]
    # an ace of trumps alone beats every plain card
    hands = (
        "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS",
        "AH KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
        "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AD",
        "KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C AC",
    )
    s = pot_all(deal(hands, "7H", dealer=D), ("2S 3S", "2D 3D", "2H 3H", "2C 3C"))
    s, events = act_all(s, ["KS", "AH", "AD", "KC"])
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [B]


def test_M17_set_of_ten_deals_and_option_deals():
    state = GAME.new_game(4, seed=1)
    state, events = random_finish(state, random.Random(1))
    assert len([e for e in events if isinstance(e, DealScored)]) == 10
    assert GAME.units_played(state) == 10
    (over,) = [e for e in events if isinstance(e, SetOver)]
    assert over.totals == state.info.totals == outcome(state).scores
    state, events = random_finish(GAME.new_game(4, {"deals": 2}, seed=1), random.Random(1))
    assert GAME.units_played(state) == 2
    assert [e.deal for e in events if isinstance(e, Dealt)] == [2]


def test_M17_co_winners_and_extra_deals():
    co = config_of(OPTIONS.validate({"deals": 1}))
    extra = config_of(OPTIONS.validate({"deals": 1, "tiebreak": "extra-deals"}))
    assert is_over_after(co, "match", 1, [5, 5, 0, 0])
    assert not is_over_after(extra, "match", 1, [5, 5, 0, 0])
    assert is_over_after(extra, "match", 1, [5, 4, 0, 0])
    assert is_over_after(extra, "unit", 1, [5, 5, 0, 0])
    # find a one-deal set that ends level at the top
    for seed in range(3000):
        rng = random.Random(seed)
        state, _ = random_finish(GAME.new_game(4, {"deals": 1}, seed=seed), rng)
        totals = state.info.totals
        if totals.count(max(totals)) > 1:
            break
    else:
        pytest.fail("no tied one-deal set found")
    result = outcome(state)
    assert len(result.winners) > 1 and "co-winners" in result.detail
    # the same seed and play with extra deals goes on to a second deal
    rng = random.Random(seed)
    s2 = GAME.new_game(4, {"deals": 1, "tiebreak": "extra-deals"}, seed=seed)
    while GAME.units_played(s2) < 1:
        legal = GAME.legal_actions(s2)
        s2, _ = GAME.apply(s2, legal[rng.randrange(len(legal))])
    assert s2.phase is Phase.POT and s2.info.number == 2 and s2.info.totals == totals
    s2, _ = random_finish(s2, rng)
    assert len(outcome(s2).winners) == 1


def test_options_ruleset_sets_every_differing_rule_and_individual_options_override():
    pagat = config_of(OPTIONS.defaults())
    assert (pagat.ace_high, pagat.ace_points, pagat.double_trumps) == (False, -10, False)
    assert (pagat.trumps_bonus, pagat.count_trumps, pagat.deals) == (2000, False, 10)
    russian = config_of(OPTIONS.validate({"ruleset": "russian"}))
    assert (russian.ace_high, russian.ace_points, russian.double_trumps) == (True, 10, True)
    assert (russian.trumps_bonus, russian.count_trumps) == (1000, True)
    mixed = config_of(OPTIONS.validate({"ruleset": "russian", "aces": "low", "acePoints": -10}))
    assert (mixed.ace_high, mixed.ace_points, mixed.double_trumps) == (False, -10, True)
    mixed = config_of(OPTIONS.validate({"doubled": "trumps", "trumpsBonus": "1000"}))
    assert (mixed.ace_high, mixed.double_trumps, mixed.trumps_bonus) == (False, True, 1000)
    with pytest.raises(InvalidOptionError):
        OPTIONS.validate({"ruleset": "rusian"})
    state = GAME.new_game(4, {"ruleset": "russian", "aces": "low"})
    assert GAME.options(state)["aces"] == "low"


def test_automatic_steps_emit_events_in_order():
    state = GAME.new_game(4, {"deals": 2}, seed=4)
    rng = random.Random(4)
    while GAME.units_played(state) == 0:
        legal = GAME.legal_actions(state)
        state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
    kinds = [e.kind for e in events]
    assert kinds == [
        "card_played",
        "trick_won",
        "pot_awarded",
        "deal_scored",
        "dealt",
        "card_turned",
    ]
    assert all(e.describe() for e in events)
    assert EXAMPLE_POT  # the pot used by the worked example helpers


def test_M7_M10_every_illegal_action_is_refused_with_its_rule_and_changes_nothing():
    state = GAME.new_game(4, seed=3)
    before = GAME.format_position(state)
    illegal = [a for a in range(104) if a not in GAME.legal_actions(state)]
    for action in illegal:
        with pytest.raises(ValueError):
            GAME.apply(state, action)
        assert GAME.explain_illegal(state, action).rule.startswith("M-")
    assert GAME.format_position(state) == before


@pytest.mark.parametrize("seed", range(6))
def test_M7_M10_is_legal_on_the_hand_bits_is_the_generator_s_answer(seed: int) -> None:
    """``rules.is_legal`` (what ``apply`` checks, on the hand's bits) says yes to exactly the
    actions ``legal_actions`` lists, in every position of random deals (pot, leading,
    following, void), for every action id and for values that are not actions."""
    rng = random.Random(seed)
    state = GAME.new_game(4, seed=seed, scope="unit")
    odd: list[object] = [-1, 104, 2**70, True, False, 1.0, "5", None, (5,)]
    while True:
        legal = set(GAME.legal_actions(state))
        for action in [*range(-1, 106), *odd]:
            assert GAME.is_legal(state, action) == (action in legal and type(action) is int)
        if GAME.to_act(state) is None:
            break
        state, _ = GAME.apply(state, rng.choice(sorted(legal)))
    for action in odd:
        with pytest.raises(IllegalActionError):
            GAME.apply(GAME.new_game(4, seed=seed), action)
