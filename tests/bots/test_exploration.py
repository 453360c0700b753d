"""UCB1's exploration constant: a profile may set its own (:attr:`SearchProfile.exploration`),
an explicit argument to :func:`search` overrides it, and 0 means the search's default."""

from __future__ import annotations

import dataclasses
import random

from cardtable.bots.ismcts import EXPLORATION, SearchAdapter, search
from cardtable.games import get_game
from tests.bots.helpers import random_view


def test_the_profile_sets_the_constant_and_an_argument_overrides_it() -> None:
    game = get_game("rummy")
    view, legal = random_view(game, 7)
    base = game.search_profile()
    assert base.exploration == 0.0

    def run(profile_c: float, argument: float = 0.0) -> object:
        adapter = SearchAdapter(game, dataclasses.replace(base, exploration=profile_c))
        return search(adapter, view, legal, random.Random(4), 300, exploration=argument)

    default = run(0.0)
    assert run(0.0, EXPLORATION) == default == run(EXPLORATION)
    narrow = run(0.2)
    assert narrow != default
    assert run(0.0, 0.2) == narrow == run(0.9, 0.2)
