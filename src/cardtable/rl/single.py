"""A Gymnasium environment: one seat learns, cardtable bots play the other seats.

Observations are float32 arrays in ``[-1, 1]`` (:func:`cardtable.core.encoding.observation`
of the learner's view); actions are ids of the game's fixed space
(:mod:`cardtable.core.encoding`), a move of several ids taking several steps.  The mask of
legal ids is ``info["action_mask"]`` (int8) after every ``reset`` and ``step``, and
``action_masks()`` (bool) for maskable learners.  The episode ends with the game (reward
:func:`cardtable.rl.common.reward_of`: +1 win, -1 loss, 0 when all or none won; 0 before)
or at once with ``illegal_penalty`` (default -1) and ``info["illegal_action"] = True`` on an
id the mask does not allow, never with an exception.

With ``infostate=True`` the info also holds ``"infostate"``: the learner's perfect-recall
information state (:class:`cardtable.core.encoding.InfoState`, float32,
:attr:`CardtableGymEnv.infostate_size` numbers).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardtable.bots import Bot, make_bot
from cardtable.core.encoding import Decision, InfoState, infostate_size, observation_size
from cardtable.core.game import Scope
from cardtable.core.options import Options
from cardtable.rl.common import (
    ILLEGAL_PENALTY,
    GameLike,
    TurnObservation,
    encoding_of,
    features_array,
    game_of,
    mask_array,
    observation_array,
    resolve_setup,
    reward_of,
)

__all__ = ["CardtableGymEnv", "gym_env"]

ObsArray = npt.NDArray[np.float32]


class CardtableGymEnv(gymnasium.Env[ObsArray, np.int64]):
    """A cardtable game seen from one seat, the others played by bots (see the module doc)."""

    def __init__(
        self,
        game: GameLike,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        players: int | None = None,
        options: Options | Mapping[str, object] | None = None,
        render_mode: str | None = None,
        scope: Scope = "unit",
        illegal_penalty: float = ILLEGAL_PENALTY,
        infostate: bool = False,
    ) -> None:
        self.metadata = {"render_modes": ["ansi"], "render_fps": 4}
        self.game = game_of(game)
        self.encoding = encoding_of(self.game)
        self.num_players, self.game_options = resolve_setup(self.game, players, options)
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be in 0..{self.num_players - 1}; got {seat}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.seat = seat
        others = [s for s in range(self.num_players) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"need {len(others)} opponent names; got {len(names)}")
        self.bots: dict[int, Bot] = {
            s: make_bot(name, self.game) for s, name in zip(others, names, strict=True)
        }
        self.scope: Scope = scope
        self.illegal_penalty = illegal_penalty
        self._ids = self.encoding.num_distinct_actions
        size = observation_size(self.encoding, self.num_players)
        self.observation_space = spaces.Box(-1.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(self._ids)
        self._state: Any = None
        self._decision: Decision[Any] | None = None
        self._turn: TurnObservation | None = None
        self._bot_rng = random.Random(0)
        self.with_infostate = infostate
        self.infostate_size = infostate_size(self.encoding, self.num_players)
        """The length of ``info["infostate"]`` (with ``infostate=True``)."""
        self._infostate: InfoState[Any] | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsArray, dict[str, Any]]:
        """Deal a new game (from ``seed``, else the environment's generator) and let the
        bots play up to the learner's first decision.  ``options`` is ignored."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self._bot_rng = random.Random(game_seed + 1)
        self._state = self.game.new_game(
            self.num_players, self.game_options, seed=game_seed, scope=self.scope
        )
        if self.with_infostate:
            view = self.game.view(self._state, self.seat)
            self._infostate = InfoState(self.encoding, self.num_players, self.seat, view)
        self._play_bots()
        return self._observe(), self._info()

    def _play_bots(self) -> None:
        """Let the bots act until the learner must act or the game is over."""
        game = self.game
        while True:
            seat = game.to_act(self._state)
            if seat is None:
                self._decision = None
                return
            view = game.view(self._state, seat)
            legal = game.legal_actions(self._state)
            if seat == self.seat:
                self._turn = TurnObservation(self.encoding, view)
                self._decision = Decision(self.encoding, view, legal)
                return
            action = self.bots[seat].choose(view, legal, self._bot_rng)
            self._apply(
                seat, self.encoding.action_ids(view, action) if self._infostate else (), action
            )

    def _apply(self, seat: int, ids: tuple[int, ...], action: object) -> None:
        """Apply a move and, with ``infostate=True``, record it for the learner."""
        self._state, _ = self.game.apply(self._state, action)
        if self._infostate is not None:
            self._infostate.record(seat, ids, self.game.view(self._state, self.seat))

    def _observe(self) -> ObsArray:
        decision = self._decision
        if decision is None or self._turn is None:
            return observation_array(self.encoding, self.game.view(self._state, self.seat))
        return self._turn.array(decision.prefix)

    def _info(self, **extra: object) -> dict[str, Any]:
        info = {"action_mask": mask_array(self._ids, self._decision), **extra}
        if self._infostate is not None:
            decision = self._decision
            pending = decision.prefix if decision is not None else ()
            info["infostate"] = features_array(self._infostate.features(pending))
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids as booleans (for maskable learners)."""
        return mask_array(self._ids, self._decision).astype(bool)

    def step(self, action: np.int64 | int) -> tuple[ObsArray, float, bool, bool, dict[str, Any]]:
        """Take one action id; the bots answer until the learner acts again."""
        decision = self._decision
        action_id = int(action)
        if decision is None or not decision.is_legal(action_id):
            self._decision = None
            return (
                self._observe(),
                self.illegal_penalty,
                True,
                False,
                self._info(illegal_action=True),
            )
        chosen = decision.choose(action_id)
        if chosen is None:
            return self._observe(), 0.0, False, False, self._info()
        self._apply(self.seat, decision.prefix, chosen)
        self._play_bots()
        if self._decision is None:
            reward = reward_of(self.game.outcome(self._state), self.seat)
            return self._observe(), reward, True, False, self._info()
        return self._observe(), 0.0, False, False, self._info()

    def render(self) -> str | None:
        """``ansi``: the learner's view as text."""
        if self.render_mode is None:
            return None
        return self.game.render_view(self.game.view(self._state, self.seat))


def gym_env(
    game: GameLike,
    seat: int = 0,
    opponents: str | Sequence[str] = "greedy",
    players: int | None = None,
    options: Options | Mapping[str, object] | None = None,
    *,
    render_mode: str | None = None,
    scope: Scope = "unit",
    illegal_penalty: float = ILLEGAL_PENALTY,
    infostate: bool = False,
) -> CardtableGymEnv:
    """A Gymnasium environment of ``game`` from ``seat``; ``opponents`` names the bots of
    the other seats (one name for all, or one per other seat in seat order).
    ``infostate=True`` adds the learner's information state to the info (module doc).

    >>> env = gym_env("mastheads", opponents="random")
    >>> obs, info = env.reset(seed=3)
    >>> obs.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
    (True, True)
    """
    return CardtableGymEnv(
        game, seat, opponents, players, options, render_mode, scope, illegal_penalty, infostate
    )
