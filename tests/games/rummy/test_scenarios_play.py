"""Scenarios RT14–RT31: laying off, draw and discard, going out, stock exhaustion."""

from __future__ import annotations

import pytest

from cardtable.core.errors import AmbiguousActionError, IllegalActionError
from cardtable.games.rummy import GAME
from cardtable.games.rummy.events import RoundEnded, StockTurnedOver
from cardtable.games.rummy.state import Phase
from tests.games.rummy.helpers import is_legal, legal, play, pos, rule_of


def test_RT14_layoff_onto_opponents_melds_full_list() -> None:
    s = pos(
        """
        P1: 4C 9D 8C KH
        M1(P2): 5C 6C 7C
        M2(P3): 9S 9H 9C
        """,
        players=3,
    )
    assert not s.placed[0]
    assert legal(s, "layoff") == {"LAYOFF 4C->M1", "LAYOFF 8C->M1", "LAYOFF 9D->M2"}


def test_RT15_layoff_at_the_ace_end() -> None:
    text = "P1: AD 10D 2D\nM1(P2): JD QD KD\n"
    s = pos(text)
    assert legal(s, "layoff") == {"LAYOFF AD->M1", "LAYOFF 10D->M1"}
    s, _ = play(s, "LAYOFF AD->M1")
    assert legal(s, "layoff") == {"LAYOFF 10D->M1"}
    assert rule_of(s, "LAYOFF 2D->M1") == "R2.2"
    w = pos(text, options="wrapKA2:true")
    assert not is_legal(w, "LAYOFF 2D->M1")
    w, _ = play(w, "LAYOFF AD->M1")
    assert is_legal(w, "LAYOFF 2D->M1")
    w, _ = play(w, "LAYOFF 2D->M1")
    assert GAME.view(w, 0).melds[0].cards == ("JD", "QD", "KD", "AD", "2D")


def test_RT16_low_ace_and_round_the_corner_layoffs() -> None:
    text = "P1: AS 2H KC\nM1(P2): 2S 3S 4S\nM2(P2): QH KH AH\nM3(P2): AC 2C 3C\n"
    assert legal(pos(text), "layoff") == {"LAYOFF AS->M1"}
    assert legal(pos(text, options="wrapKA2:true"), "layoff") == {
        "LAYOFF AS->M1",
        "LAYOFF 2H->M2",
        "LAYOFF KC->M3",
    }


def test_RT17_full_sets_and_duplicate_suits() -> None:
    s = pos(
        """
        P1: 8C' 5S' 5C
        M1(P2): 8S 8H 8D 8C
        M2(P2): 8S' 8H' 8D'
        M3(P2): 5S 5H 5D
        """,
        options="decks:2",
    )
    assert legal(s, "layoff") == {"LAYOFF 8C'->M2", "LAYOFF 5C->M3"}
    assert rule_of(s, "LAYOFF 8C'->M1") == "R6.2"
    assert rule_of(s, "LAYOFF 5S'->M3") == "R5.1"
    s, _ = play(s, "LAYOFF 5C->M3")
    assert rule_of(s, "LAYOFF 5S'->M3") == "R6.2"  # now also full


def test_RT18_no_middle_insertion_no_type_change() -> None:
    s = pos("P1: 5H' 7H 8S\nM1(P2): 4H 5H 6H\nM2(P2): 7S 7C 7D\n", options="decks:2")
    assert legal(s, "layoff") == {"LAYOFF 7H->M1", "LAYOFF 7H->M2"}
    assert rule_of(s, "LAYOFF 5H'->M1") == "R2.4"
    assert rule_of(s, "LAYOFF 8S->M2") == "R6.2"


def test_RT19_no_rearranging() -> None:
    s = pos("P1: AS 9H\nM1(P2): 2C 2H 2D 2S\nM2(P2): 3S 4S 5S\n")
    assert legal(s, "layoff") == set()
    assert legal(s, "meld") == set()
    with pytest.raises(IllegalActionError, match=r"R6.2"):
        play(s, "LAYOFF AS->M2")


def test_RT21_one_card_two_targets() -> None:
    s = pos("P1: 7S 2D\nM1(P2): 7H 7D 7C\nM2(P2): 8S 9S 10S\n")
    assert legal(s, "layoff") == {"LAYOFF 7S->M1", "LAYOFF 7S->M2"}
    with pytest.raises(AmbiguousActionError, match=r"R6.4"):
        GAME.parse_action(s, "LAYOFF 7S")


RT22 = "P1: 3C 8H KD\nP2: 4S 4H\ndiscard: 2H QS\nstock: 5D 9C ...\n"


def test_RT22_taken_discard_cannot_go_back() -> None:
    s = pos(RT22, phase="DRAW P1")
    a, _ = play(s, "TAKE_DISCARD")
    assert legal(a, "discard") == {"DISCARD 3C", "DISCARD 8H", "DISCARD KD"}
    err = GAME.explain_illegal(a, GAME.parse_action(a, "DISCARD QS"))
    assert str(err) == "R4.5: you took QS from the discard pile this turn; you cannot discard it"
    b, _ = play(s, "DRAW_STOCK")
    assert legal(b, "discard") == {"DISCARD 3C", "DISCARD 8H", "DISCARD KD", "DISCARD 5D"}
    c, _ = play(a, "DISCARD 3C", "DRAW_STOCK", "DISCARD 4S", "DRAW_STOCK")
    assert c.current == 0
    assert "DISCARD QS" in legal(c, "discard")


def test_RT23_phase_enforcement() -> None:
    s = pos("P1: 5D 6D 7D 9S\nM1(P2): 9D 9H 9C\ndiscard: KC\n", phase="DRAW P1")
    assert legal(s) == {"DRAW_STOCK", "TAKE_DISCARD"}
    for text in ("MELD 5D 6D 7D", "LAYOFF 9S->M1", "DISCARD 9S"):
        assert rule_of(s, text) == "R4.2"
    s, _ = play(s, "DRAW_STOCK")
    assert legal(s, "draw") == set()
    assert rule_of(s, "DRAW_STOCK") == "R4.2"
    assert rule_of(s, "TAKE_DISCARD") == "R4.2"


def test_RT25_out_by_melding_everything() -> None:
    s = pos("P1: 5D 6D 7D JS JH JC\nM1(P1): 2C 3C 4C\nplaced: P1\n", players=2)
    s, _ = play(s, "MELD 5D 6D 7D")
    with pytest.raises(IllegalActionError):
        play(s, "DISCARD 5D")
    s, events = play(s, "MELD JS JH JC")
    assert s.phase == Phase.OVER and GAME.to_act(s) is None
    end = next(e for e in events if isinstance(e, RoundEnded))
    assert end.closer == 0 and end.scores[0] == 25
    with pytest.raises(IllegalActionError, match=r"R9.1"):
        GAME.apply(s, GAME.parse_action(s, "DISCARD JS"))


def test_RT26_out_by_discarding_the_last_card() -> None:
    s = pos("P1: 5D 6D 7D 2C\nP2: 4D 8D\n")
    s, events = play(s, "MELD 5D 6D 7D", "DISCARD 2C")
    end = next(e for e in events if isinstance(e, RoundEnded))
    assert end.closer == 0 and s.phase == Phase.OVER


def test_RT27_must_discard_to_go_out() -> None:
    s = pos("P1: 5D 6D 7D JS JH JC\n", options="mustDiscardToGoOut:true")
    s, _ = play(s, "MELD 5D 6D 7D")
    assert rule_of(s, "MELD JS JH JC") == "R4.6"
    assert legal(s) == {"DISCARD JS", "DISCARD JH", "DISCARD JC"}
    t = pos("P1: 5D 6D 7D 2C\n", options="mustDiscardToGoOut:true")
    t, events = play(t, "MELD 5D 6D 7D", "DISCARD 2C")
    assert any(isinstance(e, RoundEnded) and e.closer == 0 for e in events)


def test_RT29_nothing_after_someone_goes_out() -> None:
    s = pos("P1: 5D 6D 7D 2C\nP2: 4D 8D\n")
    s, events = play(s, "MELD 5D 6D 7D", "DISCARD 2C")
    assert GAME.legal_actions(s) == []
    with pytest.raises(IllegalActionError):
        GAME.apply(s, GAME.parse_action(s, "LAYOFF 4D->M1"))
    end = next(e for e in events if isinstance(e, RoundEnded))
    assert end.penalties[1] == 10 and end.scores == (25, -10)
    m = pos("P1: 5D 6D 7D 2C\nP2: 4D 8D\n", scope="match")
    m, _ = play(m, "MELD 5D 6D 7D", "DISCARD 2C")
    assert m.scores == (25, -10) and m.melds == () and m.round_no == 1


def test_RT30_turning_the_pile_over() -> None:
    s = pos(
        "P1: 2S 3S\nP2: 5H 6H\nP3: 7C 8C\nstock: -\ndiscard: 4C 9D KS\n", players=3, phase="DRAW P2"
    )
    assert legal(s) == {"TAKE_DISCARD", "DRAW_STOCK"}
    s, events = play(s, "DRAW_STOCK")
    assert any(isinstance(e, StockTurnedOver) for e in events)
    assert s.hands[1] >> GAME.parse_action(s, "DISCARD 4C").cards[0] & 1
    text = GAME.format_position(s)
    assert "stock: 9D KS" in text and "discard: -" in text and "turnovers: 1" in text
    assert "DISCARD 4C" in legal(s, "discard")
    assert GAME.view(s, 0).stock == ("9D", "KS")  # the new stock's order is public


def test_RT31_no_automatic_turnover() -> None:
    s = pos("P1: 2S 3S\nP2: 5H 6H\nstock: 7H\ndiscard: 4C\n", phase="DRAW P1")
    s, _ = play(s, "DRAW_STOCK", "DISCARD 2S")
    assert s.stock == () and s.turnovers == 0
    assert legal(s) == {"TAKE_DISCARD", "DRAW_STOCK"}
    s2, _ = play(s, "TAKE_DISCARD")
    assert s2.turnovers == 0
    s3, _ = play(s, "DRAW_STOCK")
    assert s3.turnovers == 1 and s3.discard == ()
