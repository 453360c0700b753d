"""Registers the built-in bots (imported once, lazily, by :mod:`cardtable.bots.base`)."""

from __future__ import annotations

from cardtable.bots.base import register_bot
from cardtable.bots.random_bot import RandomBot
from cardtable.bots.royal_casino_greedy import RoyalCasinoGreedyBot
from cardtable.bots.royal_mastheads_greedy import MastheadsGreedyBot

register_bot("random", "*", lambda game: RandomBot())
register_bot("greedy", "royal-casino", lambda game: RoyalCasinoGreedyBot())
register_bot("greedy", "royal-mastheads", lambda game: MastheadsGreedyBot())
