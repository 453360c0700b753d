"""Rule tests for rules without a scenario of their own (named after the rule ids)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.core.errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidPositionError,
)
from cardtable.core.rng import derive_rng
from cardtable.games.rummy import GAME
from cardtable.games.rummy.events import DrewStock, RoundEnded
from cardtable.games.rummy.scoring import rank_winners
from cardtable.games.rummy.state import DISCARD, Phase
from tests.games.rummy.helpers import is_legal, legal, play, pos, rule_of


def test_R3_3_deal_order_and_upcard() -> None:
    s = GAME.new_game(3, seed=11)
    deck = list(range(52))
    derive_rng(11, "deal", 0).shuffle(deck)
    first = (s.dealer + 1) % 3
    assert s.current == first
    for i in range(30):
        assert s.hands[(first + i % 3) % 3] >> deck[i] & 1
    assert s.discard == (deck[30],) and s.stock == tuple(deck[31:])


def test_R4_7_taken_card_alone_is_a_dead_end() -> None:
    s = pos("P1: 5D 6D 7D QS\ntaken: QS\ndiscard: 2C\n")
    assert rule_of(s, "MELD 5D 6D 7D") == "R4.7"
    assert legal(s) == {"DISCARD 5D", "DISCARD 6D", "DISCARD 7D"}
    t = pos("P1: 5D 6D 7D QS\ntaken: QS\nM1(P2): 9S 10S JS\n")
    assert is_legal(t, "MELD 5D 6D 7D")
    t, events = play(t, "MELD 5D 6D 7D", "LAYOFF QS->M1")
    assert any(isinstance(e, RoundEnded) and e.closer == 0 for e in events)
    u = pos("P1: 5D 6D 7D QS\ntaken: QS\nM1(P2): 9S 10S JS\n", options="mustDiscardToGoOut:true")
    assert rule_of(u, "MELD 5D 6D 7D") == "R4.7"


def test_R4_8_pickup_must_be_used() -> None:
    text = "P1: 5D 6D 2C\ndiscard: {top}\n"
    ok = pos(text.format(top="7D"), options="pickupMustBeUsed:true", phase="DRAW P1")
    assert legal(ok) == {"DRAW_STOCK", "TAKE_DISCARD"}
    ok, _ = play(ok, "TAKE_DISCARD")
    assert rule_of(ok, "DISCARD 2C") == "R4.8"
    assert legal(ok) == {"MELD 5D 6D 7D"}
    no = pos(text.format(top="KS"), options="pickupMustBeUsed:true", phase="DRAW P1")
    assert legal(no) == {"DRAW_STOCK"}
    assert rule_of(no, "TAKE_DISCARD") == "R4.8"


def test_R11_4_any_single_leaves_the_cards_above() -> None:
    s = pos(
        "P1: 8S 8H 2C QD\ndiscard: 3S 8D 8C KH\n",
        options="discardPickup:anySingle",
        phase="DRAW P1",
    )
    assert legal(s) == {"DRAW_STOCK", "TAKE_DISCARD", "TAKE@1", "TAKE@2"}
    two, _ = play(s, "TAKE@2")
    assert "discard: 3S 8C KH" in GAME.format_position(two)
    assert legal(two) == {"MELD 8S 8H 8D"}
    top, _ = play(s, "TAKE_DISCARD")
    assert rule_of(top, "DISCARD KH") == "R4.5"


def test_R7_3_max_turnovers_blocks_the_round() -> None:
    s = pos("P1: 2S 3S\nP2: QS 4H\nstock: -\ndiscard: 4C 9D\nturnovers: 3\n", phase="DRAW P1")
    assert legal(s) == {"DRAW_STOCK", "TAKE_DISCARD"}
    done, events = play(s, "DRAW_STOCK")
    end = next(e for e in events if isinstance(e, RoundEnded))
    assert end.closer == -1 and end.scores == (-10, -45)  # R7.4: no +25
    assert done.phase == Phase.OVER
    z = pos(
        "P1: 2S 3S\nP2: QS 4H\nstock: -\ndiscard: 4C\n", phase="DRAW P1", options="maxTurnovers:0"
    )
    _, events = play(z, "DRAW_STOCK")
    assert any(isinstance(e, RoundEnded) and e.closer == -1 for e in events)


def test_R7_3_max_turns_per_round() -> None:
    s = pos("P1: 2S 3S\nP2: QS 4H\nturn: 9\n", options="maxTurnsPerRound:10")
    _, events = play(s, "DISCARD 2S")
    assert next(e for e in events if isinstance(e, RoundEnded)).closer == -1


def test_R7_5_no_stock_and_no_discard_is_blocked() -> None:
    s = pos("P1: 2S 3S\nP2: QS 4H\nstock: -\ndiscard: -\n", phase="DRAW P1")
    assert legal(s) == {"DRAW_STOCK"}
    _, events = play(s, "DRAW_STOCK")
    assert next(e for e in events if isinstance(e, RoundEnded)).closer == -1


def test_R8_3_composition_limits() -> None:
    base = "P1: 5H 6H 7H JK JK' 2C 9S\n"
    half = pos(base, options="jokers:true")
    assert rule_of(half, "MELD 5H JK=6H JK'=7H") == "R8.3"
    assert is_legal(half, "MELD 5H JK=6H 7H JK'=8H")
    strict = pos(base, options="jokers:true jokerLimit:strict")
    assert rule_of(strict, "MELD 5H JK=6H 7H JK'=8H") == "R8.3"
    assert is_legal(strict, "MELD 5H JK=6H 7H")
    one = pos(base, options="jokers:true jokerLimit:one-natural")
    assert rule_of(one, "MELD 5H JK=6H JK'=7H") == "R8.3"  # R8.3(b): jokers side by side
    touch = pos(base, options="jokers:true jokerLimit:one-natural jokersMayTouch:true")
    assert is_legal(touch, "MELD 5H JK=6H JK'=7H")
    assert is_legal(touch, "MELD 9S JK=9* JK'=9*")


def test_R8_7_joker_swap() -> None:
    text = "P1: 6H 9C 9D 2C\nM1(P2): 5H JK=6H 7H\n"
    off = pos(text, options="jokers:true")
    assert legal(off, "swap") == set()
    assert rule_of(off, "SWAP 6H M1") == "R8.7"
    on = pos(text, options="jokers:true jokerSwap:true")
    assert legal(on, "swap") == {"SWAP 6H<->JK in M1"}
    after, _ = play(on, "SWAP 6H<->JK in M1")
    assert rule_of(after, "DISCARD 2C") == "R8.7"
    assert "LAYOFF JK->M1 as 4H" in legal(after) and "MELD 9D 9C JK=9*" in legal(after)
    after, _ = play(after, "MELD 9C 9D JK")
    assert legal(after) == {"DISCARD 2C"}
    lone = pos(
        "P1: 6H\nM1(P2): 5H JK=6H 7H\n",
        options="jokers:true jokerSwap:true mustDiscardToGoOut:true",
    )
    assert legal(lone, "swap") == set()  # R4.7: the freed joker could only empty the hand


def test_R9_5_a_swap_counts_as_placing() -> None:
    s = pos(
        "P1: 6H 2C 3D\nP2: 9S\nM1(P2): 5H JK=6H 7H\n",
        options="jokers:true jokerSwap:true doubleFromHand:true",
    )
    s, _ = play(s, "SWAP 6H M1", "LAYOFF JK->M1 as 8H", "DISCARD 2C")
    assert s.placed[0]


def test_R10_game_modes() -> None:
    rng = random.Random(5)

    def run(options: dict[str, object]) -> tuple[int, object]:
        s = GAME.new_game(2, {"maxTurnsPerRound": 2, **options}, seed=4)
        while GAME.to_act(s) is not None:
            acts = GAME.legal_actions(s)
            s, _ = GAME.apply(s, acts[rng.randrange(len(acts))])
        return GAME.units_played(s), s

    assert run({})[0] == 2  # one round per player
    assert run({"gameMode": "single"})[0] == 1
    assert run({"gameMode": "rounds(5)"})[0] == 5
    _units, s = run({"gameMode": "limit(60)"})
    assert min(s.scores) < -60  # type: ignore[attr-defined]
    assert GAME.new_game(2, {"gameMode": "single"}, scope="unit").cfg.mode == "single"
    with pytest.raises(ValueError, match="gameMode"):
        GAME.new_game(2, {"gameMode": "forever"})


def test_R10_4_tie_breaks() -> None:
    assert rank_winners((10, 10, 5), (1, 2, 0), (0, 0, 0)) == (1,)
    assert rank_winners((10, 10), (1, 1), (30, 20)) == (1,)
    assert rank_winners((10, 10), (1, 1), (20, 20)) == (0, 1)


def test_R4_9_stock_draw_is_seen_by_the_drawer_only() -> None:
    s = pos("P1: 2S 3S\nP2: QS 4H\nstock: 9C ...\n", phase="DRAW P1")
    _, events = play(s, "DRAW_STOCK")
    drew = next(e for e in events if isinstance(e, DrewStock))
    assert GAME.redact(drew, 0) == drew and drew.card == "9C"
    assert GAME.redact(drew, 1).card is None  # type: ignore[attr-defined]
    assert GAME.redact(drew, None).card is None  # type: ignore[attr-defined]


def test_notation_is_lenient_on_input_and_canonical_on_output() -> None:
    s = pos("P1: 5D 6D 7D 10S 10H 10C 2C\nM1(P2): 8D 9D 10D\n")
    assert GAME.format_action(GAME.parse_action(s, "meld 7d 5d 6d")) == "MELD 5D 6D 7D"
    assert GAME.format_action(GAME.parse_action(s, "m ts th tc")) == "MELD 10S 10H 10C"
    assert GAME.format_action(GAME.parse_action(s, "lay 7d m1")) == "LAYOFF 7D->M1"
    assert GAME.format_action(GAME.parse_action(s, "LAYOFF 7D → M1")) == "LAYOFF 7D->M1"
    assert GAME.format_action(GAME.parse_action(s, "discard 2c")) == "DISCARD 2C"
    for bad in ("", "fold", "meld", "discard 11X", "layoff 7d q1"):
        with pytest.raises(InvalidNotationError):
            GAME.parse_action(s, bad)


def test_position_errors_are_clear() -> None:
    with pytest.raises(InvalidPositionError, match="twice"):
        pos("P1: 5D 5D\n")
    with pytest.raises(InvalidPositionError, match="not in this game's pack"):
        pos("P1: 5D' 2C\n")
    with pytest.raises(InvalidPositionError):
        pos("P1: 5D\nM1(P2): 5H 7H 8H\n")
    with pytest.raises(InvalidPositionError, match="unknown position key"):
        pos("P1: 5D\nhello: 1\n")


def test_illegal_action_leaves_the_state_unchanged() -> None:
    s = pos("P1: 5D 6D 7D QS\ntaken: QS\ndiscard: 2C\n")
    before = GAME.format_position(s)
    with pytest.raises(IllegalActionError, match=r"R4.5"):
        play(s, "DISCARD QS")
    assert GAME.format_position(s) == before
    assert all(a.kind == DISCARD for a in GAME.legal_actions(s))


def test_invariants_catch_broken_states() -> None:
    s = GAME.new_game(2, seed=1)
    assert GAME.invariant_failures(s) == []
    card = s.stock[0]
    dup = s._replace(discard=(*s.discard, card))
    assert any("twice" in f for f in GAME.invariant_failures(dup))
    lost = s._replace(stock=s.stock[1:])
    assert any("conservation" in f for f in GAME.invariant_failures(lost))


@pytest.mark.parametrize("thing", [5, None, "DRAW_STOCK", (0,), (0, (), (), -1, 9)])
def test_a_value_that_is_not_an_action_is_refused_with_a_reason(thing: Any) -> None:
    s = GAME.new_game(2, seed=1)
    before = GAME.format_position(s)
    with pytest.raises(IllegalActionError, match="is not a Rummy action"):
        GAME.apply(s, thing)
    assert not GAME.is_legal(s, thing)
    assert "is not a Rummy action" in str(GAME.explain_illegal(s, thing))
    assert GAME.format_position(s) == before
