"""Bots: functions of a seat's view (never of a state) that choose among legal actions.

Importing the package registers the built-in bots (:mod:`cardtable.bots.builtin`).
"""

from cardtable.bots import builtin as builtin  # registers the built-in bots
from cardtable.bots.base import Bot, BotFactory, available_bots, make_bot, register_bot
from cardtable.bots.random_bot import RandomBot

__all__ = ["Bot", "BotFactory", "RandomBot", "available_bots", "make_bot", "register_bot"]
