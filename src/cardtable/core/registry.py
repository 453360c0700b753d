"""A registry of games by name and alias.

>>> from cardtable.games import REGISTRY
>>> REGISTRY.get("casino").info.name
'royal-casino'
>>> REGISTRY.get("casinoo")
Traceback (most recent call last):
...
cardtable.core.errors.UnknownGameError: unknown game 'casinoo'; did you mean 'casino'?
"""

from __future__ import annotations

import difflib
from typing import Any

from cardtable.core.errors import UnknownGameError
from cardtable.core.game import Game

__all__ = ["AnyGame", "Registry"]

AnyGame = Game[Any, Any, Any]


class Registry:
    """Games by canonical name and aliases."""

    def __init__(self) -> None:
        self._games: dict[str, AnyGame] = {}
        self._names: dict[str, str] = {}

    def register(self, game: AnyGame) -> None:
        """Add a game under its name and aliases (each must be new)."""
        info = game.info
        for key in (info.name, *info.aliases):
            if key in self._names:
                raise ValueError(f"game name {key!r} is already registered")
            self._names[key] = info.name
        self._games[info.name] = game

    def get(self, name: str) -> AnyGame:
        """The game called ``name`` (or an alias); a clear error with a suggestion if none."""
        key = name.strip().lower().replace("_", "-")
        if key in self._names:
            return self._games[self._names[key]]
        close = difflib.get_close_matches(key, list(self._names), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f"; games: {', '.join(self.names())}"
        raise UnknownGameError(f"unknown game {name!r}{hint}")

    def names(self) -> list[str]:
        """The canonical names, in registration order."""
        return list(self._games)

    def games(self) -> list[AnyGame]:
        """The registered games, in registration order."""
        return list(self._games.values())
