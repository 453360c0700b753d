"""``cardtable bench``: random playouts on one core, timed.

Each playout is one unit (hand, round or deal) from a new seed, played to the end by
``game.playout`` — uniformly random legal actions; games with a fast path use it there,
and their tests show it reaches the same states as the contract loop.  Throughput
(units/s, actions/s) is measured over those playouts, new deals included.  The per-call
costs are the medians of every call in a second phase that drives the contract itself
(``legal_actions``, a random choice, ``apply``, and a ``view`` of the seat to act); that
phase's own rate is reported too, as ``contract_units_per_s``.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardtable.bots import make_bot
from cardtable.core.options import Options
from cardtable.core.registry import AnyGame

__all__ = ["BenchResult", "run_bench"]


@dataclass(frozen=True, slots=True)
class BenchResult:
    """What a bench run measured."""

    game: str
    players: int
    units: str
    units_played: int
    actions: int
    seconds: float
    legal_actions_us: float
    apply_us: float
    view_us: float
    contract_units_per_s: float = 0.0
    """Units/s of the contract loop itself (legal_actions, choice, apply), for comparison."""

    @property
    def units_per_s(self) -> float:
        """Completed units per second of loop time."""
        return self.units_played / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_s(self) -> float:
        """Actions applied per second of loop time."""
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``bench --json`` prints (exactly the documented keys)."""
        return {
            "game": self.game,
            "players": self.players,
            "units": self.units,
            "units_per_s": round(self.units_per_s, 1),
            "actions_per_s": round(self.actions_per_s, 1),
            "legal_actions_us": round(self.legal_actions_us, 2),
            "apply_us": round(self.apply_us, 2),
            "view_us": round(self.view_us, 2),
        }


def run_bench(
    game: AnyGame,
    players: int,
    seconds: float,
    options: Options | None = None,
    seed: int = 0,
    on_progress: Callable[[float], None] | None = None,
) -> BenchResult:
    """Play random units for about ``seconds`` and measure them, with Python's cyclic
    garbage collector paused as ``timeit`` does (the engines make no reference cycles, so
    the collector would only add pauses; it runs again afterwards).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _run_bench(game, players, seconds, options, seed, on_progress)
    finally:
        if enabled:
            gc.enable()


def _run_bench(
    game: AnyGame,
    players: int,
    seconds: float,
    options: Options | None,
    seed: int,
    on_progress: Callable[[float], None] | None,
) -> BenchResult:
    """Play random units for about ``seconds`` and measure them.

    Four fifths of the time go to ``game.playout`` (throughput), one fifth (at least one
    unit) to the contract loop (per-call medians).  ``on_progress`` is called with the
    elapsed time from time to time.
    """
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    new_game, playout = game.new_game, game.playout
    units = actions = 0
    budget = int(seconds * 0.8e9)
    start = clock()
    next_report = start
    while True:
        state = new_game(players, options, seed + units, "unit")
        state, n = playout(state, rng)
        actions += n
        units += 1
        now = clock()
        if now - start >= budget:
            break
        if on_progress is not None and now >= next_report:
            on_progress((now - start) / 1e9)
            next_report = now + 100_000_000
    elapsed = (clock() - start) / 1e9
    legal_ns, apply_ns, view_ns, contract = _sample_calls(
        game, players, seconds * 0.2, options, seed + units, rng
    )
    if on_progress is not None:
        on_progress(seconds)
    return BenchResult(
        game.info.name,
        players,
        f"{game.info.unit}s",
        units,
        actions,
        elapsed,
        _median_us(legal_ns),
        _median_us(apply_ns),
        _median_us(view_ns),
        contract,
    )


def _sample_calls(
    game: AnyGame,
    players: int,
    seconds: float,
    options: Options | None,
    seed: int,
    rng: random.Random,
) -> tuple[list[int], list[int], list[int], float]:
    """Time every ``legal_actions``, ``apply`` and ``view`` call of contract-loop playouts
    for about ``seconds`` (at least one unit); also the loop's units/s without the views."""
    clock = time.perf_counter_ns
    legal_ns: list[int] = []
    apply_ns: list[int] = []
    view_ns: list[int] = []
    budget = int(seconds * 1e9)
    units = 0
    loop_ns = 0
    start = clock()
    while True:
        state = game.new_game(players, options, seed + units, "unit")
        seat = game.to_act(state)
        while seat is not None:
            t0 = clock()
            game.view(state, seat)  # what a bot in this seat would be shown
            t1 = clock()
            legal = game.legal_actions(state)
            t2 = clock()
            action = legal[rng.randrange(len(legal))]
            t3 = clock()
            state, _events = game.apply(state, action)
            t4 = clock()
            view_ns.append(t1 - t0)
            legal_ns.append(t2 - t1)
            apply_ns.append(t4 - t3)
            loop_ns += t4 - t1
            seat = game.to_act(state)
        units += 1
        if clock() - start >= budget:
            break
    contract = units / (loop_ns / 1e9) if loop_ns else 0.0
    return legal_ns, apply_ns, view_ns, contract


def _median_us(samples: list[int]) -> float:
    """The median of nanosecond samples, in microseconds (0 when there are none)."""
    return statistics.median(samples) / 1000 if samples else 0.0


# -- bots ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BotBenchResult:
    """What a bot bench measured: decisions (and ISMCTS simulations) per second."""

    game: str
    players: int
    bot: str
    positions: int
    decisions: int
    simulations: int
    seconds: float
    workers: int

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``bench --bot … --json`` prints."""
        sims = self.simulations / self.seconds if self.seconds > 0 else 0.0
        return {
            "game": self.game,
            "players": self.players,
            "bot": self.bot,
            "positions": self.positions,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "decisions_per_s": round(self.decisions / self.seconds, 2) if self.seconds else 0.0,
            "simulations": self.simulations,
            "simulations_per_s": round(sims, 1),
            "simulations_per_s_per_core": round(sims / self.workers, 1),
        }


def mid_game_positions(
    game: AnyGame, players: int, count: int, options: Options | None = None
) -> list[Any]:
    """A fixed set of positions halfway through a unit: deal ``i`` (seed ``i``) played
    at random (generator seeded ``i``) to half its length, never a forced move."""
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = game.new_game(players, options, seed, "unit")
        line = [state]
        while game.to_act(state) is not None:
            legal = game.legal_actions(state)
            state, _ = game.apply(state, legal[rng.randrange(len(legal))])
            line.append(state)
        for s in line[len(line) // 2 :]:
            if game.to_act(s) is not None and len(game.legal_actions(s)) > 1:
                out.append(s)
                break
        seed += 1
    return out


def run_bot_bench(
    game: AnyGame,
    players: int,
    bot_name: str,
    seconds: float,
    options: Options | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> BotBenchResult:
    """Time the bot's decisions on the fixed mid-game positions for about ``seconds``.

    Every position is searched once, in order, until the time is used (at least one);
    for an ISMCTS bot the simulations run are counted too.
    """
    bot = make_bot(bot_name, game)
    positions = mid_game_positions(game, players, 64, options)
    analyse = getattr(bot, "analyse", None)
    workers = int(getattr(bot, "workers", 1))
    decisions = sims = 0
    elapsed = 0.0
    for i, state in enumerate(positions):
        seat = game.to_act(state)
        view = game.view(state, seat)
        legal = game.legal_actions(state)
        rng = random.Random(i)
        t0 = time.perf_counter()
        if analyse is not None:
            sims += analyse(view, legal, rng).simulations
        else:
            bot.choose(view, legal, rng)
        elapsed += time.perf_counter() - t0
        decisions += 1
        if on_progress is not None:
            on_progress(elapsed)
        if elapsed >= seconds:
            break
    return BotBenchResult(
        game.info.name, players, bot_name, decisions, decisions, sims, elapsed, workers
    )
