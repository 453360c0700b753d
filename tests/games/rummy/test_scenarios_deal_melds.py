"""Scenarios RT01–RT12: deal and setup, meld validity."""

from __future__ import annotations

import pytest

from cardtable.core.errors import IllegalActionError, InvalidOptionError
from cardtable.games.rummy import GAME
from cardtable.games.rummy.events import RoundDealt
from tests.games.rummy.helpers import is_legal, legal, play, pos, rule_of

RT01_TABLE = [
    (2, 1, False, 10, 31),
    (3, 1, False, 10, 21),
    (4, 1, False, 10, 11),
    (5, 1, False, 7, 16),
    (6, 1, False, 7, 9),
    (4, 1, True, 10, 13),
    (6, 1, True, 7, 11),
    (4, 2, False, 10, 63),
    (6, 2, False, 10, 43),
    (7, 2, False, 10, 33),
    (8, 2, False, 10, 23),
    (9, 2, False, 7, 40),
    (12, 2, False, 7, 19),
    (12, 2, True, 7, 23),
]


@pytest.mark.parametrize(("players", "decks", "jokers", "hand", "stock"), RT01_TABLE)
def test_RT01_hand_and_stock_sizes(
    players: int, decks: int, jokers: bool, hand: int, stock: int
) -> None:
    opts: dict[str, object] = {"jokers": jokers}
    if decks == 2 and players < 7:
        opts["decks"] = 2
    s = GAME.new_game(players, opts, seed=3)
    assert s.cfg.decks == decks
    assert [h.bit_count() for h in s.hands] == [hand] * players
    assert len(s.stock) == stock
    assert len(s.discard) == 1
    assert GAME.invariant_failures(s) == []


@pytest.mark.parametrize("players", [1, 13])
def test_RT01_player_counts_rejected(players: int) -> None:
    with pytest.raises(InvalidOptionError):
        GAME.new_game(players)


@pytest.mark.parametrize("players", [7, 9, 12])
def test_RT01_one_pack_rejected_from_seven(players: int) -> None:
    with pytest.raises(InvalidOptionError, match=r"R1.3"):
        GAME.new_game(players, {"decks": 1})
    assert GAME.new_game(players).cfg.decks == 2


def test_RT02_first_player_upcard_dealer_rotation() -> None:
    seed = next(s for s in range(100) if GAME.new_game(3, seed=s).dealer == 2)
    s = GAME.new_game(3, {"maxTurnsPerRound": 1}, seed=seed)
    assert (s.dealer, s.current) == (2, 0)  # dealer P3, P1 moves first
    upcard = s.discard[-1]
    assert legal(s) == {"DRAW_STOCK", "TAKE_DISCARD"}
    s, _ = play(s, "TAKE_DISCARD")
    assert s.hands[0] >> upcard & 1
    discard = next(a for a in GAME.legal_actions(s) if a.kind == 5)
    s, events = GAME.apply(s, discard)  # one-turn rounds: blocked at once
    assert any(isinstance(e, RoundDealt) for e in events)
    assert (s.dealer, s.current) == (0, 1)  # round 2: dealer P1, P2 first
    s, _ = play(s, "DRAW_STOCK")
    s, _ = GAME.apply(s, next(a for a in GAME.legal_actions(s) if a.kind == 5))
    assert (s.dealer, s.current) == (1, 2)  # round 3: dealer P2, P3 first


def meld_state(cards: str, options: str = "-", extra: str = "2C") -> object:
    return pos(f"P1: {cards} {extra}\n", options=options)


def meld_ok(cards: str, options: str = "-", extra: str = "2C") -> bool:
    s = meld_state(cards, options, extra)
    return is_legal(s, f"MELD {cards}")  # type: ignore[arg-type]


def meld_rule(cards: str, options: str = "-", extra: str = "2C") -> str:
    s = meld_state(cards, options, extra)
    return rule_of(s, f"MELD {cards}")  # type: ignore[arg-type]


def test_RT03_ace_low_run() -> None:
    assert meld_ok("AH 2H 3H")
    assert meld_ok("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")


def test_RT04_ace_high_run() -> None:
    assert meld_ok("QH KH AH")
    assert meld_ok("10H JH QH KH AH")


def test_RT05_K_A_2_illegal_by_default() -> None:
    assert meld_rule("KH AH 2H") == "R2.2"
    assert meld_rule("QH KH AH 2H") == "R2.2"


def test_RT06_K_A_2_with_wrap() -> None:
    w = "wrapKA2:true"
    assert meld_ok("KH AH 2H", w)
    assert meld_ok("QH KH AH 2H 3H", w)
    assert meld_ok("JH QH KH AH 2H 3H 4H 5H 6H 7H 8H 9H 10H", w)
    assert meld_ok("AH 2H 3H", w)
    assert meld_ok("QH KH AH", w)


def test_RT07_invalid_runs() -> None:
    assert meld_rule("9C 10C QC") == "R5.2"
    assert meld_rule("9C 10D JC") == "R5.1"
    assert meld_rule("5S 6S") == "R5.2"
    assert meld_ok("9C 10C JC QC")


def test_RT08_submission_order_does_not_matter() -> None:
    s = meld_state("3H AH 2H")
    s2, _ = play(s, "MELD 3H AH 2H")  # type: ignore[arg-type]
    assert GAME.format_position(s2).splitlines()[-1] == "M1(P1): AH 2H 3H"
    s = meld_state("KH QH AH")
    s2, _ = play(s, "meld kh qh ah")  # type: ignore[arg-type]
    assert GAME.format_position(s2).splitlines()[-1] == "M1(P1): QH KH AH"


def test_RT09_fourteen_card_ace_to_ace_run() -> None:
    cards = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH'"
    assert meld_rule(cards, "decks:2") == "R2.4"
    assert meld_rule(cards, "decks:2 wrapKA2:true") == "R2.4"


def test_RT10_sets() -> None:
    assert meld_ok("7S 7H 7D")
    assert meld_ok("7S 7H 7D 7C")
    assert meld_rule("7S 7H") in ("R5.1", "R5.2")
    assert meld_rule("7S 7H 8D") == "R5.1"


def test_RT11_sets_with_duplicate_suits() -> None:
    assert meld_rule("7S 7H 7S'", "decks:2") == "R5.1"
    assert meld_rule("7S 7H 7D 7C 7S'", "decks:2") == "R5.1"
    assert meld_ok("7S' 7H 7D", "decks:2")


def test_RT12_aces_in_sets() -> None:
    assert meld_ok("AS AH AD")
    assert meld_rule("KS KH AS") == "R5.1"


def test_meld_of_cards_not_held_is_R5_6() -> None:
    s = pos("P1: 5D 6D 2C\n")
    with pytest.raises(IllegalActionError, match=r"R5.6"):
        play(s, "MELD 5D 6D 7D")
