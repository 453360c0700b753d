"""The games, each a pure-rules package behind the one contract, and their registry.

>>> sorted(REGISTRY.names())
['royal-casino', 'royal-mastheads', 'rummy']
"""

from __future__ import annotations

from cardtable.core.registry import AnyGame, Registry
from cardtable.games.royal_casino import GAME as ROYAL_CASINO
from cardtable.games.royal_mastheads import GAME as ROYAL_MASTHEADS
from cardtable.games.rummy import GAME as RUMMY

__all__ = ["REGISTRY", "get_game"]

REGISTRY = Registry()
REGISTRY.register(ROYAL_CASINO)
REGISTRY.register(ROYAL_MASTHEADS)
REGISTRY.register(RUMMY)


def get_game(name: str) -> AnyGame:
    """The registered game called ``name`` or one of its aliases."""
    return REGISTRY.get(name)
