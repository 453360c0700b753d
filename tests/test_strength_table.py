"""The strength table's rows cover every level pair, and the script renders arena results."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import ModuleType

from cardtable.games import get_game
from tests.script_loader import load_script

LEVELS = ["random", "easy", "medium", "hard", "expert"]


def _script() -> ModuleType:
    return load_script("scripts/strength_table.py")


def test_rows_pit_each_level_against_each_lower_level_in_every_game() -> None:
    script = _script()
    rows = script.read_rows(script.ROWS)
    games = {"royal-casino", "rummy", "royal-mastheads"}
    pairs: dict[str, set[tuple[str, str]]] = {g: set() for g in games}
    for game, bots, deals, seed in rows:
        get_game(game)  # a registered game
        a, b = bots.split(",")
        assert LEVELS.index(a) > LEVELS.index(b), f"{game}: {a} is not above {b}"
        assert deals >= 1 and seed >= 0
        pairs[game].add((a, b))
    wanted = {(a, b) for i, a in enumerate(LEVELS) for b in LEVELS[:i]}
    for game in games:
        assert pairs[game] == wanted, f"{game} misses {sorted(wanted - pairs[game])}"


def test_render_reads_an_arena_result(tmp_path: Path) -> None:
    script = _script()
    out = tmp_path / "r.json"
    subprocess.run(
        [script.CARDTABLE, "arena", "royal-casino", "--bots", "medium,random",
         "--games", "3", "--seed", "4", "--out", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    result = json.loads(out.read_text(encoding="utf-8"))
    row = script.render(result, 3, 4)
    a = result["bots"][0]
    assert row.startswith("| royal-casino | medium vs random | 3 × 2 = 6 (fewer than 100 deals) |")
    assert f"**{100 * a['duplicate_win_rate']:.1f}%**" in row
    assert f"| {a['duplicate_margin']:+.1f} ± {a['duplicate_margin_se']:.1f} |" in row
    assert row.endswith("| 4 |")
    assert script.command("rummy", "hard,medium", 24, 2) == (
        "cardtable arena rummy --bots hard,medium --games 24 --seed 2"
    )


def test_a_pilot_chooses_rows_and_their_deals() -> None:
    script = _script()
    rows = script.read_rows(script.ROWS)
    pilot = script.select(rows, "", ["hard,medium", "expert,hard"], 20)
    assert {(g, b) for g, b, _, _ in pilot} == {
        (g, b) for g in ("royal-casino", "rummy", "royal-mastheads")
        for b in ("hard,medium", "expert,hard")
    }  # fmt: skip
    assert {d for _, _, d, _ in pilot} == {20}
    assert script.select(rows, "rummy", [], 0) == [r for r in rows if r[0] == "rummy"]
    targets = [r for r in rows if r[1] in ("hard,medium", "expert,hard")]
    assert all(d >= script.TARGET_DEALS for _, _, d, _ in targets)
