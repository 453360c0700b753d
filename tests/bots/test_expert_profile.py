"""``expert`` searches with a game's expert search profile where the game gives one
(:attr:`SearchProfile.expert`); ``hard`` and ``ismcts:N`` never do."""

from __future__ import annotations

import random

import pytest

from cardtable.bots import make_bot
from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.bots.levels import ISMCTSBot, _worker_search, level_adapter, merge_results
from cardtable.games import get_game
from tests.bots.helpers import SEARCH_GAMES, random_view


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_levels_search_with_their_profiles(name: str) -> None:
    game = get_game(name)
    base = game.search_profile()
    hard, expert, named = (make_bot(b, game) for b in ("hard", "expert", "ismcts:10"))
    assert isinstance(hard, ISMCTSBot) and isinstance(expert, ISMCTSBot)
    assert isinstance(named, ISMCTSBot)
    want = base.expert or base

    def reward(bot: ISMCTSBot) -> tuple[float, float]:
        return bot._adapter.profile.scale, bot._adapter.profile.final_margin

    assert reward(hard) == reward(named) == (base.scale, base.final_margin)
    assert reward(expert) == (want.scale, want.final_margin)
    assert expert._adapter.profile.expert is None
    assert (hard._adapter.profile.expert is None) == (base.expert is None)
    assert not hard.expert_profile and expert.expert_profile


def test_royal_mastheads_has_an_expert_profile() -> None:
    game = get_game("royal-mastheads")
    expert = game.search_profile().expert
    assert expert is not None and expert != game.search_profile()


def test_an_expert_worker_searches_with_the_expert_profile() -> None:
    game = get_game("royal-mastheads")
    expert = game.search_profile().expert
    assert expert is not None
    view, legal = random_view(game, 4)
    there = _worker_search("royal-mastheads", view, legal, 7, 60, None, True)
    here = search(SearchAdapter(game, expert), view, legal, random.Random(7), 60)
    assert there == here
    hard = _worker_search("royal-mastheads", view, legal, 7, 60)
    assert [s.value for s in hard.stats] != [s.value for s in here.stats]


def test_expert_in_a_pool_chooses_as_inside_a_worker() -> None:
    game = get_game("royal-mastheads")
    view, legal = random_view(game, 6)
    bot = ISMCTSBot(game, simulations=40, workers=2, expert_profile=True)
    pooled = bot.analyse(view, legal, random.Random(3))
    seed = random.Random(3).randrange(1 << 62)
    seeds = [random.Random(seed + i).randrange(1 << 62) for i in range(2)]
    adapter = level_adapter(game, True)
    merged = merge_results([search(adapter, view, legal, random.Random(s), 20) for s in seeds])
    assert pooled == merged
