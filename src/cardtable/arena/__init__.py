"""The arena: bots against bots on duplicate deals with rotated seats, with statistics.

See :mod:`cardtable.arena.core` (planning and running jobs), :mod:`cardtable.arena.stats`
(win rates, Wilson intervals, ratings), :mod:`cardtable.arena.ray_runner` and
:mod:`cardtable.arena.chart`.
"""

from __future__ import annotations

from cardtable.arena.core import ArenaConfig, GameResult, Job, lineup, plan, run_job, run_local
from cardtable.arena.ray_runner import run_ray
from cardtable.arena.stats import EntrantSummary, Summary, summarise, wilson

__all__ = [
    "ArenaConfig",
    "EntrantSummary",
    "GameResult",
    "Job",
    "Summary",
    "lineup",
    "plan",
    "run_arena",
    "run_job",
    "run_local",
    "summarise",
    "wilson",
]


def run_arena(cfg: ArenaConfig, workers: int = 1, ray_address: str | None = None) -> Summary:
    """Plan, run (here, in a pool, or on Ray) and summarise one arena run."""
    jobs = plan(cfg)
    results = run_local(jobs, workers) if ray_address is None else run_ray(jobs, ray_address)
    return summarise(cfg, results)
