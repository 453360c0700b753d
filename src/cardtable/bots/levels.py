"""Bot levels people understand: ``easy``, ``medium``, ``hard`` and ``expert``.

* ``easy``: the game's greedy bot, but one move in four is a random legal move.
* ``medium``: the game's greedy bot (the random bot where a game has none yet).
* ``hard``: ISMCTS with a fixed number of simulations per move, chosen by each game (its
  search profile's ``hard_simulations``) so that a move takes about one second on one core
  of the reference machine (a simulation budget, not a clock, keeps games reproducible
  from their seed).
* ``expert``: ISMCTS with four times the ``hard`` budget, split over several worker
  processes (root parallelisation: independent trees, visit counts summed).

``ismcts:N`` (N simulations) and ``ismcts:Nms`` (a wall-clock budget of N milliseconds,
not reproducible) name other budgets, e.g. for win rate against budget charts.

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

import multiprocessing
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardtable.bots.ismcts import ActionStats, SearchResult, adapter_for, search
from cardtable.bots.random_bot import RandomBot
from cardtable.core.errors import InvalidOptionError
from cardtable.core.kit import Policy
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY

__all__ = [
    "EXPERT_FACTOR",
    "GreedyLevelBot",
    "ISMCTSBot",
    "hard_simulations",
    "merge_results",
    "parse_budget",
]

EXPERT_FACTOR = 4
"""``expert`` searches this many times the ``hard`` budget."""


def hard_simulations(game: AnyGame) -> int:
    """The simulations per move of ``hard`` for ``game`` (its kit decides; about one second
    per move on one core of the reference machine)."""
    return game.search_profile().hard_simulations


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


def _worker_search(
    game: AnyGame | str, view: Any, legal: Sequence[Any], seed: int, simulations: int
) -> SearchResult:
    """One search in a worker process; a registered game travels by name."""
    if isinstance(game, str):
        game = REGISTRY.get(game)
    return search(adapter_for(game), view, legal, random.Random(seed), simulations)


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

    With ``workers > 1`` the budget is split over that many processes (independent trees
    from seeds drawn from ``rng``; results merged), so the choice still depends only on the
    view, the legal actions and ``rng`` when the budget is in simulations.
    """

    def __init__(
        self,
        game: AnyGame,
        simulations: int | None = None,
        millis: float | None = None,
        workers: int = 1,
        name: str = "ismcts",
    ) -> None:
        self.game = game
        self.name = name
        self.simulations = simulations
        self.millis = millis
        self.workers = max(1, workers)
        self._adapter = adapter_for(game)
        if simulations is None and millis is None:
            self.simulations = self._adapter.profile.hard_simulations

    def analyse(self, view: Any, legal: Sequence[Any], rng: random.Random) -> SearchResult:
        """The full root statistics of one search from ``view``."""
        seed = rng.randrange(1 << 62)
        if self.millis is not None:
            deadline = time.perf_counter() + self.millis / 1000

            def stop() -> bool:
                return time.perf_counter() >= deadline

            sims = self.simulations or 10**9
            return search(self._adapter, view, legal, random.Random(seed), sims, stop)
        sims = self.simulations or self._adapter.profile.hard_simulations
        if self.workers == 1:
            return search(self._adapter, view, legal, random.Random(seed), sims)
        seeds = [random.Random(seed + i).randrange(1 << 62) for i in range(self.workers)]
        share = [
            sims // self.workers + (1 if i < sims % self.workers else 0)
            for i in range(self.workers)
        ]
        jobs = list(zip(seeds, share, strict=True))
        game = _by_name(self.game)
        if multiprocessing.parent_process() is not None:
            # Already in a worker process (an arena pool): a nested pool would keep this
            # process from exiting.  The same searches in turn give the same result.
            return merge_results([_worker_search(game, view, legal, s, n) for s, n in jobs])
        pool = _pool(self.workers)
        futures = [pool.submit(_worker_search, game, view, list(legal), s, n) for s, n in jobs]
        return merge_results([f.result() for f in futures])

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """The most visited action of a search (the only legal action without searching)."""
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
    """How many processes ``expert`` uses: the cores available, at most four."""
    return max(1, min(4, os.cpu_count() or 1))
