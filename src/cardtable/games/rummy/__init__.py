"""Rummy (Czech rules, every variant): runs and sets, lay-offs on any meld, jokers,
K-A-2, taking deeper discards, going out from the hand.

>>> GAME.info.name, GAME.info.min_players, GAME.info.max_players
('rummy', 2, 12)
"""

from __future__ import annotations

from cardtable.games.rummy.game import GAME, INFO, RummyGame
from cardtable.games.rummy.state import OPTIONS, Phase, RummyAction, RummyState
from cardtable.games.rummy.view import RummyView

__all__ = [
    "GAME",
    "INFO",
    "OPTIONS",
    "Phase",
    "RummyAction",
    "RummyGame",
    "RummyState",
    "RummyView",
]
