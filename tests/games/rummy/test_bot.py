"""The greedy Rummy bot: always legal, a function of the view, and better than random."""

from __future__ import annotations

import random

from cardtable.bots import make_bot
from cardtable.bots.random_bot import RandomBot
from cardtable.games.rummy import GAME
from cardtable.games.rummy.greedy import RummyGreedyBot
from tests.games.rummy.helpers import legal, pos


def test_greedy_is_registered_for_rummy() -> None:
    assert isinstance(make_bot("greedy", GAME), RummyGreedyBot)


def test_greedy_takes_a_discard_that_completes_a_meld() -> None:
    bot = RummyGreedyBot()
    s = pos("P1: 5D 6D KS 2C\ndiscard: 7D\n", phase="DRAW P1")
    a = bot.choose(GAME.view(s, 0), GAME.legal_actions(s), random.Random(0))
    assert GAME.format_action(a) == "TAKE_DISCARD"
    s = pos("P1: 5D 6D KS 2C\ndiscard: 9H\n", phase="DRAW P1")
    a = bot.choose(GAME.view(s, 0), GAME.legal_actions(s), random.Random(0))
    assert GAME.format_action(a) == "DRAW_STOCK"


def test_greedy_melds_then_discards_the_costliest_dead_card() -> None:
    bot = RummyGreedyBot()
    s = pos("P1: 5D 6D 7D QS 9H 9C 3H\n")
    a = bot.choose(GAME.view(s, 0), GAME.legal_actions(s), random.Random(0))
    assert GAME.format_action(a) == "MELD 5D 6D 7D"
    s, _ = GAME.apply(s, a)
    a = bot.choose(GAME.view(s, 0), GAME.legal_actions(s), random.Random(0))
    assert GAME.format_action(a) == "DISCARD QS"  # 9H 9C are a pair; 3H is cheap
    assert "DISCARD QS" in legal(s)


def test_greedy_beats_random() -> None:
    greedy: RummyGreedyBot | RandomBot = RummyGreedyBot()
    rand: RummyGreedyBot | RandomBot = RandomBot()
    total = [0, 0]
    for seed in range(30):
        s = GAME.new_game(2, {"jokers": seed % 3 == 0}, seed, "unit")
        rng = random.Random(seed)
        bots = [greedy, rand] if seed % 2 else [rand, greedy]
        while (seat := GAME.to_act(s)) is not None:
            legal_actions = GAME.legal_actions(s)
            action = bots[seat].choose(GAME.view(s, seat), legal_actions, rng)
            assert action in legal_actions
            s, _ = GAME.apply(s, action)
        g = 0 if seed % 2 else 1
        total[0] += s.scores[g]
        total[1] += s.scores[1 - g]
    assert total[0] > total[1] + 30 * 30
