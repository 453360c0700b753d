"""Royal Mastheads (Russian «Королевское наказание»): a 4-player trump trick-taking game.

Ids M-1 … M-17, two rulesets (``pagat``, the default, and ``russian``).  Spec decisions:
``docs/royal-mastheads-decisions.md``.

>>> GAME.info.name, GAME.info.aliases
('royal-mastheads', ('mastheads', 'korolevskoe-nakazanie'))
"""

from __future__ import annotations

from cardtable.games.royal_mastheads.game import GAME, INFO, RoyalMastheadsGame
from cardtable.games.royal_mastheads.state import (
    OPTIONS,
    Phase,
    RoyalMastheadsAction,
    RoyalMastheadsState,
)
from cardtable.games.royal_mastheads.view import RoyalMastheadsView

__all__ = [
    "GAME",
    "INFO",
    "OPTIONS",
    "Phase",
    "RoyalMastheadsAction",
    "RoyalMastheadsGame",
    "RoyalMastheadsState",
    "RoyalMastheadsView",
]
