"""Random mid-game positions of every searchable game (shared by the bot tests)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY

SEARCH_GAMES = REGISTRY.names()
"""Every registered game: each one's kit supports search."""


def random_position(game: AnyGame, seed: int, players: int | None = None) -> tuple[Any, int]:
    """A state reached by random play from a seeded deal, with a seat to act."""
    rng = random.Random(seed)
    n = players or game.info.default_players
    if game.info.min_players <= 2 <= game.info.max_players and players is None:
        n = rng.choice(
            [p for p in (2, 3, 4) if game.info.min_players <= p <= game.info.max_players]
        )
    state = game.new_game(n, seed=seed, scope="unit")
    steps = rng.randrange(0, 60)
    for _ in range(steps):
        legal = game.legal_actions(state)
        nxt, _ = game.apply(state, legal[rng.randrange(len(legal))])
        if game.to_act(nxt) is None:
            break
        state = nxt
    seat = game.to_act(state)
    assert seat is not None
    return state, seat


def random_view(game: AnyGame, seed: int, players: int | None = None) -> tuple[Any, Sequence[Any]]:
    """The view and the legal actions of the seat to act at :func:`random_position`:
    what a search is given."""
    state, seat = random_position(game, seed, players)
    return game.view(state, seat), game.legal_actions(state)
