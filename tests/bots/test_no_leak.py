"""Bots cannot read hidden cards: their choice is a function of the view (and the rng)."""

from __future__ import annotations

import random

import pytest

from cardtable.bots import make_bot
from cardtable.games import get_game
from tests.bots.helpers import SEARCH_GAMES, random_position

LEVELS = ["easy", "medium", "ismcts:40"]


@pytest.mark.parametrize("name", SEARCH_GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_choice_is_unchanged_when_hidden_cards_are_shuffled(name: str, level: str) -> None:
    game = get_game(name)
    bot = make_bot(level, game)
    for seed in range(6):
        state, seat = random_position(game, 1000 + seed)
        other = game.shuffle_hidden(state, seat, random.Random(seed))
        assert game.view(other, seat) == game.view(state, seat)
        legal = game.legal_actions(state)
        a = bot.choose(game.view(state, seat), legal, random.Random(seed))
        b = bot.choose(game.view(other, seat), game.legal_actions(other), random.Random(seed))
        assert a == b
        assert a in legal
