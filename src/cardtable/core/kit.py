"""What a game gives the layers above for search and bots: its *kit*.

A game is one folder: besides its rules it knows how to sample a full state from a seat's
view, how a reasonable player moves (a greedy :class:`Policy`) and how search should walk
it (a :class:`SearchProfile`: points, a typical margin, fast rules functions, rollout
policies and playouts, a budget).  :class:`cardtable.core.game.Game` offers these as
methods with generic defaults; the bots reach every game through them and never import a
game's package or compare its name.

>>> import random
>>> class First:
...     name = "first"
...     def choose(self, view, legal, rng):
...         return legal[0]
>>> isinstance(First(), Policy), First().choose(None, ["a", "b"], random.Random(0))
(True, 'a')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "DEFAULT_HARD_SIMULATIONS",
    "Policy",
    "SearchProfile",
    "SolveMode",
    "Solved",
    "Solver",
    "ViewSampler",
]

DEFAULT_HARD_SIMULATIONS = 1000
"""The ``hard`` budget (simulations per move) of a game that does not set its own."""

ViewSampler = Callable[[random.Random], Any]
"""Deals one full state consistent with a view it was prepared from, by ``rng`` alone.

A search prepares one per view (:meth:`Game.view_sampler`) and keeps it for its loop, so
what depends only on the view is worked out once per search and never shared."""


@runtime_checkable
class Policy(Protocol):
    """A way to move from what one seat sees: ``choose(view, legal, rng)``.

    A game's greedy policy is one; the bots use it as the ``greedy`` bot and in the
    ``easy`` and ``medium`` levels.  Like every bot it sees the view, never the state.
    """

    name: str

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """One of ``legal``; ``rng`` is the only randomness the policy may use."""
        ...


class SolveMode(IntEnum):
    """What a game's :class:`Solver` can do from one view.

    ``NONE``: nothing (search instead); ``EXACT``: the rest of the unit is of perfect
    information to the viewer (every determinization is the same world), so one solve is
    exact; ``SAMPLED``: few cards remain, so solving sampled worlds (PIMC) is affordable.
    """

    NONE = 0
    EXACT = 1
    SAMPLED = 2


@dataclass(frozen=True, slots=True)
class Solved:
    """A perfect-information solve of one full state, for the seat to act.

    ``values`` holds, for every legal action, ``(action, value, margin, win)``: ``value``
    is what the solver maximises (higher is better), ``margin`` the point margin of the
    seat's side at the end of the unit (own points minus the mean of the other sides'),
    ``win`` 1, 0.5 or 0 as the side ends the unit ahead, level or behind.  ``nodes``
    counts the positions the solve expanded.
    """

    values: tuple[tuple[Any, float, float, float], ...]
    nodes: int


@dataclass(frozen=True, slots=True)
class Solver:
    """A game's exact solver for the end of a unit, and when to use it.

    ``mode(view)`` says whether the seat of ``view`` can be helped (:class:`SolveMode`);
    ``solve(state, max_nodes)`` solves a full state (a determinization) and returns
    ``None`` when ``max_nodes`` positions were not enough; ``hard_nodes`` is the node
    budget of one ``hard`` move, ``worlds`` how many worlds ``hard`` samples in
    :attr:`SolveMode.SAMPLED` positions.
    """

    mode: Callable[[Any], SolveMode]
    solve: Callable[[Any, int], Solved | None]
    hard_nodes: int
    worlds: int = 16


@dataclass(frozen=True, slots=True)
class SearchProfile:
    """How search reaches one game.

    ``points(state)`` gives each **seat** its side's cumulative points; ``scale`` is a
    typical point margin of one unit (search rewards ``0.5 + 0.5 * tanh(d / scale)``).
    ``apply(state, action)`` returns the next state and may skip the legality check
    (search only applies actions from ``legal``); ``to_act`` is the contract's.
    ``rollout(state, legal, rng)`` picks a rollout action (``None``: uniformly random);
    ``playout(state, rng)`` (when given) replaces the whole rollout of the current unit
    and returns each seat's points at its end, as ``points`` counts them, and whether the
    game is then over (the highest points win).  When the game ends inside a simulation,
    the reward is ``final_margin`` of the unit's margin reward plus the rest of the
    win/loss reward.  ``hard_simulations`` is the ``hard`` level's budget per move
    (calibrated to the ``hard`` time contract, see ``docs/bots.md``).  ``solver``, when
    given, plays the end of a unit exactly (or on sampled worlds) instead of searching.
    ``expert``, when given, is the profile the ``expert`` level searches with instead of
    this one (e.g. a reward fitted to what its extra budget can reach); ``hard`` and the
    other levels always search with this one.  ``expert_simulations``, when not 0, is the
    ``expert`` level's budget per move (0: a fixed multiple of ``hard_simulations``, see
    :mod:`cardtable.bots.levels`), for a game whose ``expert`` time contract has room for
    more.  ``sampler``, when given, prepares the search's determinizations of a view
    instead of the game's :meth:`~cardtable.core.game.Game.view_sampler` (same contract:
    ``sampler(view)`` returns a function of a ``random.Random`` giving a full state
    consistent with the view), for a profile that infers more about the hidden cards than
    the game's uniform sampler does (e.g. from how the other seats choose what they hide).
    ``tail``, when given, is ``(share, scale)``: that share of the margin reward is
    ``tanh(margin / scale)`` with this wider scale, the rest the profile's own
    ``tanh(margin / self.scale)`` (a reward for a game whose margins are mostly small with
    rare large ones, shaped like the chance that a seat's margin wins
    a duplicate match; see ``lab/notes/bots-experiments.md``).
    """

    points: Callable[[Any], tuple[float, ...]]
    scale: float
    apply: Callable[[Any, Any], Any]
    legal: Callable[[Any], Sequence[Any]]
    to_act: Callable[[Any], int | None]
    rollout: Callable[[Any, Sequence[Any], random.Random], Any] | None = None
    playout: Callable[[Any, random.Random], tuple[tuple[float, ...], bool]] | None = None
    final_margin: float = 0.0
    hard_simulations: int = DEFAULT_HARD_SIMULATIONS
    solver: Solver | None = None
    expert: SearchProfile | None = None
    expert_simulations: int = 0
    sampler: Callable[[Any], ViewSampler] | None = None
    tail: tuple[float, float] | None = None
