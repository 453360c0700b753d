"""Scoring edge cases of the spec's last section (M-8, M-12 … M-16), named by rule."""

from __future__ import annotations

import random

import pytest

from cardtable.cards import format_card, parse_card, parse_cards
from cardtable.core.game import Event
from cardtable.games.royal_mastheads import GAME, OPTIONS, Phase
from cardtable.games.royal_mastheads.events import DealScored, PotAwarded, TrickWon
from cardtable.games.royal_mastheads.scoring import (
    bonuses,
    card_points,
    reference_card_points,
    score_deal,
)
from cardtable.games.royal_mastheads.state import Config, RoyalMastheadsState, Trick, config_of

from .helpers import A, act, act_all, deal, mask, outcome, spec_deal_scores, spec_rules

PAGAT = config_of(OPTIONS.defaults())
RUSSIAN = config_of(OPTIONS.validate({"ruleset": "russian"}))
SEVEN_H = parse_card("7H")


def points(cards: str, turned: int = SEVEN_H, cfg: Config = PAGAT) -> int:
    got = card_points(cfg, turned, parse_cards(cards))
    assert reference_card_points(cfg, turned, parse_cards(cards)) == got
    return got


@pytest.mark.parametrize(
    ("cards", "total"), [("5S", 1), ("5S 5H", 3), ("5S 5H 5D", 6), ("5S 5H 5D 5C", 10)]
)
def test_M12_number_rank_progression(cards, total):
    assert points(cards) == total


@pytest.mark.parametrize(
    ("cards", "total"), [("QS", 2), ("QS QH", 6), ("QS QH QD", 12), ("QS QH QD QC", 20)]
)
def test_M12_royal_rank_progression(cards, total):
    assert points(cards) == total


@pytest.mark.parametrize(
    ("cards", "total"), [("7S", 2), ("7S 7H", 6), ("7S 7H 7D", 12), ("7S 7H 7D 7C", 20)]
)
def test_M14_masthead_number_rank_doubled(cards, total):
    assert points(cards) == total


@pytest.mark.parametrize(
    ("cards", "total"), [("KS", 4), ("KS KH", 12), ("KS KH KD", 24), ("KS KH KD KC", 40)]
)
def test_M14_masthead_royal_rank_doubled(cards, total):
    assert points(cards, turned=parse_card("KD")) == total


def test_M13_aces_minus_10_each_and_minus_20_as_mastheads():
    assert points("AS") == -10
    assert points("AS AH AD AC") == -40
    assert points("AS", turned=parse_card("AD")) == -20
    assert points("AS AH AD AC", turned=parse_card("AD")) == -80


def test_M13_russian_aces_plus_10_never_doubled():
    # hearts trumps: AH is a trump but stays +10
    assert points("AH", turned=SEVEN_H, cfg=RUSSIAN) == 10
    assert points("AS AH AD AC", turned=SEVEN_H, cfg=RUSSIAN) == 40


def test_M14_russian_doubles_trump_suit_by_place_in_capture_order():
    # the spec's example: 7C, 7H, 7S with hearts trumps -> 1 + 2*2 + 3 = 8
    assert points("7C 7H 7S", turned=parse_card("2H"), cfg=RUSSIAN) == 8
    assert points("7H 7C 7S", turned=parse_card("2H"), cfg=RUSSIAN) == 2 + 2 + 3
    # sevens are not special under russian
    assert points("7C 7S", turned=parse_card("7H"), cfg=RUSSIAN) == 3


def bonus_of(
    cards: str, tricks: int = 0, turned: int = SEVEN_H, cfg: Config = PAGAT
) -> tuple[int, int, int, int]:
    return bonuses(cfg, turned, mask(cards), tricks)


@pytest.mark.parametrize(
    ("royals", "bonus"),
    [(6, 0), (7, 500), (11, 500), (12, 1000)],
)
def test_M15_royals_bonus_tiers(royals, bonus):
    all_royals = ["JS", "QS", "KS", "JH", "QH", "KH", "JD", "QD", "KD", "JC", "QC", "KC"]
    assert bonus_of(" ".join(all_royals[:royals]))[2] == bonus


@pytest.mark.parametrize(("heads", "bonus"), [(2, 0), (3, 25), (4, 50)])
def test_M15_mastheads_bonus_tiers(heads, bonus):
    assert bonus_of(" ".join(["7S", "7H", "7D", "7C"][:heads]))[0] == bonus


@pytest.mark.parametrize(("tricks", "bonus"), [(8, 0), (9, 100), (10, 200), (11, 400)])
def test_M15_tricks_bonus_tiers(tricks, bonus):
    assert bonus_of("", tricks=tricks)[1] == bonus


@pytest.mark.parametrize(("trumps", "bonus"), [(12, 0), (13, 2000)])
def test_M15_all_trumps_bonus(trumps, bonus):
    hearts = [c for c in range(52) if c // 13 == 1][:trumps]
    assert bonuses(PAGAT, SEVEN_H, sum(1 << c for c in hearts), 0)[3] == bonus


def test_M15_russian_count_bonus_is_exactly_3_or_4_trumps_and_all_trumps_1000():
    hearts = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    got = [bonus_of(" ".join(hearts[:k]), cfg=RUSSIAN)[0] for k in range(2, 7)]
    assert got == [0, 25, 50, 0, 0]
    assert bonus_of(" ".join(hearts), cfg=RUSSIAN)[3] == 1000
    # mastheads earn nothing under russian
    assert bonus_of("7S 7D 7C", cfg=RUSSIAN)[0] == 0


def test_M15_categories_add_up_tiers_do_not():
    cards = "7S 7H 7D 7C JS QS KS JH QH KH JD"  # 4 mastheads, 7 royals
    assert bonus_of(cards, tricks=11) == (50, 400, 500, 0)
    assert bonus_of(cards + " 7S", tricks=10) == (50, 200, 500, 0)


def all_52_deal(turned: str) -> DealScored:
    """Seat A holds all 13 hearts (trumps) and wins all 11 tricks: every card is A's."""
    hands = (
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
        "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    )
    hearts = ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH"]
    keep = [h for h in hearts if h != turned][:11]
    pot_a = [h for h in hearts if h not in keep]
    state = deal(hands, turned, dealer=3)
    state, _ = act_all(state, [f"pot {c}" for c in pot_a])
    state, _ = act_all(state, ["pot 2S", "pot 3S", "pot 2D", "pot 3D", "pot 2C", "pot 3C"])
    events: list[Event] = []
    for card in keep:
        state, evs = act(state, card)
        events.extend(evs)
        for _ in range(3):  # the others, void in hearts, play their lowest card
            state, evs = act(state, _lowest(state))
            events.extend(evs)
    (scored,) = [e for e in events if isinstance(e, DealScored)]
    return scored


def _lowest(state: RoyalMastheadsState) -> str:
    return GAME.format_action(GAME.legal_actions(state)[0])


@pytest.mark.parametrize(
    ("turned", "points_", "total"),
    [("7H", 120, 3570), ("KH", 130, 3580), ("AH", 70, 3520)],
)
def test_M15_one_player_captures_all_52(turned, points_, total):
    scored = all_52_deal(turned)
    assert scored.tricks == (11, 0, 0, 0)
    assert scored.card_points[A] == points_
    assert (
        scored.count_bonus[A],
        scored.tricks_bonus[A],
        scored.royals_bonus[A],
        scored.trumps_bonus[A],
    ) == (50, 400, 1000, 2000)
    assert scored.scores == (total, 0, 0, 0)


def test_M8_tie_for_most_tricks_pot_to_nobody():
    """4-4-2-1 tricks: nobody gets the pot; its 8 cards are in no one's score."""
    cards = list(range(52))
    pot = tuple(cards[44:])
    winners = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3]
    tricks = [
        Trick(0, w, (cards[4 * i], cards[4 * i + 1], cards[4 * i + 2], cards[4 * i + 3]))
        for i, w in enumerate(winners)
    ]
    got = score_deal(PAGAT, SEVEN_H, tricks, pot)
    assert got.tricks == (4, 4, 2, 1)
    assert got.pot_seat is None
    assert sum(len(c) for c in got.captured) == 44
    assert not set(pot) & {c for cs in got.captured for c in cs}
    # the same deal with seat 0 one trick ahead takes the pot
    winners[4] = 0
    tricks[4] = Trick(0, 0, tricks[4].cards)
    ahead = score_deal(PAGAT, SEVEN_H, tricks, pot)
    assert ahead.pot_seat == 0 and ahead.captured[0][-8:] == pot


def test_M8_tie_for_most_tricks_in_play():
    """Random play until a deal ends with a shared top trick count."""
    import random

    rng = random.Random(8)
    for seed in range(200):
        state = GAME.new_game(4, seed=seed, scope="unit")
        while GAME.to_act(state) is not None:
            legal = GAME.legal_actions(state)
            before = state
            state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
        (scored,) = [e for e in events if isinstance(e, DealScored)]
        if scored.tricks.count(max(scored.tricks)) > 1:
            (pot,) = [e for e in events if isinstance(e, PotAwarded)]
            assert pot.seat is None
            assert pot.cards == tuple(format_card(c) for c in before.pot)
            expected = score_deal(PAGAT, state.info.turned, state.tricks, ())
            assert scored.scores == expected.scores
            return
    pytest.fail("no tie for most tricks in 200 random deals")


def test_M16_deal_score_may_be_negative():
    aces = parse_cards("AS AH AD AC")
    rest = [c for c in range(52) if c not in aces]
    tricks = [Trick(0, 1, (aces[0], aces[1], aces[2], aces[3]))] + [
        Trick(1, 0, (rest[4 * i], rest[4 * i + 1], rest[4 * i + 2], rest[4 * i + 3]))
        for i in range(10)
    ]
    got = score_deal(PAGAT, SEVEN_H, tricks, tuple(rest[40:]))
    assert got.pot_seat == 0
    assert got.scores[1] == -40


def cards_in(state: RoyalMastheadsState) -> list[int]:
    cards = [c for h in state.hands for c in range(52) if h >> c & 1]
    cards += list(state.pot) + list(state.trick)
    for t in state.tricks:
        cards += list(t.cards)
    return cards


@pytest.mark.parametrize("ruleset", ["pagat", pytest.param("russian", marks=pytest.mark.slow)])
def test_M16_random_deal_scores_match_an_independent_reading_of_the_spec(ruleset):
    """Every deal of random self-play scored again from the spec's words (``helpers``)."""
    options = {"ruleset": ruleset, "deals": 4}
    rules = spec_rules(options)
    rng = random.Random(ruleset)
    deals = 0
    for seed in range(8):
        state = GAME.new_game(4, options, seed=seed)
        tricks_this_deal = 0
        while GAME.to_act(state) is not None:
            assert sorted(cards_in(state)) == list(range(52))
            assert GAME.invariant_failures(state) == []
            text = GAME.format_position(state)
            assert GAME.parse_position(text) == state
            assert GAME.format_position(GAME.parse_position(text)) == text
            legal = GAME.legal_actions(state)
            before = state
            state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
            tricks_this_deal += sum(isinstance(e, TrickWon) for e in events)
            for event in events:
                if isinstance(event, DealScored):
                    deals += 1
                    assert tricks_this_deal == 11
                    tricks_this_deal = 0
                    last = next(e for e in events if isinstance(e, TrickWon))
                    tricks: list[tuple[int, tuple[int, ...]]] = [
                        (t.winner, t.cards) for t in before.tricks
                    ]
                    tricks.append((last.seat, tuple(parse_card(c) for c in last.cards)))
                    turned = GAME.format_action(before.info.turned).split()[1]
                    expected = spec_deal_scores(rules, turned, tricks, before.pot)
                    assert list(event.scores) == expected
                    for s in range(4):
                        assert event.scores[s] == event.card_points[s] + sum(
                            b[s]
                            for b in (
                                event.count_bonus,
                                event.tricks_bonus,
                                event.royals_bonus,
                                event.trumps_bonus,
                            )
                        )
                    pot = next(e for e in events if isinstance(e, PotAwarded))
                    top = max(event.tricks)
                    assert (pot.seat is None) == (event.tricks.count(top) > 1)
        assert state.phase is Phase.OVER
        assert GAME.invariant_failures(state) == []
        assert GAME.units_played(state) == 4
        assert outcome(state).scores == tuple(
            sum(row[i] for row in state.info.history) for i in range(4)
        )
    assert deals == 32
