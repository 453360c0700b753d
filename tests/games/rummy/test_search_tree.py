"""Rummy's search profile: below the root a seat melds and lays off before it discards."""

from __future__ import annotations

from cardtable.games.rummy import GAME
from cardtable.games.rummy.state import DISCARD, LAYOFF, MELD
from tests.games.rummy.helpers import pos


def test_R4_3_the_tree_offers_only_melds_and_layoffs_when_there_are_any() -> None:
    s = pos("P1: 5S 6S 7S JH 2C\nP2: 4D 9D 3C\nM1(P2): 8H 9H 10H\n")
    full = GAME.legal_actions(s)
    tree = GAME.search_profile().legal(s)
    assert any(a.kind == DISCARD for a in full)
    assert tree and all(a.kind in (MELD, LAYOFF) for a in tree)
    assert set(tree) == {a for a in full if a.kind in (MELD, LAYOFF)}


def test_R4_4_without_a_meld_or_layoff_the_tree_offers_every_discard() -> None:
    s = pos("P1: 5S 9S KD 2C\nP2: 9H 9D 3C\n")
    assert list(GAME.search_profile().legal(s)) == list(GAME.legal_actions(s))
    assert all(a.kind == DISCARD for a in GAME.legal_actions(s))


def test_R4_2_the_draw_is_not_pruned() -> None:
    s = pos("P1: 5S 6S 7S KD\nP2: 9H 9D 3C\ndiscard: 8S\n", phase="DRAW P1")
    assert list(GAME.search_profile().legal(s)) == list(GAME.legal_actions(s))
    assert len(GAME.legal_actions(s)) == 2
