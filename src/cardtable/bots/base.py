"""The bot interface and the bot registry.

A bot is asked ``choose(view, legal, rng)``: it sees the seat's view and the legal actions,
never the state, so it cannot read hidden cards.  Bots are registered per game or for every
game (``*``), optionally only for the games a ``supports`` test accepts (``greedy``: the
games whose kit has a greedy policy).  The built-in bots are registered when the package
:mod:`cardtable.bots` is imported (:mod:`cardtable.bots.builtin`), which happens before
this module is used.
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

Supports = Callable[[AnyGame], bool]
"""Whether a bot registered for every game can play this one."""

_FACTORIES: dict[tuple[str, str], BotFactory] = {}
"""Factories by (bot name, game name); game name ``*`` means every game."""
_PARAM_FACTORIES: dict[tuple[str, str], ParamBotFactory] = {}
_SUPPORTS: dict[tuple[str, str], Supports] = {}


def register_bot(
    name: str, game: str, factory: BotFactory, *, supports: Supports | None = None
) -> None:
    """Register a bot for one game (or ``*`` for all games, or those ``supports`` accepts)."""
    _FACTORIES[(name, game)] = factory
    _set_supports(name, game, supports)


def register_param_bot(
    name: str, game: str, factory: ParamBotFactory, *, supports: Supports | None = None
) -> None:
    """Register bots named ``name:ARG`` for one game (or ``*``); ``available_bots`` lists
    them as ``name:…``."""
    _PARAM_FACTORIES[(name, game)] = factory
    _set_supports(f"{name}:", game, supports)


def _set_supports(key: str, game: str, supports: Supports | None) -> None:
    if supports is None:
        _SUPPORTS.pop((key, game), None)
    else:
        _SUPPORTS[(key, game)] = supports


def _plays(key: str, registered_for: str, game: AnyGame) -> bool:
    if registered_for not in ("*", game.info.name):
        return False
    supports = _SUPPORTS.get((key, registered_for))
    return supports is None or supports(game)


def _lookup(table: dict[tuple[str, str], Any], key: str, game: AnyGame, tag: str) -> Any:
    """The factory for ``game`` under ``key`` (the game's own before the ``*`` one)."""
    for registered_for in (game.info.name, "*"):
        factory = table.get((key, registered_for))
        if factory is not None and _plays(tag, registered_for, game):
            return factory
    return None


def available_bots(game: AnyGame) -> list[str]:
    """The bot names that can play ``game``."""
    names = {n for (n, g) in _FACTORIES if _plays(n, g, game)}
    names |= {f"{n}:…" for (n, g) in _PARAM_FACTORIES if _plays(f"{n}:", g, game)}
    return sorted(names)


def make_bot(name: str, game: AnyGame) -> Bot:
    """A bot by name for a game; a clear error listing the choices if unknown."""
    key = name.strip().lower()
    if ":" in key:
        base, _, arg = key.partition(":")
        param: ParamBotFactory | None = _lookup(_PARAM_FACTORIES, base, game, f"{base}:")
        if param is not None:
            return param(game, arg)
    factory: BotFactory | None = _lookup(_FACTORIES, key, game, key)
    if factory is None:
        names = available_bots(game)
        close = difflib.get_close_matches(key, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise InvalidOptionError(
            f"unknown bot {name!r} for {game.info.name}{hint} (bots: {', '.join(names)})"
        )
    return factory(game)
