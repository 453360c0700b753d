"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

One implementation over the game contract and each game's kit (:mod:`cardtable.core.kit`:
the view sampler, points, fast paths and rollouts come from the game). Each simulation
samples a determinization of the searching seat's **view** (never the true state: the
search is given a view), walks the single tree of information sets with UCB1 using
*availability* counts (a child's availability is how often it was legal when its parent
was visited), expands one action, plays the rest of the current unit (hand, round or deal)
with a rollout policy and backs up every seat's reward.

Rewards lie in ``[0, 1]``: when the game ends inside a simulation, 1 for a winning side
(shared on co-wins) and 0 for the others; otherwise ``0.5 + 0.5 * tanh(d / scale)`` where
``d`` is the side's points gained in the unit minus the mean of the other sides' gains.
The search budget is explicit: a number of simulations and an optional ``should_stop``
callable (the bot layer supplies a clock; the search itself reads none).

>>> import random
>>> from cardtable.games import get_game
>>> GAME = get_game("royal-casino")
>>> s = GAME.new_game(2, seed=2)
>>> seat = GAME.to_act(s)
>>> r = search(adapter_for(GAME), GAME.view(s, seat), GAME.legal_actions(s), random.Random(0), 50)
>>> r.simulations, r.best() in GAME.legal_actions(s)
(50, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

from cardtable.core.kit import SearchProfile
from cardtable.core.registry import AnyGame
from cardtable.core.rng import randbelow

__all__ = [
    "ActionStats",
    "SearchAdapter",
    "SearchResult",
    "adapter_for",
    "search",
]

EXPLORATION: Final = 0.7
"""The UCB1 exploration constant (rewards are in [0, 1])."""


@dataclass(frozen=True, slots=True)
class SearchAdapter:
    """A game with its :class:`~cardtable.core.kit.SearchProfile`: what :func:`search`
    walks (the game's own kit says how: determinization, points, fast paths, rollouts)."""

    game: AnyGame
    profile: SearchProfile

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


def adapter_for(game: AnyGame) -> SearchAdapter:
    """The search adapter of any game, from its kit."""
    return SearchAdapter(game, game.search_profile())


class _Node:
    """A node of the information-set tree: the seat that moved into it and its counts.

    A plain class with its own ``__init__`` (compiled, it is a native class built without
    a Python frame: one is made per simulation)."""

    __slots__ = ("avail", "children", "margin", "mover", "reward", "visits", "wins")

    def __init__(self, mover: int, avail: int = 0) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = avail
        self.reward = 0.0
        self.wins = 0.0
        self.margin = 0.0
        self.children: dict[Any, _Node] = {}


@dataclass(frozen=True, slots=True)
class ActionStats:
    """What the search learnt about one root action.

    ``value`` is the mean reward (the number the search maximises), ``win_prob`` the share
    of simulations after which the seat's side was ahead in the unit (or had won the game;
    ties count half), ``points`` the mean point margin over the rest of the unit.
    """

    action: Any
    visits: int
    value: float
    win_prob: float
    points: float

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The root statistics of a search, best first (most visits, then value)."""

    simulations: int
    stats: tuple[ActionStats, ...]

    def best(self) -> Any:
        """The most visited root action."""
        return self.stats[0].action

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


def _outcome_rewards(game: AnyGame, state: Any, players: int) -> tuple[list[float], list[float]]:
    out = game.outcome(state)
    reward = [0.0] * players
    if out is not None and out.winners:
        share = 1.0 / len(out.winners)
        for w in out.winners:
            for seat in out.sides[w]:
                reward[seat] = share
    return reward, list(reward)


def _points_winners(
    sides: tuple[tuple[int, ...], ...], end: tuple[float, ...], players: int
) -> tuple[list[float], list[float]]:
    best = max(end[s[0]] for s in sides)
    top = [s for s in sides if end[s[0]] == best]
    reward = [0.0] * players
    for side in top:
        for seat in side:
            reward[seat] = 1.0 / len(top)
    return reward, list(reward)


def _margin_rewards(
    sides: tuple[tuple[int, ...], ...],
    scale: float,
    start: tuple[float, ...],
    end: tuple[float, ...],
    players: int,
    tail_share: float = 0.0,
    tail_scale: float = 1.0,
) -> tuple[list[float], list[float], list[float]]:
    """Each seat's margin reward, its win against the best other side, and its margin.

    The reward is ``0.5 + 0.5 * tanh(d / scale)``; with ``tail_share`` above 0 it is
    ``0.5 + 0.5 * ((1 - tail_share) * tanh(d / scale) + tail_share * tanh(d / tail_scale))``
    (:attr:`~cardtable.core.kit.SearchProfile.tail`: a sharp part for the usual small
    margins and a wide one for the rare large ones).

    >>> r, w, d = _margin_rewards(((0,), (1,)), 40.0, (0.0, 0.0), (20.0, 0.0), 2)
    >>> [round(x, 3) for x in r], w, d
    ([0.731, 0.269], [1.0, 0.0], [20.0, -20.0])
    >>> r, _, _ = _margin_rewards(((0,), (1,)), 40.0, (0.0, 0.0), (20.0, 0.0), 2, 0.35, 500.0)
    >>> [round(x, 3) for x in r]
    [0.657, 0.343]
    """
    gains = [end[s[0]] - start[s[0]] for s in sides]
    total = 0.0
    for g in gains:
        total += g
    k = len(sides)
    reward = [0.0] * players
    wins = [0.0] * players
    margin = [0.0] * players
    for i in range(k):
        side = sides[i]
        gain = gains[i]
        d = gain - (total - gain) / (k - 1) if k > 1 else gain
        if tail_share:
            r = 0.5 + 0.5 * (
                (1.0 - tail_share) * math.tanh(d / scale) + tail_share * math.tanh(d / tail_scale)
            )
        else:
            r = 0.5 + 0.5 * math.tanh(d / scale)
        best_other = gain
        first = True
        for j in range(k):
            if j != i and (first or gains[j] > best_other):
                best_other = gains[j]
                first = False
        w = 1.0 if gain > best_other else 0.5 if gain == best_other else 0.0
        for seat in side:
            reward[seat] = r
            wins[seat] = w
            margin[seat] = d
    return reward, wins, margin


def _blend(won: list[float], margin: list[float], share: float) -> list[float]:
    """The end-of-game reward: win/loss, with ``share`` of the margin reward mixed in.

    >>> _blend([1.0, 0.0], [0.75, 0.25], 0.5), _blend([1.0, 0.0], [0.75, 0.25], 0.0)
    ([0.875, 0.125], [1.0, 0.0])
    """
    if not share:
        return won
    return [(1 - share) * w + share * m for w, m in zip(won, margin, strict=True)]


class _Walk:
    """One search's fixed parts: the game, its profile's functions and reward, and the
    sides, and the walk of one simulation over them (selection and expansion, the rollout
    of the rest of the unit, backpropagation).

    A native class when compiled: its methods are direct calls and its fields slots."""

    __slots__ = (
        "apply",
        "final_margin",
        "game",
        "legal_of",
        "players",
        "playout",
        "points",
        "rollout",
        "scale",
        "sides",
        "tail_scale",
        "tail_share",
        "to_act",
        "units_played",
    )

    def __init__(self, game: AnyGame, profile: SearchProfile) -> None:
        self.game = game
        self.apply = profile.apply
        self.legal_of = profile.legal
        self.to_act = profile.to_act
        self.points = profile.points
        self.scale = profile.scale
        self.final_margin = profile.final_margin
        self.units_played = game.units_played
        self.rollout = profile.rollout
        self.playout = profile.playout
        tail = profile.tail
        self.tail_share = tail[0] if tail is not None else 0.0
        self.tail_scale = tail[1] if tail is not None else 1.0
        self.players = 0  # read off the first determinization
        self.sides: tuple[tuple[int, ...], ...] = ()

    def simulate(
        self, root: _Node, state: Any, legal_root: Sequence[Any], rng: random.Random
    ) -> None:
        """One simulation from the determinization ``state`` of the root."""
        if not self.players:
            self.players = self.game.players(state)
            self.sides = self.game.sides(self.players)
        start_points = self.points(state)
        start_units = self.units_played(state)
        state, path = self.descend(root, state, legal_root, start_units, rng)
        reward, wins, margin = self.finish(state, start_points, start_units, rng)
        for n in path[1:]:
            m = n.mover
            n.visits += 1
            n.reward += reward[m]
            n.wins += wins[m]
            n.margin += margin[m]

    def descend(
        self,
        root: _Node,
        state: Any,
        actions: Sequence[Any],
        start_units: int,
        rng: random.Random,
    ) -> tuple[Any, list[_Node]]:
        """Selection and expansion: down the tree by UCB1 over the available children
        until an untried action is expanded or the unit ends; the state there, the path."""
        apply = self.apply
        to_act = self.to_act
        node = root
        path = [root]
        while True:
            children = node.children
            # one pass: count availability, find the untried actions and the best UCB child
            untried: list[Any] | None = None
            best: _Node | None = None
            best_action: Any = None
            best_value = -1.0
            for a in actions:
                child = children.get(a)
                if child is None:
                    if untried is None:
                        untried = [a]
                    else:
                        untried.append(a)
                    continue
                child.avail += 1
                if untried is None:
                    v = child.visits
                    value = child.reward / v + EXPLORATION * math.sqrt(math.log(child.avail) / v)
                    if value > best_value:
                        best_value, best, best_action = value, child, a
            if untried is not None:
                action = untried[randbelow(rng, len(untried))] if len(untried) > 1 else untried[0]
                mover = to_act(state)
                child = _Node(mover=mover if mover is not None else -1, avail=1)
                children[action] = child
                path.append(child)
                return apply(state, action), path
            assert best is not None
            state = apply(state, best_action)
            node = best
            path.append(node)
            if to_act(state) is None or self.units_played(state) != start_units:
                return state, path
            actions = self.legal_of(state)

    def finish(
        self,
        state: Any,
        start_points: tuple[float, ...],
        start_units: int,
        rng: random.Random,
    ) -> tuple[list[float], list[float], list[float]]:
        """Play the rest of the unit from ``state`` (the profile's playout, its rollout
        policy or uniformly random moves) and each seat's reward, win and margin."""
        to_act = self.to_act
        units_played = self.units_played
        playout = self.playout
        if (
            playout is not None
            and to_act(state) is not None
            and (units_played(state) == start_units)
        ):
            end, over = playout(state, rng)
            reward, wins, margin = self.margins(start_points, end)
            if over:
                won, wins = _points_winners(self.sides, end, self.players)
                reward = _blend(won, reward, self.final_margin)
            return reward, wins, margin
        apply = self.apply
        legal_of = self.legal_of
        rollout = self.rollout
        while to_act(state) is not None and units_played(state) == start_units:
            moves = legal_of(state)
            if rollout is not None:
                action = rollout(state, moves, rng)
            else:
                action = moves[randbelow(rng, len(moves))]
            state = apply(state, action)
        reward, wins, margin = self.margins(start_points, self.points(state))
        if to_act(state) is None:
            won, wins = _outcome_rewards(self.game, state, self.players)
            reward = _blend(won, reward, self.final_margin)
        return reward, wins, margin

    def margins(
        self, start: tuple[float, ...], end: tuple[float, ...]
    ) -> tuple[list[float], list[float], list[float]]:
        """The profile's margin rewards of the unit from ``start`` to ``end``."""
        return _margin_rewards(
            self.sides, self.scale, start, end, self.players, self.tail_share, self.tail_scale
        )


def search(
    adapter: SearchAdapter,
    view: Any,
    legal: Sequence[Any],
    rng: random.Random,
    simulations: int,
    should_stop: Callable[[], bool] | None = None,
    check_every: int = 16,
) -> SearchResult:
    """Search from ``view`` for at most ``simulations`` simulations.

    ``should_stop`` (checked every ``check_every`` simulations) ends the search early;
    at least one simulation is always run.  The result depends only on the view, the
    legal actions, ``rng``'s state and the budget (when ``should_stop`` is not given).
    """
    game = adapter.game
    profile = adapter.profile
    if game.view_seat(view) is None:
        raise ValueError("a spectator's view cannot be searched")
    sampler = profile.sampler
    # prepared once for this search: the profile's own sampler, or the game's
    determinize = sampler(view) if sampler is not None else game.view_sampler(view)
    walk = _Walk(game, profile)
    root = _Node(mover=-1)
    legal_root: Sequence[Any] = list(legal)
    done = 0
    while done < simulations:
        if should_stop is not None and done and done % check_every == 0 and should_stop():
            break
        walk.simulate(root, determinize(rng), legal_root, rng)
        done += 1
    stats = [
        ActionStats(a, c.visits, c.reward / c.visits, c.wins / c.visits, c.margin / c.visits)
        for a, c in root.children.items()
        if c.visits
    ]
    stats.sort(key=lambda s: (-s.visits, -s.value))
    return SearchResult(done, tuple(stats))
