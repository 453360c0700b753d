"""The golden playthroughs under ``tests/games/<game>/playthroughs/`` are what the engine plays.

Each file is a seeded game written out step by step (position, legal actions, action,
events, outcome) by ``scripts/playthroughs.py``; the games are played again here and compared,
so any change of behaviour shows as a diff.  After an intended change, regenerate the files
with ``python scripts/playthroughs.py`` and review the diff in the commit.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY
from tests.script_loader import load_script

ROOT = Path(__file__).resolve().parent.parent
MAX_DIFF_LINES = 120


def _script() -> ModuleType:
    return load_script("scripts/playthroughs.py")


SCRIPT = _script()
CASES = [
    pytest.param(game, spec, id=f"{game.info.name}-{spec.name}")
    for game in REGISTRY.games()
    for spec in SCRIPT.specs(game)
]


@pytest.mark.parametrize(("game", "spec"), CASES)
def test_the_engine_plays_the_golden_playthrough(game: AnyGame, spec: Any) -> None:
    path = SCRIPT.folder(game) / f"{spec.name}.txt"
    text = SCRIPT.render(game, spec)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        lines = SCRIPT.diff(path, text).splitlines()
        shown = "\n".join(lines[:MAX_DIFF_LINES])
        hidden = len(lines) - MAX_DIFF_LINES
        more = f"\n… {hidden} more diff lines" if hidden > 0 else ""
        pytest.fail(
            f"{path.relative_to(ROOT)} differs from what the engine plays now:\n{shown}{more}\n"
            f"If the change is intended, regenerate with: {SCRIPT.REGENERATE}",
            pytrace=False,
        )


@pytest.mark.parametrize("game", REGISTRY.games(), ids=REGISTRY.names())
def test_every_game_has_playthroughs_and_no_stale_ones(game: AnyGame) -> None:
    expected = {f"{spec.name}.txt" for spec in SCRIPT.specs(game)}
    assert expected
    assert {p.name for p in SCRIPT.folder_files(SCRIPT.folder(game))} == expected


def test_a_changed_game_shows_as_a_readable_diff(tmp_path: Path) -> None:
    game = REGISTRY.games()[0]
    spec = SCRIPT.specs(game)[0]
    text = SCRIPT.render(game, spec)
    golden = tmp_path / "golden.txt"
    golden.write_text(text.replace("action: ", "action: X", 1), encoding="utf-8")
    changes = SCRIPT.diff(golden, text)
    assert "-  action: X" in changes and "+  action: " in changes
    assert SCRIPT.diff(golden, text.replace("action: ", "action: X", 1)) == ""
