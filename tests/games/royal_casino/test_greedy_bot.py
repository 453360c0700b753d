"""The Royal Casino greedy bot: view-only, legal, and stronger than random."""

from __future__ import annotations

import random

from cardtable.bots import make_bot
from cardtable.games.royal_casino import GAME
from cardtable.games.royal_casino.greedy import RoyalCasinoGreedyBot
from cardtable.tables import Table

from .helpers import pos


def test_greedy_is_registered_for_royal_casino() -> None:
    assert make_bot("greedy", GAME).name == "greedy"


def test_greedy_takes_the_most_valuable_capture() -> None:
    s = pos("hands=10S 5H / 4C; loose=10D 9C 6S; builds=[10 S P2: 7H 3C]")
    move = RoyalCasinoGreedyBot().choose(GAME.view(s, 0), GAME.legal_actions(s), random.Random(0))
    assert GAME.format_action(move) == "capture 10S: 10D b1"


def test_greedy_sees_only_the_view_its_choice_ignores_hidden_cards() -> None:
    rng = random.Random(5)
    bot = RoyalCasinoGreedyBot()
    for seed in range(20):
        s = GAME.new_game(2, seed=seed, scope="unit")
        for _ in range(rng.randrange(30)):
            s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
        seat = GAME.to_act(s)
        assert seat is not None
        twin = GAME.shuffle_hidden(s, seat, rng)
        a = bot.choose(GAME.view(s, seat), GAME.legal_actions(s), random.Random(seed))
        b = bot.choose(GAME.view(twin, seat), GAME.legal_actions(twin), random.Random(seed))
        assert a == b


def test_greedy_beats_random_in_most_hands() -> None:
    wins = 0
    for seed in range(30):
        t = Table(GAME, 2, seed=seed, seats=["bot:greedy", "bot:random"], scope="unit")
        t.run_bots()
        out = t.outcome()
        assert out is not None
        wins += out.scores[0] > out.scores[1]
    assert wins >= 24
