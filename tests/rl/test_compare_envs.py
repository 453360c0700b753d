"""``scripts/compare_envs.py``: the parts that run without the throwaway environment."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.script_loader import load_script


def load() -> ModuleType:
    return load_script("scripts/compare_envs.py")


@pytest.mark.parametrize(("name", "players"), [("royal-casino", 2), ("royal-mastheads", 4)])
def test_contract_floor_counts_ids(name: str, players: int) -> None:
    assert load().contract_floor(name, players, 0.05) > 0


def test_the_gin_rummy_loop_is_valid_python_drawing_ids_like_our_bench() -> None:
    source = load().GIN_LOOP
    compile(source, "gin_loop", "exec")
    assert "legal[rng.randrange(legal.size)]" in source
    assert "time.process_time()" in source
