"""``cardtable selfplay``: bot games at :class:`Table` s, optionally on several processes.

Game ``i`` is seeded ``seed + i`` and the results are gathered in game order, so the
summary is the same for any number of workers.  After every action the game's
``invariant_failures`` are checked and counted.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardtable.cli.common import get_game
from cardtable.core.game import Event, Scope
from cardtable.tables import Table

__all__ = ["GameResult", "SelfplayJob", "Summary", "play_one", "run_selfplay", "summarise"]

MAX_REPORTED_FAILURES = 5
"""How many invariant failure messages are kept for the report (all are counted)."""


@dataclass(frozen=True, slots=True)
class SelfplayJob:
    """One bot game to play: plain values, so it can cross to a worker process."""

    game: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: Mapping[str, object]
    scope: Scope
    keep_record: bool


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game produced."""

    seed: int
    sides: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    units: int
    items: tuple[tuple[str, tuple[int, ...]], ...]
    """Points per scoring item and side, where the game's events report them."""
    failures: int
    failure_messages: tuple[str, ...]
    record: str | None


def seat_bots(players: int, bots: Sequence[str]) -> tuple[str, ...]:
    """The bot in each seat: ``bots`` handed out in seat order, cycled.

    >>> seat_bots(4, ["greedy", "random"])
    ('greedy', 'random', 'greedy', 'random')
    """
    return tuple(bots[i % len(bots)] for i in range(players))


def play_one(job: SelfplayJob) -> GameResult:
    """Play one game to the end at a :class:`Table`, checking invariants after each action."""
    game = get_game(job.game)
    bots = seat_bots(job.players, job.bots)
    table = Table(
        game,
        job.players,
        job.seed,
        [f"bot:{b}" for b in bots],
        job.options,
        job.scope,
    )
    failures = 0
    messages: list[str] = []
    items: dict[str, list[int]] = {}
    sides = game.sides(job.players)
    while not table.is_over:
        update = table.step_bot()
        broken = game.invariant_failures(table.state)
        if broken:
            failures += len(broken)
            for text in broken[: MAX_REPORTED_FAILURES - len(messages)]:
                messages.append(f"seed {job.seed}, action {table.version}: {text}")
        for event in update.events:
            for name, side, points in item_points(event, sides):
                items.setdefault(name, [0] * len(sides))[side] += points
    outcome = table.outcome()
    assert outcome is not None  # the loop ends only when the game is over
    return GameResult(
        job.seed,
        outcome.sides,
        outcome.scores,
        outcome.winners,
        table.version,
        game.units_played(table.state),
        tuple((k, tuple(v)) for k, v in items.items()),
        failures,
        tuple(messages),
        table.record.dumps() if job.keep_record else None,
    )


def item_points(event: Event, sides: Sequence[Sequence[int]]) -> Iterator[tuple[str, int, int]]:
    """The ``(item, side, points)`` a scoring event reports, if any.

    A scoring event that has a field ``items`` with one entry per side, each entry a
    dataclass or a mapping of item names to whole numbers (Royal Casino's ``HandScored``
    with its ``HandScore`` per side), gives every item of every side.  Other events give
    none.
    """
    raw = getattr(event, "items", None)
    if not isinstance(raw, tuple) or len(raw) != len(sides):
        return
    for side, entry in enumerate(raw):
        if dataclasses.is_dataclass(entry) and not isinstance(entry, type):
            pairs = [(f.name, getattr(entry, f.name)) for f in dataclasses.fields(entry)]
        elif isinstance(entry, Mapping):
            pairs = list(entry.items())
        else:
            continue
        for name, value in pairs:
            if isinstance(name, str) and isinstance(value, int) and not isinstance(value, bool):
                yield name, side, value


def run_selfplay(
    jobs: Sequence[SelfplayJob],
    workers: int,
    on_result: Callable[[GameResult], None],
) -> list[GameResult]:
    """Play every job (on ``workers`` processes when more than one), results in job order."""
    if workers <= 1:
        results = []
        for job in jobs:
            result = play_one(job)
            on_result(result)
            results.append(result)
        return results
    with ProcessPoolExecutor(max_workers=workers) as pool:
        out = []
        chunk = max(1, min(16, len(jobs) // (workers * 4)))
        for result in pool.map(play_one, jobs, chunksize=chunk):
            on_result(result)
            out.append(result)
        return out


@dataclass
class SideSummary:
    """Totals for one side over all games."""

    seats: tuple[int, ...]
    bots: tuple[str, ...]
    wins: int = 0
    points: int = 0
    items: dict[str, int] = field(default_factory=dict)


@dataclass
class Summary:
    """The totals of a self-play run."""

    game: str
    players: int
    seed: int
    scope: Scope
    games: int
    actions: int
    units: int
    sides: list[SideSummary]
    invariant_failures: int
    failure_messages: list[str]

    def to_json(self) -> dict[str, Any]:
        """The summary as the JSON object ``selfplay --json`` prints."""
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "scope": self.scope,
            "games": self.games,
            "actions": self.actions,
            "units": self.units,
            "results": [
                {
                    "side": i,
                    "seats": list(s.seats),
                    "bots": list(s.bots),
                    "wins": s.wins,
                    "mean_points": round(s.points / self.games, 4) if self.games else 0.0,
                    "mean_item_points": {
                        k: round(v / self.games, 4) for k, v in sorted(s.items.items())
                    },
                }
                for i, s in enumerate(self.sides)
            ],
            "invariant_failures": self.invariant_failures,
        }

    def dumps(self) -> str:
        """The JSON text of :meth:`to_json`."""
        return json.dumps(self.to_json(), ensure_ascii=False)


def summarise(
    game: str,
    players: int,
    seed: int,
    scope: Scope,
    bots: Sequence[str],
    sides: Sequence[Sequence[int]],
    results: Sequence[GameResult],
) -> Summary:
    """Add up the results of every game, side by side."""
    per_seat = seat_bots(players, bots)
    summary = Summary(
        game,
        players,
        seed,
        scope,
        len(results),
        0,
        0,
        [SideSummary(tuple(s), tuple(per_seat[x] for x in s)) for s in sides],
        0,
        [],
    )
    for r in results:
        summary.actions += r.actions
        summary.units += r.units
        summary.invariant_failures += r.failures
        summary.failure_messages.extend(r.failure_messages)
        for w in r.winners:
            summary.sides[w].wins += 1
        for i, score in enumerate(r.scores):
            summary.sides[i].points += score
        for name, per_side in r.items:
            for i, points in enumerate(per_side):
                side = summary.sides[i]
                side.items[name] = side.items.get(name, 0) + points
    return summary


def write_records(directory: Path, game: str, results: Sequence[GameResult]) -> int:
    """Write each kept record as ``<game>-<seed>.json`` in ``directory``; returns how many."""
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    for r in results:
        if r.record is not None:
            (directory / f"{game}-{r.seed}.json").write_text(r.record + "\n", encoding="utf-8")
            count += 1
    return count
