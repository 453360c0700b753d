"""A pilot ``expert`` whose last tree searches with another profile (``--partner``): an
ensemble of two rewards, merged as the level merges its trees.  Royal Mastheads' pilot E
pairs a tree of pilot D's match-shaped reward with one of ``expert``'s own
(lab/notes/bots-experiments.md); no level uses it unless a pilot shows it plays better."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from tests.bots.helpers import random_view
from tests.script_loader import load_script

from cardtable.bots.ismcts import SearchAdapter, SearchResult, search
from cardtable.bots.levels import merge_results, wall_clock_cap
from cardtable.core.kit import SearchProfile
from cardtable.games import get_game

GAME = get_game("royal-mastheads")
EXPERT = GAME.search_profile().expert
assert EXPERT is not None
TAILED = dataclasses.replace(EXPERT, scale=40.0, tail=(0.35, 500.0))


def _position() -> tuple[Any, list[Any]]:
    for seed in range(40):
        view, legal = random_view(GAME, seed, players=4)
        if len(legal) >= 3:
            return view, list(legal)
    raise AssertionError("no position with three legal actions")


def _by_hand(view: Any, legal: list[Any], profiles: list[SearchProfile]) -> SearchResult:
    # the level's trees: seeds drawn from the bot's rng, the budget split evenly
    seed = random.Random(9).randrange(1 << 62)
    seeds = [random.Random(seed + i).randrange(1 << 62) for i in range(len(profiles))]
    return merge_results(
        [
            search(SearchAdapter(GAME, p), view, legal, random.Random(s), 600 // len(profiles))
            for p, s in zip(profiles, seeds, strict=True)
        ]
    )


@pytest.mark.parametrize("partner", [TAILED, EXPERT], ids=["itself", "expert"])
def test_the_last_tree_searches_with_the_partner_and_the_roots_are_merged(
    partner: SearchProfile,
) -> None:
    pilot = load_script("lab/expert_pilot.py")
    bot = pilot.PilotExpert(GAME, TAILED, 600, 2, 0, 16, "x-paired", partner)
    alone = pilot.PilotExpert(GAME, TAILED, 600, 2, 0, 16, "x-alone")
    view, legal = _position()
    with wall_clock_cap(False):
        got = bot.analyse(view, legal, random.Random(9))
    assert got.simulations == 600
    assert got == _by_hand(view, legal, [TAILED, partner])
    with wall_clock_cap(False):
        own = alone.analyse(view, legal, random.Random(9))
    # without a partner: the candidate's own profile in both trees (outside an arena
    # worker too, where the level's pool would search with the level's profile)
    assert own == _by_hand(view, legal, [TAILED, TAILED])
    assert (got == own) == (partner is TAILED)


def test_a_partner_needs_two_trees() -> None:
    pilot = load_script("lab/expert_pilot.py")
    with pytest.raises(ValueError, match="two trees"):
        pilot.PilotExpert(GAME, EXPERT, 600, 1, 0, 16, "x-one", EXPERT)
