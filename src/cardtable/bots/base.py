"""The bot interface and the bot registry.

A bot is asked ``choose(view, legal, rng)``: it sees the seat's view and the legal actions,
never the state, so it cannot read hidden cards.  Bots are registered per game (a greedy
heuristic is game-specific) or for every game (``random``).
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from cardtable.core.errors import InvalidOptionError
from cardtable.core.registry import AnyGame

__all__ = [
    "Bot",
    "BotFactory",
    "ParamBotFactory",
    "available_bots",
    "make_bot",
    "register_bot",
    "register_param_bot",
]


class Bot(Protocol):
    """Something that picks an action from a view and the legal actions."""

    name: str

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """One of ``legal``; ``rng`` is the only randomness the bot may use."""
        ...


BotFactory = Callable[[AnyGame], Bot]

ParamBotFactory = Callable[[AnyGame, str], Bot]
"""A factory for bots named ``name:argument`` (``ismcts:2000``); it gets the argument."""

_FACTORIES: dict[tuple[str, str], BotFactory] = {}
"""Factories by (bot name, game name); game name ``*`` means every game."""
_PARAM_FACTORIES: dict[tuple[str, str], ParamBotFactory] = {}


def register_bot(name: str, game: str, factory: BotFactory) -> None:
    """Register a bot for one game (or ``*`` for all games)."""
    _FACTORIES[(name, game)] = factory


def register_param_bot(name: str, game: str, factory: ParamBotFactory) -> None:
    """Register bots named ``name:ARG`` for one game (or ``*``); ``available_bots`` lists
    them as ``name:…``."""
    _PARAM_FACTORIES[(name, game)] = factory


def available_bots(game: AnyGame) -> list[str]:
    """The bot names that can play ``game``."""
    _load_builtin()
    names = {n for (n, g) in _FACTORIES if g in ("*", game.info.name)}
    names |= {f"{n}:…" for (n, g) in _PARAM_FACTORIES if g in ("*", game.info.name)}
    return sorted(names)


def make_bot(name: str, game: AnyGame) -> Bot:
    """A bot by name for a game; a clear error listing the choices if unknown."""
    _load_builtin()
    key = name.strip().lower()
    if ":" in key:
        base, _, arg = key.partition(":")
        param = _PARAM_FACTORIES.get((base, game.info.name)) or _PARAM_FACTORIES.get((base, "*"))
        if param is not None:
            return param(game, arg)
    factory = _FACTORIES.get((key, game.info.name)) or _FACTORIES.get((key, "*"))
    if factory is None:
        names = available_bots(game)
        close = difflib.get_close_matches(key, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise InvalidOptionError(
            f"unknown bot {name!r} for {game.info.name}{hint} (bots: {', '.join(names)})"
        )
    return factory(game)


_loaded = False


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from cardtable.bots import builtin  # noqa: F401  (registers the built-in bots)
