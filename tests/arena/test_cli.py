"""``cardtable arena`` and ``cardtable bench --bot`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardtable.cli.main import cli


def test_arena_json_and_files(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    chart = tmp_path / "c.svg"
    args = ["arena", "casino", "--bots", "medium,random", "--games", "2", "--seed", "3"]
    res = CliRunner().invoke(cli, [*args, "--json", "--out", str(out), "--chart", str(chart)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data == json.loads(out.read_text())
    assert chart.read_text().lstrip().startswith("<?xml")
    assert [b["bot"] for b in data["bots"]] == ["medium", "random"]
    again = CliRunner().invoke(cli, [*args, "--json", "--workers", "2"])
    assert json.loads(again.output) == data


def test_the_arena_table_shows_the_margin_a_deal_uncut() -> None:
    """An 80-column terminal (CliRunner's) wraps the intervals, never cuts a figure short."""
    args = ["arena", "casino", "--bots", "medium,random", "--games", "2", "--seed", "3"]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    medium, rnd = data["bots"]
    assert "margin/deal" in res.output and "…" not in res.output
    assert f"{medium['duplicate_margin']:+.1f} ± {medium['duplicate_margin_se']:.1f}" in res.output
    assert medium["duplicate_margin"] == -rnd["duplicate_margin"]


def test_arena_sweep_with_a_real_bot(tmp_path: Path) -> None:
    chart = tmp_path / "sweep.png"
    res = CliRunner().invoke(
        cli,
        [
            "arena",
            "casino",
            "--bots",
            "hard,random",
            "--games",
            "1",
            "--budgets",
            "5,10",
            "--json",
            "--chart",
            str(chart),
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [s["budget"] for s in data["sweep"]] == [5, 10]
    assert data["sweep"][0]["bots"][0]["bot"] == "ismcts:5"
    assert chart.stat().st_size > 1000


def test_bench_bot_json() -> None:
    res = CliRunner().invoke(
        cli, ["bench", "mastheads", "--bot", "ismcts:50", "--seconds", "0.2", "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["simulations_per_s"] > 0
    assert data["simulations"] % 50 == 0


def test_play_hint() -> None:
    res = CliRunner().invoke(
        cli, ["play", "casino", "--seed", "3", "--record", "/dev/null"], input="h\nq\n"
    )
    assert res.exit_code == 0, res.output
    assert "hints (from your view only" in res.output
    assert "win " in res.output
