"""A PettingZoo AEC environment over any registered game with a research encoding.

Agents are ``player_0`` … ``player_{n-1}`` (seat order).  Each step is one action id
(:mod:`cardtable.core.encoding`): a move made of several ids takes several steps of the same
agent, with reward 0 until the game ends.  Observations are dicts ``{"observation":
float32 array in [-1, 1], "action_mask": int8 array}`` as PettingZoo's classic games give;
the mask is all zeros for an agent who is not to act.  At the end every agent gets
:func:`cardtable.rl.common.reward_of` (+1 win, -1 loss, 0 when all or none won).  An id the
mask does not allow ends the game at once: the offender gets ``illegal_penalty``, the
others 0, and ``infos[agent]["illegal_action"]`` is set.

With ``infostate=True`` every agent's info also holds ``"infostate"``: its perfect-recall
information state (:class:`cardtable.core.encoding.InfoState`) as a float32 array of
:attr:`CardtableAECEnv.infostate_size` numbers, updated after every step.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from cardtable.core.encoding import (
    ILLEGAL,
    MOVED,
    InfoState,
    Stepper,
    infostate_size,
    observation_size,
)
from cardtable.core.game import Scope
from cardtable.core.options import Options
from cardtable.rl.common import (
    ILLEGAL_PENALTY,
    GameLike,
    encoding_of,
    features_array,
    game_of,
    observation_array,
    resolve_setup,
    reward_of,
)

__all__ = ["CardtableAECEnv", "aec_env"]

Obs = dict[str, npt.NDArray[Any]]
RENDER_MODES = ("ansi", "human")


class CardtableAECEnv(AECEnv[str, Any, Any]):
    """A cardtable game as a PettingZoo AEC environment (see the module doc)."""

    def __init__(
        self,
        game: GameLike,
        players: int | None = None,
        options: Options | Mapping[str, object] | None = None,
        render_mode: str | None = None,
        scope: Scope = "unit",
        illegal_penalty: float = ILLEGAL_PENALTY,
        infostate: bool = False,
    ) -> None:
        self.game = game_of(game)
        self.encoding = encoding_of(self.game)
        self.num_players, self.game_options = resolve_setup(self.game, players, options)
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"cardtable_{self.game.info.name.replace('-', '_')}_v0",
            "is_parallelizable": True,
        }
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}")
        self.render_mode = render_mode
        self.scope: Scope = scope
        self.illegal_penalty = illegal_penalty
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self._ids = self.encoding.num_distinct_actions
        size = observation_size(self.encoding, self.num_players)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self._ids,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self._ids) for agent in self.possible_agents}
        self._rng: random.Random | None = None
        self._play: Stepper[Any] = Stepper(self.game, self.encoding)
        self.with_infostate = infostate
        self.infostate_size = infostate_size(self.encoding, self.num_players)
        """The length of ``infos[agent]["infostate"]`` (with ``infostate=True``)."""
        self._infostates: list[InfoState[Any]] = []
        self._rewarded = False
        """Whether a reward was given this episode (until then clearing and accumulating
        the rewards, all zero, can be skipped)."""
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of an agent (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of an agent (the same object every time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed``, else from the environment's own generator.

        ``options`` is accepted for the API and ignored (game options are fixed when the
        environment is made).
        """
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        game_seed = self._rng.randrange(2**31)
        state = self.game.new_game(
            self.num_players, self.game_options, seed=game_seed, scope=self.scope
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rewarded = False
        if self.with_infostate:
            game = self.game
            self._infostates = [
                InfoState(self.encoding, self.num_players, seat, game.view(state, seat))
                for seat in range(self.num_players)
            ]
        self._play.start(state)
        self._next_turn()
        self._update_infostates()

    def _update_infostates(self) -> None:
        if not self.with_infostate:
            return
        play = self._play
        for seat, info in enumerate(self._infostates):
            pending = (
                play.decision.prefix if play.decision is not None and seat == play.seat else ()
            )
            agent = self.possible_agents[seat]
            if agent in self.infos:
                self.infos[agent]["infostate"] = features_array(info.features(pending))

    def _next_turn(self) -> None:
        """Select the agent to act, or end the game with its rewards."""
        seat = self._play.seat
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]
            return
        self._rewarded = True
        outcome = self.game.outcome(self._play.state)
        for i, agent in enumerate(self.possible_agents):
            if agent in self.rewards:
                self.rewards[agent] = reward_of(outcome, i)
                self.terminations[agent] = True

    def observe(self, agent: str) -> Obs:
        """The agent's observation and action mask (see the module doc)."""
        seat = self._seat_of[agent]
        play = self._play
        if seat == play.seat:
            features = play.observation()
            return {
                "observation": np.frombuffer(features.data, np.float32, features.pos),
                "action_mask": np.frombuffer(play.mask(), np.int8),
            }
        return {
            "observation": observation_array(self.encoding, self.game.view(play.state, seat)),
            "action_mask": np.zeros(self._ids, np.int8),
        }

    def step(self, action: int | None) -> None:
        """Take one action id for the agent to act (``None`` for an agent whose game is
        over, as PettingZoo's loop does)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # else every reward is 0 already
            self._clear_rewards()
        play = self._play
        result = play.choose(-1 if action is None else int(action))
        if result == ILLEGAL:
            play.stop()
            self._rewarded = True
            for other in self.agents:
                self.terminations[other] = True
            self.rewards[agent] = self.illegal_penalty
            self.infos[agent]["illegal_action"] = True
        else:
            if result == MOVED:
                if self.with_infostate:
                    state, view = play.state, self.game.view
                    for seat, info in enumerate(self._infostates):
                        info.record(play.actor, play.ids, view(state, seat))
                self._next_turn()
            if self.with_infostate:
                self._update_infostates()
        if self._rewarded:  # else adding the rewards changes nothing
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``ansi``: the table as a spectator sees it; ``human``: the same, printed."""
        if self.render_mode is None:
            return None
        text = self.game.render_view(self.game.view(self._play.state, None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def aec_env(
    game: GameLike,
    players: int | None = None,
    options: Options | Mapping[str, object] | None = None,
    render_mode: str | None = None,
    *,
    scope: Scope = "unit",
    illegal_penalty: float = ILLEGAL_PENALTY,
    infostate: bool = False,
) -> CardtableAECEnv:
    """A PettingZoo AEC environment of ``game`` (a name, an alias or a game object).

    One episode is one hand, round or deal (``scope="unit"``) unless ``scope="match"``.
    ``infostate=True`` adds each agent's information state to its info (module doc).

    >>> env = aec_env("casino")
    >>> env.reset(seed=1)
    >>> obs = env.observe(env.agent_selection)
    >>> int(obs["action_mask"].sum()) > 0, int(env.action_space("player_0").n)
    (True, 187)
    """
    return CardtableAECEnv(game, players, options, render_mode, scope, illegal_penalty, infostate)
