"""Move-legality scenarios CT01–CT34 of shared/rules/royal-casino.md §2.2, from positions."""

from __future__ import annotations

import pytest

from cardtable.core.errors import IllegalActionError
from cardtable.games.royal_casino import GAME

from .helpers import assert_legal, builds_of, is_legal, legal, move, play, pos, swept


def test_CT01_basic_capture_build_trail() -> None:
    s = pos("hands=8S KD / -; loose=5H 3C")
    assert_legal(s, "CAPTURE 8S: 5H 3C; BUILD 8S -> 13 (single): 5H; TRAIL 8S; TRAIL KD")


def test_CT02_equal_loose_cards_are_compulsory() -> None:
    s = pos("hands=10S 3H / AH 5C; loose=10H 10C 8D 6S")
    assert_legal(s, "CAPTURE 10S: 10H 10C; TRAIL 3H")
    assert not is_legal(s, "TRAIL 10S")
    assert not is_legal(s, "CAPTURE 10S: 10H")
    s2, _ = play(s, "CAPTURE 10S: 10H 10C")
    assert GAME.format_position(s2).count("loose=8D 6S") == 1
    assert GAME.to_act(s2) == 1
    assert is_legal(s2, "CAPTURE AH: 8D 6S")
    s3, events = play(s2, "CAPTURE AH: 8D 6S")
    assert swept(events)
    assert s3.sweeps == (0, 1)


def test_CT03_ace_takes_an_ace_or_king_plus_ace() -> None:
    s = pos("hands=AC 5D / -; loose=KS AH")
    assert_legal(s, "CAPTURE AC: AH; CAPTURE AC: KS AH; TRAIL 5D")
    assert not is_legal(s, "CAPTURE AC: KS")
    assert not is_legal(s, "TRAIL AC")


def test_CT04_eight_five_ace_is_fourteen() -> None:
    s = pos("hands=AD 2C / -; loose=8C 5H AS")
    assert_legal(s, "CAPTURE AD: AS; CAPTURE AD: 8C 5H AS; BUILD AD -> 2 (single): AS; TRAIL 2C")
    assert not is_legal(s, "CAPTURE AD: 8C 5H")


def test_CT05_a_held_ace_guards_a_14_build() -> None:
    s = pos("hands=5S AC / -; loose=9H")
    assert_legal(s, "BUILD 5S -> 14 (single): 9H; TRAIL 5S; TRAIL AC")


def test_CT06_owner_cannot_trail_and_must_keep_the_capture_card() -> None:
    s = pos("hands=8S 4C / -; loose=2D; builds=[8 S P1: 5H 3C]")
    assert_legal(s, "CAPTURE 8S: b1")
    for text in ("TRAIL 4C", "TRAIL 8S", "ADD 8S -> b1"):
        assert not is_legal(s, text)
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, move(s, "TRAIL 4C"))
    assert e.value.rule == "C6.1"
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, move(s, "ADD 8S -> b1"))
    assert e.value.rule == "C6.2"


def test_CT07_owner_holding_two_eights() -> None:
    s = pos("hands=8S 8D 4C / -; loose=2D; builds=[8 S P1: 5H 3C]")
    assert_legal(s, "CAPTURE 8S: b1; CAPTURE 8D: b1; ADD 8S -> b1; ADD 8D -> b1")


def test_CT08_raising_an_opponents_single_build() -> None:
    s = pos("hands=2S QD / 5D 7C; builds=[10 S P2: 6H 4C]")
    assert_legal(s, "RAISE 2S -> b1=12; TRAIL 2S; TRAIL QD")
    s2, _ = play(s, "RAISE 2S -> b1=12")
    assert s2.builds == builds_of("[12 S P1: 6H 4C 2S]")
    assert "trail 5D" in legal(s2)  # P2 is released from any obligation to b1
    s3, _ = play(s2, "TRAIL 5D")
    assert legal(s3) == {"capture QD: b1"}
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s3, move(s3, "TRAIL QD"))
    assert e.value.rule == "C6.1"


def test_CT09_you_cannot_raise_your_own_build() -> None:
    s = pos("hands=2S QD 10C / -; builds=[10 S P1: 6H 4C]")
    assert_legal(s, "CAPTURE 10C: b1")
    with pytest.raises(IllegalActionError) as e:
        GAME.apply(s, move(s, "RAISE 2S -> b1=12"))
    assert e.value.rule == "C5.5"


def test_CT10_a_multiple_build_cannot_be_raised() -> None:
    s = pos("hands=AS 6D / -; builds=[5 M P2: 5C | 3D 2H]")
    assert_legal(s, "TRAIL AS; TRAIL 6D")
    assert "multiple build cannot be raised" in str(
        GAME.explain_illegal(s, move(s, "RAISE AS -> b1=6"))
    )


def test_CT11_adding_to_an_opponents_multiple_build_transfers_ownership() -> None:
    s = pos("hands=2C 7H / 9D; loose=5S; builds=[7 M P2: 7C | 4D 3H]")
    assert_legal(
        s,
        "ADD 2C -> b1 + 5S; BUILD 2C -> 7 (single): 5S; CAPTURE 7H: b1; TRAIL 2C; TRAIL 7H",
    )
    s2, _ = play(s, "ADD 2C -> b1 + 5S")
    assert s2.builds == builds_of("[7 M P1: 7C | 4D 3H | 2C 5S]")
    assert s2.loose == 0
    assert s2.hands[0] == pos("hands=7H / -").hands[0]


def test_CT13_a_build_is_not_a_card_in_a_sum() -> None:
    s = pos("hands=9C 5H / -; loose=2D; builds=[7 S P2: 4H 3S]")
    assert_legal(s, "TRAIL 9C; TRAIL 5H")
    for text in ("CAPTURE 9C: b1 2D", "RAISE 9C -> b1=16", "RAISE 5H -> b1=12"):
        assert not is_legal(s, text)


def test_CT14_a_card_equal_to_a_build_may_be_trailed() -> None:
    s = pos("hands=8H 6S / -; loose=2H; builds=[8 S P2: 5C 3D]")
    assert_legal(
        s, "TRAIL 8H; CAPTURE 8H: b1; TRAIL 6S; BUILD 6S -> 8 (single): 2H; ADD 6S -> b1 + 2H"
    )
    s2, _ = play(s, "BUILD 6S -> 8 (single): 2H")
    assert [b.value for b in s2.builds] == [8, 8]  # the new build coexists (C5.3)


def test_CT15_no_building_for_partner() -> None:
    s = pos("royal-casino 4p; hands=3C 9D / - / 8S / -; loose=5H")
    assert_legal(s, "TRAIL 3C; TRAIL 9D")
    assert not is_legal(s, "BUILD 3C -> 8 (single): 5H")


def test_CT16_raising_a_partners_single_build() -> None:
    s = pos("royal-casino 4p; hands=3D 9S / - / - / -; builds=[6 S P3: 4H 2C]")
    assert_legal(s, "RAISE 3D -> b1=9; TRAIL 3D; TRAIL 9S")
    f = pos(
        "royal-casino 4p; options=partnerBuildInteraction:FORBIDDEN; hands=3D 9S / - / - / -; "
        "builds=[6 S P3: 4H 2C]"
    )
    assert_legal(f, "TRAIL 3D; TRAIL 9S")
    assert GAME.explain_illegal(f, move(f, "RAISE 3D -> b1=9")).rule == "C6.4"


def test_CT18_building_aces_is_a_14_build() -> None:
    s = pos("hands=AS AC 7H / -; loose=AD 9S")
    assert_legal(
        s,
        "CAPTURE AS: AD; CAPTURE AC: AD; BUILD AS -> 14 (multi): AD; "
        "BUILD AC -> 14 (multi): AD; TRAIL 7H",
    )
    for text in ("TRAIL AS", "TRAIL AC", "BUILD AS -> 2: AD"):
        assert not is_legal(s, text)


def test_CT19_an_ace_counts_one_inside_a_build() -> None:
    s = pos("hands=AS AD / -; loose=KH")
    assert_legal(s, "BUILD AS -> 14 (single): KH; BUILD AD -> 14 (single): KH; TRAIL AS; TRAIL AD")
    assert not is_legal(s, "CAPTURE AS: KH")


def test_CT20_after_a_sweep_the_next_player_can_only_trail() -> None:
    s = pos("turn=P2; hands=- / 4D 9C")
    assert_legal(s, "TRAIL 4D; TRAIL 9C")


def test_CT21_a_compulsory_card_may_build_instead_of_capturing() -> None:
    s = pos("hands=5S 8D / -; loose=5H 3C")
    assert_legal(s, "CAPTURE 5S: 5H; BUILD 5S -> 8 (single): 3C; CAPTURE 8D: 5H 3C; TRAIL 8D")
    assert not is_legal(s, "TRAIL 5S")


def test_CT22_an_owner_capturing_other_cards_must_not_abandon_the_build() -> None:
    s = pos("hands=8C 2D / -; loose=4H 4S; builds=[8 S P1: 5C 3D]")
    assert_legal(s, "CAPTURE 8C: b1; CAPTURE 8C: 4H 4S b1")
    assert GAME.explain_illegal(s, move(s, "CAPTURE 8C: 4H 4S")).rule == "C6.2"


def test_CT24_no_loose_cards_in_a_raise() -> None:
    s = pos("hands=3H 8D 10S / -; loose=2C; builds=[5 S P2: AS 4D]")
    assert_legal(s, "RAISE 3H -> b1=8; BUILD 8D -> 10 (single): 2C; TRAIL 3H; TRAIL 8D; TRAIL 10S")
    assert not is_legal(s, "RAISE 3H -> b1=10 + 2C")


def test_CT25_compulsory_king_and_a_multiple_king_build() -> None:
    s = pos("hands=KS 8D / -; loose=KH 5C")
    assert_legal(
        s,
        "CAPTURE KS: KH; BUILD 8D -> 13 (single): 5C; BUILD 8D -> 13 (multi): KH 5C; TRAIL 8D",
    )


def test_CT27_two_builds_of_the_same_value() -> None:
    s = pos("hands=9D 3S / -; builds=[9 S P2: 5H 4C] [9 M P2: 9H | 6S 3C]")
    assert_legal(s, "CAPTURE 9D: b1; CAPTURE 9D: b2; CAPTURE 9D: b1 b2; TRAIL 9D; TRAIL 3S")


def test_CT28_three_players() -> None:
    s = pos("royal-casino 3p; turn=P3; hands=- / - / 6D QC; loose=6H AS; builds=[12 S P2: 7C 5D]")
    assert_legal(
        s,
        "CAPTURE 6D: 6H; BUILD 6D -> 12 (single): 6H; ADD 6D -> b1 + 6H; CAPTURE QC: b1; TRAIL QC",
    )


def test_CT29_two_fives_the_stated_value_decides() -> None:
    s = pos("hands=5S 10H 7C / -; loose=5H")
    assert_legal(s, "CAPTURE 5S: 5H; BUILD 5S -> 10 (single): 5H; TRAIL 10H; TRAIL 7C")
    assert not is_legal(s, "BUILD 5S -> 5 (multi): 5H")


def test_CT31_no_builds_made_only_of_table_cards() -> None:
    s = pos("hands=8D 2S / -; loose=5H 3C")
    assert_legal(s, "CAPTURE 8D: 5H 3C; TRAIL 8D; TRAIL 2S")


def test_CT32_a_raise_releases_the_previous_owner() -> None:
    s = pos("hands=2C 10H / 8D 4S; builds=[8 S P2: 5H 3C]")
    assert_legal(s, "RAISE 2C -> b1=10; TRAIL 2C; TRAIL 10H")
    s2, _ = play(s, "RAISE 2C -> b1=10")
    assert s2.builds == builds_of("[10 S P1: 5H 3C 2C]")
    assert GAME.to_act(s2) == 1
    assert_legal(s2, "TRAIL 8D; TRAIL 4S")


def test_CT34_no_sweep_while_a_build_remains() -> None:
    s = pos("hands=8S 2H / 4D; loose=5H 3C; builds=[10 S P2: 6D 4S]")
    s2, events = play(s, "CAPTURE 8S: 5H 3C")
    assert s2.loose == 0 and len(s2.builds) == 1
    assert not swept(events)
    assert s2.sweeps == (0, 0)
