"""Bot levels people understand: ``easy``, ``medium``, ``hard`` and ``expert``.

* ``easy``: the game's greedy bot, but one move in four is a random legal move.
* ``medium``: the game's greedy bot (the random bot where a game has none yet).
* ``hard``: ISMCTS with a fixed number of simulations per move, chosen by each game (its
  search profile's ``hard_simulations``), and the game's endgame solver (its profile's
  ``solver``) with a fixed number of nodes where it applies.  The budgets are calibrated
  so that a move stays within :data:`HARD_SECONDS` on the reference machine; work counted
  in simulations and nodes, not a clock, keeps games reproducible from their seed.
* ``expert``: four times the ``hard`` budgets (:data:`EXPERT_FACTOR`; a game whose
  search profile sets ``expert_simulations`` searches that many), the search split
  into :data:`EXPERT_TREES` independent trees (root parallelisation: visit counts summed),
  searched in parallel by up to that many worker processes; within :data:`EXPERT_SECONDS`
  a move.  The number of trees is fixed, never the machine's core count, so an expert
  move is the same on every machine (a machine with fewer cores only takes longer).

Both levels also carry a wall-clock safety cap at their time contract, for live play on a
loaded machine; the arena turns it off (:func:`wall_clock_cap`), so its numbers depend
only on the seeds and the code.

``ismcts:N`` (N simulations) and ``ismcts:Nms`` (a wall-clock budget of N milliseconds,
not reproducible) name other budgets, e.g. for win rate against budget charts; they do
not use the solver.

>>> import random
>>> from cardtable.games import get_game
>>> GAME = get_game("royal-casino")
>>> bot = ISMCTSBot(GAME, simulations=30)
>>> s = GAME.new_game(2, seed=1)
>>> bot.choose(GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s), random.Random(0)) in (
...     GAME.legal_actions(s))
True
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextvars import ContextVar
from typing import Any

from cardtable.bots.ismcts import ActionStats, SearchAdapter, SearchResult, adapter_for, search
from cardtable.bots.pimc import SolvedResult, solve_view
from cardtable.bots.random_bot import RandomBot
from cardtable.core.errors import InvalidOptionError
from cardtable.core.kit import Policy
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY

__all__ = [
    "EXPERT_FACTOR",
    "EXPERT_SECONDS",
    "EXPERT_TREES",
    "HARD_SECONDS",
    "GreedyLevelBot",
    "ISMCTSBot",
    "expert_simulations",
    "hard_nodes",
    "hard_simulations",
    "level_adapter",
    "merge_results",
    "parse_budget",
    "tree_shares",
    "wall_clock_cap",
    "wall_clock_cap_on",
]

EXPERT_FACTOR = 4
"""``expert`` searches this many times the ``hard`` budget."""
HARD_SECONDS = 0.5
"""The ``hard`` time contract: at most this much compute per move on the reference
machine (the budgets are calibrated to it; the safety cap enforces it in live play)."""
EXPERT_SECONDS = 2.0
"""The ``expert`` time contract per move."""
EXPERT_TREES = 2
"""``expert`` splits its simulations into this many independent trees (one worker
process each where the machine has the cores).  A constant, so the choice of a move
depends only on the view, the legal actions and the seed, on any machine."""

_CAP: ContextVar[bool] = ContextVar("wall_clock_cap", default=True)


def wall_clock_cap_on() -> bool:
    """Whether the levels' wall-clock safety cap is on here (the default)."""
    return _CAP.get()


@contextlib.contextmanager
def wall_clock_cap(on: bool) -> Iterator[None]:
    """Turn the levels' wall-clock safety cap on or off in this context (thread).

    The arena turns it off so that its games depend only on seeds and budgets:

    >>> with wall_clock_cap(False):
    ...     wall_clock_cap_on()
    False
    >>> wall_clock_cap_on()
    True
    """
    token = _CAP.set(on)
    try:
        yield
    finally:
        _CAP.reset(token)


def hard_simulations(game: AnyGame) -> int:
    """The simulations per move of ``hard`` for ``game`` (its kit decides, within the
    ``hard`` time contract)."""
    return game.search_profile().hard_simulations


def expert_simulations(game: AnyGame) -> int:
    """The simulations per move of ``expert`` for ``game``: its kit's
    ``expert_simulations`` where it sets them (within the ``expert`` time contract), else
    :data:`EXPERT_FACTOR` times ``hard``'s.

    >>> from cardtable.games import get_game
    >>> mastheads = get_game("royal-mastheads")
    >>> expert_simulations(mastheads), hard_simulations(mastheads)
    (48000, 12000)
    """
    profile = game.search_profile()
    return profile.expert_simulations or EXPERT_FACTOR * profile.hard_simulations


def hard_nodes(game: AnyGame) -> int:
    """The endgame-solver nodes per move of ``hard`` for ``game`` (0 without a solver)."""
    solver = game.search_profile().solver
    return 0 if solver is None else solver.hard_nodes


class GreedyLevelBot:
    """``easy`` and ``medium``: the game's greedy policy, with a share of random moves for
    ``easy``.

    When the game has no greedy policy the random bot stands in (``fallback`` is True).
    """

    def __init__(self, game: AnyGame, name: str, mistake_rate: float) -> None:
        self.name = name
        self.mistake_rate = mistake_rate
        greedy = game.greedy_policy()
        self.fallback = greedy is None
        self._inner: Policy = RandomBot() if greedy is None else greedy

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """The greedy choice, or (with probability ``mistake_rate``) a random legal move."""
        if self.mistake_rate and rng.random() < self.mistake_rate:
            return legal[rng.randrange(len(legal))]
        return self._inner.choose(view, legal, rng)


def tree_shares(sims: int, trees: int) -> list[int]:
    """``sims`` simulations split over ``trees`` independent trees as evenly as they go,
    the first trees one more.

    >>> tree_shares(10, 3), tree_shares(48_000, 2)
    ([4, 3, 3], [24000, 24000])
    """
    return [sims // trees + (1 if i < sims % trees else 0) for i in range(trees)]


def merge_results(results: Sequence[SearchResult]) -> SearchResult:
    """Sum the root statistics of independent searches (visit-weighted means)."""
    acc: dict[Any, list[float]] = {}
    order: list[Any] = []
    for r in results:
        for s in r.stats:
            row = acc.get(s.action)
            if row is None:
                row = acc[s.action] = [0.0, 0.0, 0.0, 0.0]
                order.append(s.action)
            row[0] += s.visits
            row[1] += s.value * s.visits
            row[2] += s.win_prob * s.visits
            row[3] += s.points * s.visits
    stats = [
        ActionStats(
            a, int(acc[a][0]), acc[a][1] / acc[a][0], acc[a][2] / acc[a][0], acc[a][3] / acc[a][0]
        )
        for a in order
        if acc[a][0]
    ]
    stats.sort(key=lambda s: (-s.visits, -s.value))
    return SearchResult(sum(r.simulations for r in results), tuple(stats))


def _stopper(
    cap_seconds: float | None, clock: Callable[[], float] = time.monotonic
) -> Callable[[], bool] | None:
    """A ``should_stop`` for a search that ends it ``cap_seconds`` from now (None: never)."""
    if cap_seconds is None:
        return None
    deadline = clock() + cap_seconds

    def stop() -> bool:
        return clock() >= deadline

    return stop


def level_adapter(game: AnyGame, expert: bool = False) -> SearchAdapter:
    """What a level searches ``game`` with: its search profile, or for ``expert`` the
    profile's ``expert`` profile where the game gives one.

    >>> from cardtable.games import get_game
    >>> GAME = get_game("royal-casino")
    >>> level_adapter(GAME).profile == GAME.search_profile()
    True
    """
    adapter = adapter_for(game)
    if expert and adapter.profile.expert is not None:
        return SearchAdapter(game, adapter.profile.expert)
    return adapter


def _worker_search(
    game: AnyGame | str,
    view: Any,
    legal: Sequence[Any],
    seed: int,
    simulations: int,
    cap_seconds: float | None = None,
    expert: bool = False,
) -> SearchResult:
    """One search in a worker process; a registered game travels by name."""
    if isinstance(game, str):
        game = REGISTRY.get(game)
    stop = _stopper(cap_seconds)
    adapter = level_adapter(game, expert)
    return search(adapter, view, legal, random.Random(seed), simulations, stop)


def _by_name(game: AnyGame) -> AnyGame | str:
    """A registered game's name (what a worker process looks up), else the game itself."""
    name = game.info.name
    return name if name in REGISTRY.names() and REGISTRY.get(name) is game else game


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    pool = _POOLS.get(workers)
    if pool is None:
        # "spawn": forking a process that runs threads (another pool's, Ray's) can deadlock.
        context = multiprocessing.get_context("spawn")
        pool = _POOLS[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    return pool


class ISMCTSBot:
    """An ISMCTS player: ``simulations`` per move, or ``millis`` of wall-clock per move.

    With ``workers > 1`` the budget is split into that many independent trees (seeds drawn
    from ``rng``; results merged), searched by up to that many processes (no more than the
    machine's cores), so the choice still depends only on the view, the legal actions and
    ``rng`` when the budget is in simulations.

    With ``solver_nodes > 0`` and a game whose kit has a solver, positions the solver
    covers are solved instead (exactly, or ``worlds`` sampled worlds), within that many
    nodes; a move the solver does not settle (it does not apply, or it ran out of nodes)
    is searched with all the simulations (the node budget and the simulations are each
    about half a move's time).
    ``cap_seconds`` is the wall-clock safety cap of a level (on unless
    :func:`wall_clock_cap` turned it off); ``clock`` is the clock it reads.
    ``expert_profile`` searches with the game's ``expert`` search profile where it has one
    (:func:`level_adapter`).
    """

    def __init__(
        self,
        game: AnyGame,
        simulations: int | None = None,
        millis: float | None = None,
        workers: int = 1,
        name: str = "ismcts",
        solver_nodes: int = 0,
        worlds: int = 0,
        cap_seconds: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        expert_profile: bool = False,
    ) -> None:
        self.game = game
        self.name = name
        self.simulations = simulations
        self.millis = millis
        self.workers = max(1, workers)
        self.solver_nodes = solver_nodes
        self.cap_seconds = cap_seconds
        self.clock = clock
        self.expert_profile = expert_profile
        self._adapter = level_adapter(game, expert_profile)
        solver = self._adapter.profile.solver
        self.worlds = worlds or (solver.worlds if solver is not None else 0)
        if simulations is None and millis is None:
            self.simulations = self._adapter.profile.hard_simulations
        self.last_solved: SolvedResult | None = None
        """What the solver gave for the last move (``None``: that move was searched)."""

    def analyse(self, view: Any, legal: Sequence[Any], rng: random.Random) -> SearchResult:
        """The full root statistics of one search (or solve) from ``view``."""
        seed = rng.randrange(1 << 62)
        self.last_solved = None
        cap = self.cap_seconds if wall_clock_cap_on() else None
        if self.millis is not None:
            stop = _stopper(self.millis / 1000, self.clock)
            sims = self.simulations or 10**9
            return search(self._adapter, view, legal, random.Random(seed), sims, stop)
        sims = self.simulations or self._adapter.profile.hard_simulations
        if self.solver_nodes > 0:
            solved = solve_view(
                self.game, view, legal, random.Random(seed ^ 0x5EED), self.solver_nodes, self.worlds
            )
            if solved is not None:
                self.last_solved = solved
                return self._break_ties(view, solved, seed, sims, _stopper(cap, self.clock))
            # Not solved (the solver does not apply here, or it ran out of nodes): the
            # search has its whole budget.  A game's node and simulation budgets are each
            # about half a move's time, so a failed solve and the search fit one move.
        stop = _stopper(cap, self.clock)
        if self.workers == 1:
            return search(self._adapter, view, legal, random.Random(seed), sims, stop)
        seeds = [random.Random(seed + i).randrange(1 << 62) for i in range(self.workers)]
        jobs = list(zip(seeds, tree_shares(sims, self.workers), strict=True))
        game = _by_name(self.game)
        if multiprocessing.parent_process() is not None:
            # Already in a worker process (an arena pool): a nested pool would keep this
            # process from exiting.  The same searches in turn give the same result.
            return merge_results(
                [search(self._adapter, view, legal, random.Random(s), n, stop) for s, n in jobs]
            )
        pool = _pool(min(self.workers, os.cpu_count() or 1))
        futures = [
            pool.submit(_worker_search, game, view, list(legal), s, n, cap, self.expert_profile)
            for s, n in jobs
        ]
        return merge_results([f.result() for f in futures])

    def _break_ties(
        self,
        view: Any,
        solved: SolvedResult,
        seed: int,
        sims: int,
        stop: Callable[[], bool] | None,
    ) -> SearchResult:
        """An exact solve's result, with equally valued best actions ordered by a search
        among them alone: minimax assumes a perfect defence, the search finds the move
        that gives a fallible one most chances to go wrong, and no best move loses value.
        """
        stats = solved.result.stats
        if not solved.exact or len(stats) < 2 or stats[1].value != stats[0].value:
            return solved.result
        top = [s for s in stats if s.value == stats[0].value]
        actions = [s.action for s in top]
        found = search(self._adapter, view, actions, random.Random(seed), sims, stop)
        rank = {s.action: i for i, s in enumerate(found.stats)}
        top.sort(key=lambda s: rank.get(s.action, len(rank)))
        return SearchResult(solved.result.simulations, (*top, *stats[len(top) :]))

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """The best action of a search or solve (the only legal action without one)."""
        if len(legal) == 1:
            return legal[0]
        return self.analyse(view, legal, rng).best()


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """Read ``2000`` (simulations) or ``500ms`` / ``1.5s`` (wall clock) as (sims, millis).

    >>> parse_budget("2000"), parse_budget("500ms"), parse_budget("1.5s")
    ((2000, None), (None, 500.0), (None, 1500.0))
    """
    t = text.strip().lower()
    try:
        if t.endswith("ms"):
            return None, float(t[:-2])
        if t.endswith("s"):
            return None, float(t[:-1]) * 1000
        n = int(t)
    except ValueError:
        raise InvalidOptionError(
            f"an ISMCTS budget is a number of simulations or a time like 500ms; got {text!r}"
        ) from None
    if n < 1:
        raise InvalidOptionError(f"an ISMCTS budget must be at least 1 simulation; got {n}")
    return n, None


def expert_workers() -> int:
    """How many independent trees ``expert`` searches (:data:`EXPERT_TREES`, whatever the
    machine's cores: the processes that search them are at most the cores)."""
    return EXPERT_TREES
