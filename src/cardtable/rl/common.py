"""What the PettingZoo and Gymnasium adapters share: resolving a game and its encoding,
the reward of a finished game, and numpy wrappers of the encoding's lists."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core.encoding import Decision, Encoding, Features, observation_features
from cardtable.core.game import Outcome
from cardtable.core.options import Options
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY

__all__ = [
    "ILLEGAL_PENALTY",
    "GameLike",
    "TurnObservation",
    "encoding_of",
    "features_array",
    "game_of",
    "mask_array",
    "observation_array",
    "resolve_setup",
    "reward_of",
]

ILLEGAL_PENALTY = -1.0
"""The reward of an action id the mask does not allow; the episode ends with it."""

GameLike = str | AnyGame
"""A game by name (or alias) or the game object itself."""


def game_of(game: GameLike) -> AnyGame:
    """The game object of a name, alias or game."""
    return REGISTRY.get(game) if isinstance(game, str) else game


def encoding_of(game: AnyGame) -> Encoding[Any, Any]:
    """The game's research encoding; ``ValueError`` if it declares none."""
    enc = game.encoding()
    if enc is None:
        raise ValueError(f"{game.info.title} declares no research encoding")
    return enc


def resolve_setup(
    game: AnyGame, players: int | None, options: Options | Mapping[str, object] | None
) -> tuple[int, Options]:
    """The number of seats (the game's default when ``None``) and validated options."""
    n = game.info.default_players if players is None else players
    game.check_players(n)
    return n, game.resolve_options(options)


def reward_of(outcome: Outcome | None, seat: int) -> float:
    """+1 for a seat on a winning side, -1 for a seat on a losing one, 0 for everyone when
    every side (or no side) won."""
    if outcome is None or not outcome.winners or len(outcome.winners) == len(outcome.sides):
        return 0.0
    return 1.0 if outcome.seat_won(seat) else -1.0


def observation_array(
    enc: Encoding[Any, Any], view: object, pending: tuple[int, ...] = ()
) -> npt.NDArray[np.float32]:
    """:func:`cardtable.core.encoding.observation` as a float32 array (the encoder's own
    buffer, no copy)."""
    return features_array(observation_features(enc, view, pending))


def features_array(features: Features) -> npt.NDArray[np.float32]:
    """:class:`cardtable.core.encoding.Features` as a float32 array over the same buffer
    (no copy: the features must not be written any more)."""
    return np.frombuffer(features.data, np.float32, features.pos)


def mask_array(size: int, decision: Decision[Any] | None) -> npt.NDArray[np.int8]:
    """The legal ids of a decision as an int8 0/1 array (all zeros without one)."""
    if decision is None:
        return np.zeros(size, dtype=np.int8)
    return np.frombuffer(decision.mask_bytes(size), np.int8)


class TurnObservation:
    """The acting seat's observations during one decision: each step only sets the pending
    ids (the view does not change while a move of several ids is being chosen).

    Every call returns a new array that nothing else holds: the first is the encoder's own
    buffer, the second an encoding kept as the base that later calls copy (most moves are
    one id, observed once, so most are never copied)."""

    __slots__ = ("_base", "_calls", "_enc", "_offset", "_view")

    def __init__(self, enc: Encoding[Any, Any], view: object) -> None:
        self._enc = enc
        self._view = view
        self._base: npt.NDArray[np.float32] | None = None
        self._calls = 0
        self._offset = 0

    def array(self, pending: tuple[int, ...]) -> npt.NDArray[np.float32]:
        """The observation with ``pending`` ids chosen (a new array each time)."""
        self._calls += 1
        if self._calls == 1:
            return observation_array(self._enc, self._view, pending)
        base = self._base
        if base is None:
            base = self._base = observation_array(self._enc, self._view)
            self._offset = base.size - self._enc.num_distinct_actions
        out = base.copy()
        offset = self._offset
        for i in pending:
            out[offset + i] = 1.0
        return out
