"""Rummy's search profile: below the root a seat melds and lays off before it discards; the
sampled worlds are of the game being played (one round or a whole match) and a simulation
is rewarded by the round's point margin in both."""

from __future__ import annotations

import random

import pytest

from cardtable.bots.ismcts import adapter_for, search
from cardtable.core.game import Scope
from cardtable.games.rummy import GAME
from cardtable.games.rummy.determinize import RummySampler
from cardtable.games.rummy.playout import random_playout
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


@pytest.mark.parametrize("scope", ["unit", "match"])
def test_R10_1_the_sampled_worlds_are_of_the_game_being_played(scope: Scope) -> None:
    # In a one-round game (what the arena plays) the end of the round ends the game inside
    # a simulation; in a match the next round is dealt.
    state = GAME.new_game(2, seed=3, scope=scope)
    view = GAME.view(state, 1)
    assert view.scope == scope
    sample = RummySampler(view)
    rng = random.Random(0)
    for _ in range(5):
        world = sample(rng)
        assert world.scope == scope
        assert GAME.view(world, 1) == view
        end, _ = random_playout(world, rng)
        if scope == "unit":
            assert GAME.to_act(end) is None
            assert GAME.units_played(end) == 1
        else:
            assert GAME.units_played(end) >= 2


@pytest.mark.parametrize("scope", ["unit", "match"])
def test_R9_3_a_lost_round_is_still_searched_for_its_penalty_points(scope: str) -> None:
    # P2's three cards are public (taken from the pile) and make a run: P2 goes out on its
    # next turn whatever P1 does, so (nearly) every simulation loses the round.  In a
    # one-round game that ends the game, and a simulation that ends the game is rewarded
    # by the round's point margin (search.FINAL_MARGIN), as one that ends a round of a
    # match is: the search throws the queen of spades (40 penalty points) away rather than
    # a cheaper card; rewarded by the win alone, every discard would look the same.
    s = pos(
        "P1: QS KH 9C 2D 8H\nP2: 4D 5D 6D\nknown: P2 4D 5D 6D\nturn: 2\n"
        "stock: 3C 7S JC 10C 2H AC\ndiscard: 6H\n",
        scope=scope,
    )
    view = GAME.view(s, 0)
    result = search(adapter_for(GAME), view, GAME.legal_actions(s), random.Random(1), 400)
    stats = {GAME.format_action(st.action): st for st in result.stats}
    best = stats.pop("DISCARD QS")
    assert all(best.visits > st.visits for st in stats.values())
    assert all(best.value > st.value + 0.02 for st in stats.values())
