"""``cardtable serve`` tunes the garbage collector for a long-lived server (docs/server.md,
Load): what exists at start is frozen, young collections are rarer."""

from __future__ import annotations

import gc

from cardtable.cli.serve import GC_THRESHOLD, tune_gc


def test_serving_freezes_the_start_and_raises_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        garbage = [object() for _ in range(100)]
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLD
        assert GC_THRESHOLD[0] > 700  # rarer than Python's default
        assert gc.get_freeze_count() >= len(garbage)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
