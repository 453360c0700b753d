"""``scripts/click_latency.py``: its help, and a short run on one game (its output's shape;
no bound on the times, which depend on the machine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import CHROMIUM, _need_chromium

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "click_latency.py"


def test_the_help_says_what_is_measured() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--clicks" in out and "--games" in out and "--json" in out


def test_a_short_run_reports_each_kind_of_click() -> None:
    _need_chromium()
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--clicks", "3", "--games", "rummy", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "CARDTABLE_CHROMIUM": CHROMIUM},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    assert out["clicks"] == 3
    assert len(out["load_avg"]) == 3 and len(out["load_avg_before"]) == 3
    assert [(r["game"], r["kind"]) for r in out["results"]] == [
        ("rummy", "select"),
        ("rummy", "move"),
    ]
    for row in out["results"]:
        assert row["clicks"] == 3
        assert 0 < row["median_ms"] <= row["p95_ms"]
