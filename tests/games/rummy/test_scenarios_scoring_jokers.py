"""Scenarios RT33–RT46: scoring, doubling, two packs, jokers, taking deeper discards."""

from __future__ import annotations

import pytest

from cardtable.core.errors import AmbiguousActionError, IllegalActionError
from cardtable.core.game import Event
from cardtable.games.rummy import GAME
from cardtable.games.rummy.events import RoundEnded
from tests.games.rummy.helpers import is_legal, legal, play, pos, rule_of


def ended(events: list[Event]) -> RoundEnded:
    return next(e for e in events if isinstance(e, RoundEnded))


def test_RT33_basic_penalties() -> None:
    s = pos("P1: 9S\nP2: QS 7D AH\nP3: 10C JD 2S\nP4: AC 2C 3C\n", players=4)
    s, events = play(s, "DISCARD 9S")
    end = ended(events)
    assert end.closer == 0
    assert end.penalties[1:] == (60, 25, 25)
    assert end.scores == (25, -60, -25, -25)
    assert GAME.outcome(s) is not None and GAME.outcome(s).winners == (0,)  # type: ignore[union-attr]


def test_RT34_joker_penalty() -> None:
    s = pos("P1: 9S\nP2: JK 2C\nP3: JK' QS AS\n", players=3, options="jokers:true")
    _, events = play(s, "DISCARD 9S")
    assert ended(events).scores == (25, -20, -70)


RT35 = "P1: 4S 5S 6S KD KH KC 9H\nP2: QS 3H\nP3: AH\nM1(P2): 6C 7C 8C 9C\n"


def test_RT35_doubling_applies() -> None:
    s = pos(RT35, players=3, options="doubleFromHand:true")
    _, events = play(s, "MELD 4S 5S 6S", "MELD KD KH KC", "DISCARD 9H")
    end = ended(events)
    assert end.doubled and end.scores == (25, -90, -30)


def test_RT36_doubling_does_not_apply_after_an_earlier_layoff() -> None:
    s = pos(RT35 + "placed: P1\n", players=3, options="doubleFromHand:true")
    _, events = play(s, "MELD 4S 5S 6S", "MELD KD KH KC", "DISCARD 9H")
    end = ended(events)
    assert not end.doubled and end.scores == (25, -45, -15)


def test_R9_5_earlier_layoff_is_tracked_through_turns() -> None:
    # P1 lays off 10C onto P2's run in one turn, then goes out later: no doubling.
    s = pos(
        "P1: 10C 4S 5S 6S 2D 9H\nP2: QS 3H 8D\nM1(P2): 6C 7C 8C 9C\nstock: 7D JC ...\n",
        options="doubleFromHand:true",
    )
    s, _ = play(s, "LAYOFF 10C->M1", "DISCARD 2D", "DRAW_STOCK", "DISCARD 8D", "DRAW_STOCK")
    assert s.placed[0]
    _, events = play(s, "MELD 4S 5S 6S", "LAYOFF JC->M1", "DISCARD 9H")
    assert not ended(events).doubled


def test_RT38_two_packs_two_queens_of_spades() -> None:
    s = pos("P1: 9S\nP2: QS QS' 5H\nP3: QD\n", players=3, options="decks:2")
    _, events = play(s, "DISCARD 9S")
    assert ended(events).scores == (25, -85, -10)


J = "jokers:true"


def test_RT40_joker_meanings_declared() -> None:
    s = pos("P1: 5H JK 7H 6H 8H 7S 2C\n", options=J)
    assert GAME.format_action(GAME.parse_action(s, "MELD 5H JK 7H")) == "MELD 5H JK=6H 7H"
    assert is_legal(s, "MELD 5H JK 7H")
    with pytest.raises(AmbiguousActionError):
        GAME.parse_action(s, "MELD JK 6H 7H")
    assert is_legal(s, "MELD JK=8H 6H 7H")
    assert is_legal(s, "MELD JK=5H 6H 7H")
    assert rule_of(s, "MELD JK=9H 6H 7H") == "R8.2"
    a = GAME.parse_action(s, "MELD JK 7S 7H")
    assert GAME.is_legal(s, a) and GAME.format_action(a) == "MELD 7S 7H JK=7*"


def test_RT42_capacity_of_a_set_with_a_joker() -> None:
    s = pos("P1: 9H 9S\nM1(P2): 9C 9D JK\n", options=J)
    assert legal(s, "layoff") == {"LAYOFF 9H->M1", "LAYOFF 9S->M1"}
    s, _ = play(s, "LAYOFF 9H->M1")
    assert legal(s, "layoff") == set()
    assert rule_of(s, "LAYOFF 9S->M1") == "R6.2"


def test_RT43_joker_as_an_ace() -> None:
    s = pos("P1: QS KS JK 2S 3S AS 4D\n", options=J)
    assert is_legal(s, "MELD QS KS JK=AS")
    assert rule_of(s, "MELD KS JK=AS 2S") == "R2.2"  # R8.5: ace rules apply
    w = pos("P1: QS KS JK 2S 3S AS 4D\n", options=J + " wrapKA2:true")
    assert is_legal(w, "MELD KS JK=AS 2S")
    with pytest.raises(AmbiguousActionError):
        GAME.parse_action(s, "MELD JK 2S 3S")
    assert is_legal(s, "MELD JK=AS 2S 3S") and is_legal(s, "MELD JK=4S 2S 3S")
    forced = GAME.parse_action(s, "MELD JK KS AS")
    assert GAME.format_action(forced) == "MELD JK=QS KS AS" and GAME.is_legal(s, forced)
    with pytest.raises(AmbiguousActionError):
        GAME.parse_action(w, "MELD JK KS AS")
    assert is_legal(w, "MELD JK=2S KS AS") and is_legal(w, "MELD JK=QS KS AS")


def test_RT44_laying_off_a_joker_onto_a_run() -> None:
    text = "P1: JK 3C\nM1(P2): 5H 6H 7H\nM2(P2): JD QD KD AD\n"
    s = pos(text, options=J)
    assert legal(s, "layoff") == {
        "LAYOFF JK->M1 as 4H",
        "LAYOFF JK->M1 as 8H",
        "LAYOFF JK->M2 as 10D",
    }
    with pytest.raises(AmbiguousActionError):
        GAME.parse_action(s, "LAYOFF JK->M1")
    w = pos(text, options=J + " wrapKA2:true")
    assert {a for a in legal(w, "layoff") if "M2" in a} == {
        "LAYOFF JK->M2 as 10D",
        "LAYOFF JK->M2 as 2D",
    }


def test_RT46_which_takes_are_legal() -> None:
    s = pos(
        "P1: 8S 8H 2C QD\ndiscard: 3S 8D 8C KH\n",
        options="discardPickup:anyWithAbove",
        phase="DRAW P1",
    )
    assert legal(s) == {"DRAW_STOCK", "TAKE_DISCARD", "TAKE@1", "TAKE@2"}
    one, _ = play(s, "TAKE@1")
    assert legal(one) == {"MELD 8S 8H 8C"}
    assert rule_of(one, "DISCARD KH") == "R11.2"
    two, _ = play(s, "TAKE@2")
    assert legal(two, "meld") == {
        "MELD 8S 8H 8D",
        "MELD 8S 8D 8C",
        "MELD 8H 8D 8C",
        "MELD 8S 8H 8D 8C",
        "MELD 8S 8H 8C",
    }
    assert legal(two, "discard") == set()
    done, _ = play(two, "MELD 8S 8H 8C", "LAYOFF 8D->M1")
    assert "DISCARD KH" in legal(done, "discard")  # R11.3: the old top may go back
    assert rule_of(s, "TAKE@3") == "R11.2"
    with pytest.raises(IllegalActionError, match=r"R11.2"):
        GAME.apply(s, GAME.parse_action(s, "TAKE@3"))
