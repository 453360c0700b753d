"""Running arena jobs on Ray (``--ray ADDRESS`` or ``--ray local``).

Each job is a Ray task calling the same :func:`~cardtable.arena.core.run_job` as a local
run; results are put back in job order, so a Ray run equals the local run for the same
seed.  Ray is an optional dependency (the ``ray`` extra; ``.[test]`` includes it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardtable.arena.core import GameResult, Job, run_job

__all__ = ["run_ray"]


def run_ray(
    jobs: Sequence[Job],
    address: str = "local",
    on_result: Callable[[GameResult], None] | None = None,
    num_cpus: int | None = None,
    shutdown: bool = True,
) -> list[GameResult]:
    """Run jobs as Ray tasks on the cluster at ``address`` (``local``: start one here)."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise RuntimeError("--ray needs Ray: pip install 'cardtable[ray]'") from e
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address == "local":
            if num_cpus is not None:
                kwargs["num_cpus"] = num_cpus
            ray.init(**kwargs)
        else:
            ray.init(address=address, **kwargs)
        started = True
    try:
        remote = ray.remote(run_job)
        pending = {remote.remote(job): job.index for job in jobs}
        results: list[GameResult] = []
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                r = ray.get(ref)
                results.append(r)
                if on_result is not None:
                    on_result(r)
        results.sort(key=lambda r: r.index)
        return results
    finally:
        if started and shutdown:
            ray.shutdown()
