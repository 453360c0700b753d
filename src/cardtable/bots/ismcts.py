"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

One implementation over the game contract and each game's kit (:mod:`cardtable.core.kit`:
the view sampler, points, fast paths and rollouts come from the game). Each simulation
samples a determinization of the searching seat's **view** (never the true state: the
search is given a view), walks the single tree of information sets with UCB1 using
*availability* counts (a child's availability is how often it was legal when its parent
was visited), expands one action, plays the rest of the current unit (hand, round or deal)
with a rollout policy and backs up every seat's reward.  A kit may replace two parts of
this for its pilots (:class:`~cardtable.core.kit.SearchProfile`): ``opponent``, a model that
moves the other seats below the root from their sampled cards instead of by UCB1, and
``exploration``, UCB1's constant.

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
from typing import Any

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

EXPLORATION = 0.7
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


def _others_rewarded(
    reward: list[float],
    others: tuple[float, float],
    own_side: frozenset[int],
    sides: tuple[tuple[int, ...], ...],
    start: tuple[float, ...],
    end: tuple[float, ...],
    players: int,
    won: list[float] | None,
) -> list[float]:
    """``reward`` for the seats of ``own_side``; for every other seat the reward of the
    profile's ``others`` model, ``(scale, final_margin)``, on the same simulation (``won``:
    the win/loss rewards when the game ended inside it, else ``None``).

    >>> sides = ((0,), (1,))
    >>> r, _, _ = _margin_rewards(sides, 300.0, (0.0, 0.0), (60.0, 0.0), 2)
    >>> [round(x, 3) for x in r]
    [0.599, 0.401]
    >>> mixed = _others_rewarded(r, (60.0, 0.5), frozenset({0}), sides, (0.0, 0.0),
    ...                          (60.0, 0.0), 2, [1.0, 0.0])
    >>> [round(x, 3) for x in mixed]
    [0.599, 0.06]
    """
    theirs = _margin_rewards(sides, others[0], start, end, players)[0]
    if won is not None:
        theirs = _blend(won, theirs, others[1])
    return [reward[i] if i in own_side else theirs[i] for i in range(players)]


def search(
    adapter: SearchAdapter,
    view: Any,
    legal: Sequence[Any],
    rng: random.Random,
    simulations: int,
    should_stop: Callable[[], bool] | None = None,
    check_every: int = 16,
    exploration: float = 0.0,
) -> SearchResult:
    """Search from ``view`` for at most ``simulations`` simulations.

    ``exploration`` is UCB1's constant; 0 takes the profile's (``profile.exploration``),
    and where that is 0 too, :data:`EXPLORATION`.

    ``should_stop`` (checked every ``check_every`` simulations) ends the search early;
    at least one simulation is always run.  The result depends only on the view, the
    legal actions, ``rng``'s state and the budget (when ``should_stop`` is not given).
    """
    game = adapter.game
    profile = adapter.profile
    if not exploration:
        exploration = profile.exploration or EXPLORATION
    seat = game.view_seat(view)
    if seat is None:
        raise ValueError("a spectator's view cannot be searched")
    players = 0  # read off the first determinization
    sides: tuple[tuple[int, ...], ...] = ()
    root = _Node(mover=-1)
    sampler = profile.sampler
    # prepared once for this search: the profile's own sampler, or the game's
    determinize = sampler(view) if sampler is not None else game.view_sampler(view)
    apply = profile.apply
    legal_of = profile.legal
    to_act = profile.to_act
    points = profile.points
    scale = profile.scale
    final_margin = profile.final_margin
    units_played = game.units_played
    rollout = profile.rollout
    playout = profile.playout
    opponent = profile.opponent
    others = profile.others
    tail_share, tail_scale = profile.tail if profile.tail is not None else (0.0, 1.0)
    own_side: frozenset[int] = frozenset()
    legal_root: Sequence[Any] = list(legal)
    done = 0
    while done < simulations:
        if should_stop is not None and done and done % check_every == 0 and should_stop():
            break
        state = determinize(rng)
        if not players:
            players = game.players(state)
            sides = game.sides(players)
            own_side = frozenset(next(side for side in sides if seat in side))
        start_points = points(state)
        start_units = units_played(state)
        node = root
        path = [root]
        actions = legal_root
        # -- selection and expansion ---------------------------------------------------------
        while True:
            children = node.children
            best: _Node | None = None
            best_action: Any = None
            mover = to_act(state) if opponent is not None and node is not root else None
            if opponent is not None and mover is not None and mover != seat:
                # another seat moves by the kit's model of it, on its sampled cards
                best_action = opponent(state, actions, rng)
                best = children.get(best_action)
                if best is None:
                    best = _Node(mover=mover)
                    children[best_action] = best
                best.avail += 1
            else:
                # one pass: count availability, find the untried actions and the best UCB child
                untried: list[Any] | None = None
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
                        value = child.reward / v + exploration * math.sqrt(
                            math.log(child.avail) / v
                        )
                        if value > best_value:
                            best_value, best, best_action = value, child, a
                if untried is not None:
                    action = (
                        untried[randbelow(rng, len(untried))] if len(untried) > 1 else untried[0]
                    )
                    mover = to_act(state)
                    child = _Node(mover=mover if mover is not None else -1, avail=1)
                    children[action] = child
                    state = apply(state, action)
                    path.append(child)
                    break
            assert best is not None
            state = apply(state, best_action)
            node = best
            path.append(node)
            if to_act(state) is None or units_played(state) != start_units:
                break
            actions = legal_of(state)
        # -- rollout ---------------------------------------------------------------------
        if (
            playout is not None
            and to_act(state) is not None
            and (units_played(state) == start_units)
        ):
            end, over = playout(state, rng)
            reward, wins, margin = _margin_rewards(
                sides, scale, start_points, end, players, tail_share, tail_scale
            )
            won: list[float] | None = None
            if over:
                won, wins = _points_winners(sides, end, players)
                reward = _blend(won, reward, final_margin)
            if others is not None:
                reward = _others_rewarded(
                    reward, others, own_side, sides, start_points, end, players, won
                )
            for n in path[1:]:
                m = n.mover
                n.visits += 1
                n.reward += reward[m]
                n.wins += wins[m]
                n.margin += margin[m]
            done += 1
            continue
        while to_act(state) is not None and units_played(state) == start_units:
            moves = legal_of(state)
            if rollout is not None:
                action = rollout(state, moves, rng)
            else:
                action = moves[randbelow(rng, len(moves))]
            state = apply(state, action)
        # -- backpropagation ---------------------------------------------------------------
        end = points(state)
        reward, wins, margin = _margin_rewards(
            sides, scale, start_points, end, players, tail_share, tail_scale
        )
        won = None
        if to_act(state) is None:
            won, wins = _outcome_rewards(game, state, players)
            reward = _blend(won, reward, final_margin)
        if others is not None:
            reward = _others_rewarded(
                reward, others, own_side, sides, start_points, end, players, won
            )
        for n in path[1:]:
            m = n.mover
            n.visits += 1
            n.reward += reward[m]
            n.wins += wins[m]
            n.margin += margin[m]
        done += 1
    stats = [
        ActionStats(a, c.visits, c.reward / c.visits, c.wins / c.visits, c.margin / c.visits)
        for a, c in root.children.items()
        if c.visits
    ]
    stats.sort(key=lambda s: (-s.visits, -s.value))
    return SearchResult(done, tuple(stats))
