"""The garbage collector's schedule under ``cardtable serve`` (server/collector.py): young
collections on a timer, survivors frozen, reference cycles reclaimed now and then."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.collector import SAFETY_THRESHOLD, Collector, CollectorPolicy
from cardtable.server.config import Settings


class Node:
    """An object in a reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def collector() -> Iterator[Collector]:
    """An installed collector; afterwards the thresholds are back and nothing is frozen."""
    before = gc.get_threshold()
    c = Collector(CollectorPolicy(interval=0.05, reclaim_every=300.0))
    c.install(now=0.0)
    try:
        yield c
    finally:
        c.uninstall()
        gc.unfreeze()
        assert gc.get_threshold() == before


def _tracked(obj: object) -> bool:
    """True if a collection would look at ``obj`` (it is in a generation, not frozen)."""
    return any(o is obj for o in gc.get_objects())


def test_install_freezes_what_exists_and_keeps_a_safety_net(collector: Collector) -> None:
    assert gc.get_threshold() == SAFETY_THRESHOLD
    assert gc.get_freeze_count() > 0
    assert collector.stats.young == 0


def test_a_young_collection_freezes_its_survivors(collector: Collector) -> None:
    survivor = [object()]
    assert _tracked(survivor)
    collector.tick(now=1.0)
    assert collector.stats.young == 1
    assert not _tracked(survivor)  # no later collection looks at it again
    assert collector.stats.to_json()["frozen"] == gc.get_freeze_count()


def test_a_cycle_that_dies_frozen_is_freed_by_the_reclaim(collector: Collector) -> None:
    node = Node()
    alive = weakref.ref(node)
    collector.tick(now=1.0)  # frozen while alive
    del node
    gc.collect()
    assert alive() is not None  # frozen: no ordinary collection frees the cycle
    collector.tick(now=299.0)
    assert alive() is not None and collector.stats.reclaims == 0
    collector.tick(now=300.0)  # the reclaim: unfreeze, collect
    assert alive() is None
    assert collector.stats.reclaims == 1
    assert collector.stats.longest_full_ms > 0


def test_garbage_cycles_made_between_ticks_are_freed_by_the_next_young_collection(
    collector: Collector,
) -> None:
    node = Node()
    alive = weakref.ref(node)
    del node
    collector.tick(now=1.0)
    assert alive() is None


def test_the_policy_is_checked() -> None:
    with pytest.raises(ValueError, match="interval"):
        CollectorPolicy(interval=0.0)
    with pytest.raises(ValueError, match="reclaim_every"):
        CollectorPolicy(interval=10.0, reclaim_every=1.0)


def test_the_served_app_runs_the_schedule_and_reports_it(tmp_path: Path) -> None:
    before = gc.get_threshold()
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    collector = Collector(CollectorPolicy(interval=0.01, reclaim_every=300.0))
    try:
        with TestClient(create_app(settings, collector)) as client:
            deadline = time.monotonic() + 10
            while collector.stats.young < 3 and time.monotonic() < deadline:
                time.sleep(0.02)
            health = client.get("/healthz").json()
            assert gc.get_threshold() == SAFETY_THRESHOLD
        assert health["gc"]["young"] >= 3
        assert set(health["gc"]) >= {"young", "reclaims", "longest_ms", "frozen"}
        assert gc.get_threshold() == before  # given back when serving stops
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_an_app_without_a_collector_leaves_python_s_schedule(tmp_path: Path) -> None:
    before = gc.get_threshold()
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with TestClient(create_app(settings)) as client:
        assert "gc" not in client.get("/healthz").json()
        assert gc.get_threshold() == before
