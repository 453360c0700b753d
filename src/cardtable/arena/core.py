"""The arena: bots play duplicate deals with rotated seats; results with confidence.

A run plays ``deals`` deals.  Every deal (a seed) is replayed once per **seating**: the
seat assignment rotated by 0, 1, …, P−1 places, so every entrant sits in every seat of
every deal and the luck of the cards cancels.  Each (deal, seating) is one independent
**job**; jobs are pure functions of their description (seeded bots, seeded deal), so the
results are identical whether the jobs run in this process, in a process pool or on Ray,
and they are always summarised in job order.

Lineups: with as many entrants as seats, one seat each; with as many entrants as sides
(partnerships), one side each; otherwise the first entrants get one seat each and the
last entrant fills the remaining seats (``--bots hard,medium`` in a 4-player game is one
``hard`` against three ``medium``).

>>> cfg = ArenaConfig("royal-casino", ("random", "medium"), deals=2, seed=1)
>>> [j.seats for j in plan(cfg)]
[('random', 'medium'), ('medium', 'random'), ('random', 'medium'), ('medium', 'random')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Literal

from cardtable.bots.levels import wall_clock_cap
from cardtable.core.errors import InvalidOptionError
from cardtable.core.game import Scope
from cardtable.core.registry import AnyGame
from cardtable.core.rng import derive_rng
from cardtable.games import get_game
from cardtable.tables import Table

__all__ = [
    "ArenaConfig",
    "GameResult",
    "Job",
    "lineup",
    "plan",
    "play_job",
    "run_job",
    "run_local",
]

Unit = Literal["hand", "match"]


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: the game, the entrants (bot names), how many deals, the unit."""

    game: str
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    unit: Unit = "hand"
    players: int | None = None
    options: Mapping[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The configuration as JSON."""
        return {
            "game": self.game,
            "bots": list(self.bots),
            "deals": self.deals,
            "seed": self.seed,
            "unit": self.unit,
            "players": self.players,
            "options": dict(self.options),
        }


@dataclass(frozen=True, slots=True)
class Job:
    """One game of the arena: a deal (seed) played with one seating."""

    index: int
    deal: int
    rotation: int
    game: str
    players: int
    seed: int
    seats: tuple[str, ...]
    """The bot name in each seat."""
    entrant_of_seat: tuple[int, ...]
    scope: Scope
    options: tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one job produced: final scores by side, winners, units played, actions."""

    index: int
    deal: int
    rotation: int
    seats: tuple[str, ...]
    entrant_of_seat: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    units: int
    actions: int

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {
            "index": self.index,
            "deal": self.deal,
            "rotation": self.rotation,
            "seats": list(self.seats),
            "sides": [list(s) for s in self.sides],
            "scores": list(self.scores),
            "winners": list(self.winners),
            "units": self.units,
            "actions": self.actions,
        }


def lineup(game: AnyGame, players: int, entrants: int) -> tuple[int, ...]:
    """The entrant index in each seat, before rotation (see the module doc).

    >>> from cardtable.games import get_game
    >>> lineup(get_game("casino"), 4, 2), lineup(get_game("mastheads"), 4, 2)
    ((0, 1, 0, 1), (0, 1, 1, 1))
    """
    if entrants < 1:
        raise InvalidOptionError("the arena needs at least one bot")
    sides = game.sides(players)
    if entrants == players:
        return tuple(range(players))
    if entrants == len(sides) and len(sides) < players:
        out = [0] * players
        for i, side in enumerate(sides):
            for seat in side:
                out[seat] = i
        return tuple(out)
    if entrants > players:
        raise InvalidOptionError(f"{entrants} bots do not fit {players} seats")
    return tuple(min(i, entrants - 1) for i in range(players))


def _players(game: AnyGame, cfg: ArenaConfig) -> int:
    if cfg.players is not None:
        game.check_players(cfg.players)
        return cfg.players
    n = len(cfg.bots)
    if game.info.min_players <= n <= game.info.max_players:
        return n
    return game.info.default_players


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` of an arena seeded ``seed``."""
    return derive_rng(seed, "arena-deal", deal).randrange(1 << 31)


def plan(cfg: ArenaConfig) -> list[Job]:
    """Every job of a run, in order: deal by deal, each with every rotation."""
    game = get_game(cfg.game)
    players = _players(game, cfg)
    base = lineup(game, players, len(cfg.bots))
    scope: Scope = "unit" if cfg.unit == "hand" else "match"
    options = tuple(sorted(game.resolve_options(cfg.options).to_json().items()))
    rotations = players
    sides = game.sides(players)
    if len(cfg.bots) == len(sides) < players:
        rotations = 2 if len(sides) == 2 else players
    jobs: list[Job] = []
    for d in range(cfg.deals):
        seed = deal_seed(cfg.seed, d)
        for r in range(rotations):
            ent = tuple(base[(s - r) % players] for s in range(players))
            jobs.append(
                Job(
                    len(jobs),
                    d,
                    r,
                    game.info.name,
                    players,
                    seed,
                    tuple(cfg.bots[e] for e in ent),
                    ent,
                    scope,
                    options,
                )
            )
    return jobs


def table_for(job: Job) -> Table:
    """The :class:`~cardtable.tables.Table` of ``job`` before its first action, with its
    seats' bots."""
    return Table(
        get_game(job.game),
        job.players,
        job.seed,
        [f"bot:{b}" for b in job.seats],
        dict(job.options),
        job.scope,
    )


def play_job(job: Job) -> Table:
    """Play one job to the end at a :class:`~cardtable.tables.Table` (bots see views only)."""
    table = table_for(job)
    with wall_clock_cap(False):  # the arena's games depend only on seeds and budgets
        table.run_bots()
    return table


def run_job(job: Job) -> GameResult:
    """Play one job (:func:`play_job`) and keep its result."""
    return result_of(job, play_job(job))


def result_of(job: Job, table: Table) -> GameResult:
    """The result of ``job`` from its finished ``table``."""
    game = table.game
    outcome = table.outcome()
    if outcome is None:
        raise RuntimeError(f"arena job {job.index} did not finish")
    return GameResult(
        job.index,
        job.deal,
        job.rotation,
        job.seats,
        job.entrant_of_seat,
        outcome.sides,
        outcome.scores,
        outcome.winners,
        game.units_played(table.state),
        len(table.record.actions),
    )


def run_local(
    jobs: Sequence[Job],
    workers: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    runner: Callable[[Job], GameResult] | None = None,
) -> list[GameResult]:
    """Run jobs here (``workers == 1``) or in a local process pool; results in job order.

    ``runner`` plays one job (``None``: :func:`run_job`; or a measurement's own stepping
    of the table; in a pool it must pickle)."""
    if runner is None:
        runner = run_job
    results: list[GameResult] = []
    if workers <= 1:
        for job in jobs:
            r = runner(job)
            results.append(r)
            if on_result is not None:
                on_result(r)
        return results
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(runner, job) for job in jobs]
        for fut in as_completed(futures):
            r = fut.result()
            results.append(r)
            if on_result is not None:
                on_result(r)
    results.sort(key=lambda r: r.index)
    return results


def order_results(results: Iterable[GameResult]) -> list[GameResult]:
    """Results in job order (how every summary reads them)."""
    return sorted(results, key=lambda r: r.index)
