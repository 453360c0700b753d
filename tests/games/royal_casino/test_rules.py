"""Rule tests named after the rule ids of shared/rules/royal-casino.md (beyond the CT list)."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.core.errors import IllegalActionError, InvalidNotationError, InvalidPositionError
from cardtable.games.royal_casino import GAME
from cardtable.games.royal_casino.events import HandScored
from cardtable.games.royal_casino.scoring import HandScore, decide_game
from cardtable.games.royal_casino.state import OPTIONS

from .helpers import is_legal, legal, move, play, pos
from .test_scenarios_scoring import game_over, last_play


def test_C5_2_a_capture_must_split_into_groups_not_just_add_up() -> None:
    # 6+6+4 = 16 = 2 x 8, but no split into 8s exists (jjuanbj's arithmetic bug, §3.1).
    s = pos("hands=8S 2D / -; loose=6H 6C 4D")
    assert not is_legal(s, "CAPTURE 8S: 6H 6C 4D")
    assert GAME.explain_illegal(s, move(s, "CAPTURE 8S: 6H 6C 4D")).rule == "C5.2"


def test_C5_2_pagat_W1_eight_takes_8_6_2_5_3_or_8_5_2_A_but_not_all_six() -> None:
    s = pos("hands=8S KD / -; loose=8H 6C 2D 5S 3C AH")
    assert is_legal(s, "CAPTURE 8S: 8H 6C 2D 5S 3C")
    s2 = pos("hands=8S KD / -; loose=8H 5S 2D AH 6C")
    assert is_legal(s2, "CAPTURE 8S: 8H 5S 2D AH")
    assert not is_legal(s, "CAPTURE 8S: 8H 6C 2D 5S 3C AH")


def test_C5_2_several_targets_in_one_play_and_the_grouping_does_not_matter() -> None:
    s = pos("hands=9S 2C / -; loose=9H 9C 5D 4S; builds=[9 S P2: 6H 3D]")
    assert is_legal(s, "capture 9S: 9H 9C [5D 4S] b1")
    assert move(s, "capture 9S: 9C 4S b1 9H 5D") == move(s, "CAPTURE 9S: [5D 4S] 9H 9C b1")
    assert GAME.format_action(move(s, "capture 9s: b1 4s 5d 9c 9h")) == (
        "capture 9S: 9H 9C [5D 4S] b1"
    )


def test_C2_2a_an_ace_takes_aces_fourteens_and_14_builds_together() -> None:
    s = pos("hands=AS 3C / -; loose=AH 9C 4D; builds=[14 S P2: 9D 5H]")
    got = {m for m in legal(s) if m.startswith("capture AS")}
    assert got == {
        "capture AS: AH",
        "capture AS: AH b1",
        "capture AS: [9C 4D AH]",
        "capture AS: [9C 4D AH] b1",
    }


def test_C2_2d_no_build_of_value_one_exists() -> None:
    s = pos("hands=AS AC / -; loose=AD")
    with pytest.raises(IllegalActionError):
        GAME.apply(s, move(s, "build AS -> 1: AD"))


def test_C5_5_a_raise_may_absorb_loose_groups_of_the_new_value() -> None:
    text = "hands=3S 8D / -; loose=8C 5H 3D; builds=[5 S P2: 3H 2D]"
    s = pos(text)
    assert is_legal(s, "RAISE 3S -> b1=8 + 8C")
    assert is_legal(s, "RAISE 3S -> b1=8 + 8C 5H 3D")
    s2, _ = play(s, "RAISE 3S -> b1=8 + 8C")
    assert s2.builds[0].multi and s2.builds[0].owner == 0 and s2.builds[0].value == 8
    off = pos(text + "; options=raiseAbsorbsLoose:false")
    assert not is_legal(off, "RAISE 3S -> b1=8 + 8C")
    assert is_legal(off, "RAISE 3S -> b1=8")


def test_C5_3_same_value_builds_coexist_option() -> None:
    text = "hands=6S 8H / -; loose=2H; builds=[8 S P2: 5C 3D]"
    assert is_legal(pos(text), "BUILD 6S -> 8 (single): 2H")
    off = pos(text + "; options=sameValueBuildsCoexist:false")
    assert not is_legal(off, "BUILD 6S -> 8 (single): 2H")
    assert is_legal(off, "ADD 6S -> b1 + 2H")
    assert GAME.explain_illegal(off, move(off, "BUILD 6S -> 8: 2H")).rule == "C5.3"


def test_C5_4_add_never_merges_two_builds() -> None:
    s = pos("hands=7S 7H / -; builds=[7 S P2: 4C 3D] [7 S P2: 5C 2D]")
    adds = {m for m in legal(s) if m.startswith("add")}
    assert adds == {"add 7S -> b1", "add 7S -> b2", "add 7H -> b1", "add 7H -> b2"}


def test_C6_3_trailing_a_card_whose_rank_lies_loose_is_refused_with_the_rule() -> None:
    s = pos("hands=10S 3H / -; loose=10H")
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, move(s, "trail 10S"))
    assert e.value.rule == "C6.3" and "10H" in str(e.value)


def test_C10_4_simultaneous_automatic_wins_most_cards_comes_first() -> None:
    # P1 at 18 takes most cards and P2 at 19 takes 10D: both meet; most cards precedes 10D.
    _, ev = last_play(
        [
            {"cards": 28, "spades": 6, "special": ["AS"]},
            {"cards": 24, "spades": 7, "special": ["10D", "2S", "AH", "AC", "AD"]},
        ],
        scores=(18, 19),
    )
    over = game_over(ev)
    assert over is not None and over.winners == (0,)


def test_C10_4_most_spades_at_20_precedes_big_casino_at_19() -> None:
    _, ev = last_play(
        [
            {"cards": 20, "spades": 8, "special": ["AS"]},
            {"cards": 32, "spades": 5, "special": ["10D", "2S", "AH", "AC", "AD"]},
        ],
        scores=(20, 19),
        options="rule20:MOST_SPADES",
    )
    over = game_over(ev)
    assert over is not None and over.winners == (0,)


def test_C7_4_a_side_at_18_scores_no_sweeps_but_cancels() -> None:
    st, _ = last_play(
        [
            {"cards": 24, "spades": 5, "special": ["AS"]},
            {"cards": 28, "spades": 8, "special": ["10D", "2S", "AH", "AC", "AD"]},
        ],
        scores=(18, 5),
        sweeps=(2, 1),
    )
    assert st.scores == (18, 5 + 3 + 1 + 2 + 1 + 3)  # P2's one sweep is cancelled
    st2, _ = last_play(
        [
            {"cards": 24, "spades": 5, "special": ["AS"]},
            {"cards": 28, "spades": 8, "special": ["10D", "2S", "AH", "AC", "AD"]},
        ],
        scores=(18, 5),
        sweeps=(0, 2),
    )
    assert st2.scores == (18, 5 + 10 + 2)


def test_C10_3_cap_at_20_option() -> None:
    hand = (
        HandScore(24, 5, 0, 0, 2, 1, 2, 0, 0),
        HandScore(28, 8, 3, 1, 0, 0, 2, 0, 0),
    )
    freeze = decide_game((18, 5), hand, OPTIONS.validate({}), False)
    assert freeze.scores == (18, 11) and not freeze.winners
    cap = decide_game((18, 5), hand, OPTIONS.validate({"nearTargetMiss": "CAP_AT_20"}), False)
    assert cap.scores == (20, 11) and not cap.winners


def test_C7_2_sweeps_off_scores_no_sweeps() -> None:
    _, ev = last_play(
        [{"cards": 27, "spades": 6}, {"cards": 25, "spades": 7}],
        scores=(0, 0),
        sweeps=(3, 0),
        options="sweeps:OFF",
    )
    scored = next(e for e in ev if isinstance(e, HandScored))
    assert scored.items[0].sweeps == 0


def test_C1_4_the_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {GAME.new_game(3, seed=seed).dealer for seed in range(30)}
    assert dealers == {0, 1, 2}
    assert GAME.new_game(3, seed=11).dealer == GAME.new_game(3, seed=11).dealer


def test_bad_notation_and_positions_give_clear_errors() -> None:
    s = pos("hands=8S KD / -; loose=5H 3C")
    with pytest.raises(InvalidNotationError, match="unknown move 'grab'"):
        move(s, "grab 8S")
    with pytest.raises(InvalidNotationError, match="no build b2"):
        move(s, "add 8S -> b2")
    with pytest.raises(InvalidNotationError, match="could be"):
        move(s, "8S")
    assert GAME.format_action(move(s, "kd")) == "trail KD"
    with pytest.raises(InvalidPositionError, match="appears twice"):
        pos("hands=8S / 8S")
    with pytest.raises(InvalidPositionError, match="unknown option"):
        pos("hands=8S / -; options=sweep:OFF")
    with pytest.raises(InvalidPositionError, match="worth"):
        pos("hands=8S / -; builds=[9 M P2: 9H | 6S 2C]")


def test_each_value_and_loose_set_is_one_build_move() -> None:
    # 5S on 4C or on 4D: two single 9-builds; 5S+5H+3C and 5S+4C+4D: two single 13s;
    # the multiple 9 has two groupings but is one move (C5.3 move identity).
    s = pos("hands=5S KD 9H / -; loose=5H 4C 4D 3C")
    builds = {m for m in legal(s) if m.startswith("build")}
    assert builds == {
        "build 5S -> 9 (single): 4C",
        "build 5S -> 9 (single): 4D",
        "build 5S -> 13 (single): 5H 3C",
        "build 5S -> 13 (single): 4D 4C",
        "build 5S -> 9 (multi): 5H 4D 4C",  # [5S 4C] [5H 4D] or [5S 4D] [5H 4C]: one move
        "build 9H -> 13 (single): 4C",
        "build 9H -> 13 (single): 4D",
    }


@pytest.mark.parametrize("thing", [5, None, "TRAIL 5S", (0, 3), (0, 3, 0, False, 0, 0)])
def test_C4_0_a_value_that_is_not_a_move_is_refused_with_a_reason(thing: Any) -> None:
    s = GAME.new_game(2, seed=1)
    before = GAME.format_position(s)
    with pytest.raises(IllegalActionError, match="is not a Royal Casino move"):
        GAME.apply(s, thing)
    assert not GAME.is_legal(s, thing)
    assert "is not a Royal Casino move" in str(GAME.explain_illegal(s, thing))
    assert GAME.format_position(s) == before
