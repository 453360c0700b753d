"""Determinization: a full game state sampled from what one seat has seen.

One module per game, each with ``determinize(view, rng) -> state``.  The state is built
through the game's own state constructor, so the rules stay the game's; it agrees with
everything in the view (``game.view(state, seat) == view``) and never gives a card to a
seat known not to hold it.  Hidden cards are dealt by ``rng`` alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Determinizer", "determinizer_for"]

Determinizer = Callable[[Any, Any], Any]
"""``determinize(view, rng) -> state``."""


def determinizer_for(game_name: str) -> Determinizer | None:
    """The determinizer of a game by its registry name, or ``None`` if it has none."""
    if game_name == "royal-casino":
        from cardtable.bots.determinize import royal_casino

        return royal_casino.determinize
    if game_name == "royal-mastheads":
        from cardtable.bots.determinize import royal_mastheads

        return royal_mastheads.determinize
    if game_name == "rummy":
        from cardtable.bots.determinize import rummy

        return rummy.determinize
    return None
