"""Royal Mastheads (Russian «Королевское наказание»): a 4-player trump trick-taking game.

Rules: ``shared/rules/royal-mastheads.md`` (ids M-1 … M-17), two rulesets (``pagat``, the
default, and ``russian``).  Spec decisions: ``docs/royal-mastheads-decisions.md``.

>>> GAME.info.name, GAME.info.aliases
('royal-mastheads', ('mastheads', 'korolevskoe-nakazanie'))
"""

from cardtable.games.royal_mastheads.game import GAME, INFO, MastheadsGame
from cardtable.games.royal_mastheads.state import OPTIONS, Phase, State
from cardtable.games.royal_mastheads.view import View

__all__ = ["GAME", "INFO", "OPTIONS", "MastheadsGame", "Phase", "State", "View"]
