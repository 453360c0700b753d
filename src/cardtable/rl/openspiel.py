"""The games as OpenSpiel (``pyspiel``) Python games.

:func:`register_openspiel` registers every game with a research encoding as
``cardtable_<name>`` (``cardtable_royal_casino``, ``cardtable_rummy``,
``cardtable_royal_mastheads``), after which ``pyspiel.load_game("cardtable_rummy")`` and
every OpenSpiel algorithm that takes a game work on them.  One game is one unit (a hand,
a round, a deal).

- **Parameters**: ``players`` (the game's default), ``options`` (the game's options as
  ``name:value`` pairs joined by ``;``, e.g. ``"jokers:true;decks:2"``, as OpenSpiel's
  game strings allow no commas; empty for the defaults) and ``deal_seeds`` (below).
- **Actions** are the ids of the game's fixed space (:mod:`cardtable.core.encoding`); a
  move of several ids is several OpenSpiel actions of the same player.
- **Chance**: the deal is one explicit chance node at the root.  Its outcome is a *deal
  seed*, uniform over ``range(deal_seeds)`` (65,536 by default), from which the game
  shuffles with its own seeded generator, exactly as a table or an arena deals.  So the
  deal is sampled from 65,536 deals rather than enumerated card by card: the game
  contract deals from a seed (it owns the shuffle and the order of the stock), and
  ``cardtable.rl`` reaches the games only through that contract.  Within a unit nothing
  else is random, so this node is the only chance node.
- **Returns**: +1 for a seat on a winning side, -1 on a losing one, 0 for everyone when
  every side (or no side) won; terminal only.
- **Observers** (:class:`CardtableObserver`) honour ``pyspiel.IIGObservationType``:
  ``private_info`` ``SINGLE_PLAYER`` encodes the player's own view, ``NONE`` a
  spectator's view (public information only, the same for every player);
  ``perfect_recall`` adds the history of the unit
  (:class:`cardtable.core.encoding.InfoState`).  Public information cannot be left out
  (``public_info=False``) and ``ALL_PLAYERS`` is not offered: both raise ``ValueError``.
  ``tensor`` is float32; ``dict`` names its parts ``observation``, ``pending`` (the ids
  already chosen in the move being made) and, with perfect recall, ``history`` (one row
  of three numbers per token).
- **Serialization** is OpenSpiel's own: the history of actions, replayed.

>>> import pyspiel
>>> register_openspiel()
['cardtable_royal_casino', 'cardtable_royal_mastheads', 'cardtable_rummy']
>>> game = pyspiel.load_game("cardtable_royal_mastheads")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 104)
>>> state.apply_action(7)
>>> len(state.information_state_tensor(state.current_player())) == len(
...     game.new_initial_state().information_state_tensor(0))
True
>>> del game, state
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from cardtable.core.encoding import (
    TOKEN,
    Decision,
    Encoding,
    InfoState,
    infostate_size,
    observation_features,
    observation_size,
)
from cardtable.core.options import Options
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY
from cardtable.rl.common import encoding_of, features_array, reward_of

__all__ = [
    "DEAL_SEEDS",
    "CardtableObserver",
    "CardtableSpielGame",
    "CardtableSpielState",
    "parse_options",
    "register_openspiel",
    "short_name",
]

DEAL_SEEDS = 1 << 16
"""The default number of outcomes of the deal's chance node (parameter ``deal_seeds``)."""


def short_name(game: AnyGame) -> str:
    """The OpenSpiel name of a game: ``cardtable_`` and its name with ``_`` for ``-``."""
    return "cardtable_" + game.info.name.replace("-", "_")


def _game_type(game: AnyGame) -> pyspiel.GameType:
    info = game.info
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"cardtable {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": info.default_players,
            "options": "",
            "deal_seeds": DEAL_SEEDS,
        },
    )


_CLASSES: dict[str, type[CardtableSpielGame]] = {}
"""The registered class of each game, made once per process.  ``pyspiel`` keeps what it
registers until the process ends, after the interpreter has gone; a class (as OpenSpiel's
own Python games register) is safe there, where a closure would be freed without the GIL
and crash the exit."""


def register_openspiel() -> list[str]:
    """Register every game with a research encoding with ``pyspiel`` (again is harmless);
    returns the short names."""
    names = []
    for name in REGISTRY.names():
        game = REGISTRY.get(name)
        if game.encoding() is None:
            continue
        game_type = _game_type(game)
        cls = _CLASSES.get(game_type.short_name)
        if cls is None:
            cls = _CLASSES[game_type.short_name] = type(
                f"CardtableSpielGame_{game_type.short_name}",
                (CardtableSpielGame,),
                {"cardtable_name": game.info.name, "__doc__": f"{game.info.title} in OpenSpiel."},
            )
            pyspiel.register_game(game_type, cls)
        names.append(game_type.short_name)
    return names


class CardtableSpielGame(pyspiel.Game):
    """A cardtable game as an OpenSpiel game (see the module doc); one subclass per game
    names it (``cardtable_name``) and is what :func:`register_openspiel` registers."""

    cardtable_name = ""
    """The registry name of the game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = REGISTRY.get(self.cardtable_name)
        game_type = _game_type(game)
        params = dict(params or {})
        players = int(params.get("players", game.info.default_players))
        game.check_players(players)
        raw = parse_options(str(params.get("options", "")))
        deal_seeds = int(params.get("deal_seeds", DEAL_SEEDS))
        if deal_seeds < 1:
            raise ValueError("deal_seeds must be at least 1")
        self.setup = _Setup(game, game.resolve_options(raw), players, deal_seeds)
        self.encoding = self.setup.encoding
        self.players = players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_distinct_actions,
            max_chance_outcomes=deal_seeds,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.encoding.history_capacity(players),
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> CardtableSpielState:
        """The root: the deal's chance node."""
        return CardtableSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> CardtableObserver:
        """An observer for ``iig_obs_type`` (default: the player's current observation)."""
        return CardtableObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


def parse_options(text: str) -> dict[str, object]:
    """The ``options`` parameter as a mapping: ``name:value`` pairs joined by ``;``; each
    value is read as JSON (``true``, ``3``) or else taken as text (``CW``).

    >>> parse_options("jokers:true;decks:2;discardPickup:anySingle")
    {'jokers': True, 'decks': 2, 'discardPickup': 'anySingle'}
    """
    out: dict[str, object] = {}
    for pair in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = pair.partition(":")
        if not sep or not name.strip():
            raise ValueError(f"options must be name:value pairs joined by ';'; got {pair!r}")
        try:
            out[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[name.strip()] = value.strip()
    return out


class _Setup:
    """What a state needs of its game (states keep this, not the ``pyspiel`` game object,
    as OpenSpiel's own Python games do); shared by copies, as nothing in it changes."""

    __slots__ = ("deal_seeds", "encoding", "game", "options", "players")

    def __init__(self, game: AnyGame, options: Options, players: int, deal_seeds: int) -> None:
        self.game = game
        self.encoding: Encoding[Any, Any] = encoding_of(game)
        self.options = options
        self.players = players
        self.deal_seeds = deal_seeds

    def __deepcopy__(self, memo: dict[int, object]) -> _Setup:
        return self


class CardtableSpielState(pyspiel.State):
    """A position of a :class:`CardtableSpielGame`: the cardtable state (``None`` before
    the deal), the move being chosen and every seat's information state."""

    def __init__(self, game: CardtableSpielGame) -> None:
        super().__init__(game)
        self._game: _Setup = game.setup
        self.cardtable_state: Any = None
        self._decision: Decision[Any] | None = None
        self._seat = -1
        self._infostates: list[InfoState[Any]] = []
        self._public: InfoState[Any] | None = None

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` before the deal, ``TERMINAL`` at the end."""
        if self.cardtable_state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._decision is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._seat

    def _legal_actions(self, player: int) -> list[int]:
        """The ids the mask allows (ascending); none for a seat not to act."""
        if self._decision is None or player != self._seat:
            return []
        return self._decision.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal seeds, uniform."""
        n = self._game.deal_seeds
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        g = self._game
        game, enc = g.game, g.encoding
        if self.cardtable_state is None:
            state = game.new_game(g.players, g.options, seed=int(action), scope="unit")
            self.cardtable_state = state
            self._infostates = [
                InfoState(enc, g.players, seat, game.view(state, seat)) for seat in range(g.players)
            ]
            self._public = InfoState(enc, g.players, None, game.view(state, None))
            self._next_decision()
            return
        decision = self._decision
        if decision is None:
            raise ValueError("the game is over")
        move = decision.choose(int(action))
        if move is None:
            return
        state, _ = game.apply(self.cardtable_state, move)
        self.cardtable_state = state
        for seat, info in enumerate(self._infostates):
            info.record(self._seat, decision.prefix, game.view(state, seat))
        if self._public is not None:
            self._public.record(self._seat, decision.prefix, game.view(state, None))
        self._next_decision()

    def _next_decision(self) -> None:
        game = self._game.game
        state = self.cardtable_state
        seat = game.to_act(state)
        if seat is None:
            self._decision = None
            return
        self._seat = seat
        self._decision = Decision(
            self._game.encoding, game.view(state, seat), game.legal_actions(state)
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        return self._game.encoding.id_text(action)

    def is_terminal(self) -> bool:
        """True once the unit is over."""
        return self.cardtable_state is not None and self._decision is None

    def returns(self) -> list[float]:
        """+1 / -1 / 0 per seat at the end (see the module doc), zeros before."""
        n = self._game.players
        if not self.is_terminal():
            return [0.0] * n
        outcome = self._game.game.outcome(self.cardtable_state)
        return [reward_of(outcome, seat) for seat in range(n)]

    def pending(self) -> tuple[int, ...]:
        """The ids chosen so far in the move being made."""
        return () if self._decision is None else self._decision.prefix

    def infostate(self, seat: int | None) -> InfoState[Any] | None:
        """A seat's information state (``None``: the spectator's), ``None`` before the
        deal."""
        if self.cardtable_state is None:
            return None
        return self._public if seat is None else self._infostates[seat]

    def __str__(self) -> str:
        """The full position (every card) and the pending ids."""
        if self.cardtable_state is None:
            return "deal pending"
        text = self._game.game.format_position(self.cardtable_state)
        return f"{text}\npending {list(self.pending())}"


class CardtableObserver:
    """An OpenSpiel observer of a cardtable game (PyObserver: ``tensor``, ``dict``,
    ``set_from``, ``string_from``; see the module doc)."""

    def __init__(
        self,
        game: CardtableSpielGame,
        iig_obs_type: pyspiel.IIGObservationType,
        params: Any = None,
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if not iig_obs_type.public_info:
            raise ValueError("observers without public information are not supported")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observers of every player's private information are not supported")
        self._game = game.setup
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        enc, n = game.encoding, game.players
        obs = observation_size(enc, n) - enc.num_distinct_actions
        size = infostate_size(enc, n) if self.perfect_recall else obs + enc.num_distinct_actions
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            "observation": self.tensor[:obs],
            "pending": self.tensor[obs : obs + enc.num_distinct_actions],
        }
        if self.perfect_recall:
            self.dict["history"] = self.tensor[obs + enc.num_distinct_actions :].reshape(-1, TOKEN)

    def set_from(self, state: CardtableSpielState, player: int) -> None:
        """Write ``state`` as ``player`` observes it into ``tensor`` (zeros before the
        deal)."""
        self.tensor.fill(0.0)
        if state.cardtable_state is None:
            return
        seat = player if self.private else None
        pending = state.pending() if self.private and player == state.current_player() else ()
        if self.perfect_recall:
            info = state.infostate(seat)
            assert info is not None  # dealt: checked above
            features = info.features(pending)
        else:
            game = self._game.game
            view = game.view(state.cardtable_state, seat)
            features = observation_features(self._game.encoding, view, pending)
        self.tensor[: features.pos] = features_array(features)

    def string_from(self, state: CardtableSpielState, player: int) -> str:
        """The same as text: the view as the game renders it, the pending ids and, with
        perfect recall, the moves and received cards so far."""
        if state.cardtable_state is None:
            return "deal pending"
        seat = player if self.private else None
        game = self._game.game
        enc = self._game.encoding
        parts = [game.render_view(game.view(state.cardtable_state, seat))]
        if self.private and player == state.current_player() and state.pending():
            parts.append("choosing: " + ", ".join(enc.id_text(i) for i in state.pending()))
        if self.perfect_recall:
            info = state.infostate(seat)
            assert info is not None  # dealt: checked above
            n = self._game.players
            parts.append("history: " + " ".join(_token_text(enc, n, t) for t in info.tokens))
        return "\n".join(parts)


def _token_text(enc: Encoding[Any, Any], players: int, token: tuple[float, float, float]) -> str:
    """A history token as text: ``+c`` a received card (index), ``|k:id`` the first id of
    a move by the seat ``k`` places on (``,k:id`` a further id, ``k:?`` a secret one)."""
    kind, who, value = token
    if kind < 0:
        return f"+{round(value * enc.card_count) - 1}"
    sep = "|" if kind == 1.0 else ","
    k = round(who * players) - 1
    if value < 0:
        return f"{sep}{k}:?"
    return f"{sep}{k}:{round(value * enc.num_distinct_actions) - 1}"
