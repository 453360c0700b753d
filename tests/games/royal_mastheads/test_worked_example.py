"""The spec's worked example, under ``pagat`` exactly and under ``russian`` to its end."""

from __future__ import annotations

from cardtable.cards import format_card, parse_cards
from cardtable.games.royal_mastheads import GAME, Phase
from cardtable.games.royal_mastheads.events import DealScored, PotAwarded, TrickWon

from .helpers import (
    EXAMPLE_TRICKS_1_TO_7,
    EXAMPLE_TRICKS_8_TO_11,
    A,
    B,
    C,
    act_all,
    example,
    outcome,
    play_tricks,
)

WINNERS_PAGAT = [A, A, A, A, C, B, A, A, A, A, A]


def test_worked_example_pagat_tricks_pot_and_scores():
    state = example()
    assert state.phase is Phase.PLAY and GAME.to_act(state) == A  # M-9
    state, events = play_tricks(state, EXAMPLE_TRICKS_1_TO_7 + EXAMPLE_TRICKS_8_TO_11)
    won = [e for e in events if isinstance(e, TrickWon)]
    assert [e.seat for e in won] == WINNERS_PAGAT
    tricks = EXAMPLE_TRICKS_1_TO_7 + EXAMPLE_TRICKS_8_TO_11
    assert [e.cards for e in won] == [tuple(format_card(c) for c in parse_cards(t)) for t in tricks]
    (pot,) = [e for e in events if isinstance(e, PotAwarded)]
    assert pot.seat == A
    assert pot.cards == ("2C", "3D", "AC", "2D", "AD", "3S", "AS", "4C")
    (scored,) = [e for e in events if isinstance(e, DealScored)]
    assert scored.tricks == (9, 1, 1, 0)
    assert scored.card_points == (77, 7, 6, 0)
    assert scored.count_bonus == (25, 0, 0, 0)  # 3 mastheads (7S 7D 7C)
    assert scored.tricks_bonus == (100, 0, 0, 0)
    assert scored.royals_bonus == (500, 0, 0, 0)  # 9 royals
    assert scored.trumps_bonus == (0, 0, 0, 0)
    assert scored.scores == (702, 7, 6, 0)
    assert state.phase is Phase.OVER  # scope "unit": the deal is the game
    assert outcome(state).winners == (A,)
    assert GAME.invariant_failures(state) == []


def test_worked_example_flat_points_reading_gives_637_not_702():
    """The rejected reading (1 per number card, 2 per royal) scores A 637 (M-12)."""
    state, _ = play_tricks(example(), EXAMPLE_TRICKS_1_TO_7 + EXAMPLE_TRICKS_8_TO_11)
    captured = [c for t in state.tricks if t.winner == A for c in t.cards] + list(state.pot)
    assert len(captured) == 44
    flat = 0
    for c in captured:
        rank = c % 13 + 1
        value = -10 if rank == 1 else 2 if rank >= 11 else 1
        flat += value * (2 if rank == 7 else 1)
    assert flat + 25 + 100 + 500 == 637
    assert state.info.history[-1][A] == 702


def test_worked_example_russian_diverges_at_trick_8():
    state, events = play_tricks(example({"ruleset": "russian"}), EXAMPLE_TRICKS_1_TO_7)
    assert [e.seat for e in events if isinstance(e, TrickWon)] == WINNERS_PAGAT[:7]
    state, events = act_all(state, ["KH", "AH", "3H", "7C"])
    (won,) = [e for e in events if isinstance(e, TrickWon)]
    assert won.seat == B  # aces high: AH is the top trump
    assert GAME.to_act(state) == B


def test_worked_example_russian_finished_by_hand():
    """Tricks 9-11 chosen here; every score worked out by hand in capture order."""
    state, _ = play_tricks(example({"ruleset": "russian"}), EXAMPLE_TRICKS_1_TO_7)
    state, events = play_tricks(
        state,
        [
            "KH AH 3H 7C",  # 8: B (AH high)
            "10S 4H 8D 10H",  # 9: B leads; C and D void in spades; A overtrumps
            "QH 9H 10D 8C",  # 10: A
            "JH 5H JD 9C",  # 11: A
        ],
    )
    assert [e.seat for e in events if isinstance(e, TrickWon)] == [B, A, A, A]
    (scored,) = [e for e in events if isinstance(e, DealScored)]
    assert scored.tricks == (8, 2, 1, 0)
    # A captures, in order: KS 7S 5S 2S | KC 10C 3C 5C | KD 4D 7D 5D | QS 9S 6S 4S |
    # JS 9D 8S 8H | 10S 4H 8D 10H | QH 9H 10D 8C | JH 5H JD 9C | pot 2C 3D AC 2D AD 3S AS 4C.
    # Hearts are trumps and score double their place; aces +10 flat.
    a_points = {
        "2": 1 + 2 + 3,  # 2S, 2C, 2D
        "3": 1 + 2 + 3,  # 3C, 3D, 3S
        "4": 1 + 2 + 2 * 3 + 4,  # 4D, 4S, 4H (third, trump), 4C
        "5": 1 + 2 + 3 + 2 * 4,  # 5S, 5C, 5D, 5H (fourth, trump)
        "6": 1,  # 6S
        "7": 1 + 2,  # 7S, 7D
        "8": 1 + 2 * 2 + 3 + 4,  # 8S, 8H (second, trump), 8D, 8C
        "9": 1 + 2 + 2 * 3 + 4,  # 9S, 9D, 9H (third, trump), 9C
        "10": 1 + 2 + 2 * 3 + 4,  # 10C, 10S, 10H (third, trump), 10D
        "J": 2 + 2 * 4 + 6,  # JS, JH (second, trump), JD
        "Q": 2 + 2 * 4,  # QS, QH (second, trump)
        "K": 2 + 4 + 6,  # KS, KC, KD
        "A": 10 + 10 + 10,  # AC, AD, AS from the pot
    }
    assert sum(a_points.values()) == 149
    # A: 7 hearts (not exactly 3 or 4: no count bonus), 8 tricks (none), 8 royals (500).
    a_score = 149 + 500
    # B captures 6: QD 6D 6H 7H, then 8: KH AH 3H 7C.
    b_score = 2 + (1 + 2 * 2) + (2 * 1 + 2) + 2 * 2 + 10 + 2 * 1  # Q, 6s, 7s, KH, AH, 3H
    # C captures 5: QC JC 2H 6C.
    c_score = 2 + 2 + 2 * 1 + 1
    assert (a_score, b_score, c_score) == (649, 27, 7)
    assert scored.card_points == (149, 27, 7, 0)
    assert scored.count_bonus == (0, 0, 0, 0)
    assert scored.royals_bonus == (500, 0, 0, 0)
    assert scored.scores == (a_score, b_score, c_score, 0)
    assert GAME.invariant_failures(state) == []


def test_worked_example_russian_capture_order_matters():
    """Had A captured 4H first among the fours it would score 2, not 6 (M-12, M-14)."""
    from cardtable.games.royal_mastheads.scoring import card_points
    from cardtable.games.royal_mastheads.state import OPTIONS, config_of

    cfg = config_of(OPTIONS.validate({"ruleset": "russian"}))
    turned = parse_cards("7H")[0]
    assert card_points(cfg, turned, parse_cards("4D 4S 4H 4C")) == 1 + 2 + 6 + 4
    assert card_points(cfg, turned, parse_cards("4H 4D 4S 4C")) == 2 + 2 + 3 + 4
    pagat = config_of(OPTIONS.defaults())
    assert card_points(pagat, turned, parse_cards("4D 4S 4H 4C")) == card_points(
        pagat, turned, parse_cards("4H 4D 4S 4C")
    )
