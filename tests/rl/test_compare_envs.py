"""``scripts/compare_envs.py``: the parts that run without the throwaway environment."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

PATH = Path(__file__).resolve().parents[2] / "scripts" / "compare_envs.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compare_envs", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("name", "players"), [("royal-casino", 2), ("royal-mastheads", 4)])
def test_contract_floor_counts_ids(name: str, players: int) -> None:
    assert load().contract_floor(name, players, 0.05) > 0


def test_the_gin_rummy_loop_is_valid_python_drawing_ids_like_our_bench() -> None:
    source = load().GIN_LOOP
    compile(source, "gin_loop", "exec")
    assert "legal[rng.randrange(legal.size)]" in source
    assert "time.process_time()" in source
