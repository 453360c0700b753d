"""``scripts/loadtest.py --json``: a few tables for a few seconds print the one JSON object
the load figures in docs/server.md are made of (the figures themselves are measured by
hand on an idle machine, not here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "loadtest.py"
KEYS = {
    "tables",
    "moves",
    "moves_per_s",
    "p50_ms",
    "p90_ms",
    "p99_ms",
    "max_ms",
    "server_cpu_ms_per_move",
    "client_cpu_s",
    "load_avg",
    "server_gc",
}


@pytest.mark.slow
def test_loadtest_json_prints_the_figures(tmp_path: Path) -> None:
    args = ["--tables", "3", "--seconds", "4", "--warmup", "1"]
    args += ["--think-min", "0.02", "--think-max", "0.05", "--json"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout
    figures = json.loads(lines[0])
    assert set(figures) == KEYS
    assert figures["tables"] == 3 and figures["moves"] > 0 and figures["moves_per_s"] > 0
    assert 0 <= figures["p50_ms"] <= figures["p90_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["server_cpu_ms_per_move"] > 0  # the script started the server: it measured it
    assert figures["client_cpu_s"] > 0 and len(figures["load_avg"]) == 3
    # the server it started runs the collector's schedule (server/collector.py) and says so
    assert figures["server_gc"]["young"] > 0 and figures["server_gc"]["frozen"] > 0
    assert "errors: none" in done.stderr and "client failures: 0" in done.stderr
