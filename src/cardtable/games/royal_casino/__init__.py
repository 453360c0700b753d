"""Royal Casino, the Dominican fishing game: capture, build and sweep to 21 points.

Spec decisions: ``docs/royal-casino-decisions.md``.

>>> GAME.info.name, GAME.info.min_players, GAME.info.max_players
('royal-casino', 2, 4)
"""

from __future__ import annotations

from cardtable.games.royal_casino.game import GAME, INFO, RoyalCasinoGame
from cardtable.games.royal_casino.state import (
    OPTIONS,
    Build,
    Kind,
    Phase,
    RoyalCasinoAction,
    RoyalCasinoState,
)
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = [
    "GAME",
    "INFO",
    "OPTIONS",
    "Build",
    "Kind",
    "Phase",
    "RoyalCasinoAction",
    "RoyalCasinoGame",
    "RoyalCasinoState",
    "RoyalCasinoView",
]
