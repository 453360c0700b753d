"""``cardtable arena --journal``: a stopped run resumes and gives the uninterrupted results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardtable.arena import core
from cardtable.arena.core import ArenaConfig, GameResult, Job, plan
from cardtable.arena.journal import Journal, code_fingerprint
from cardtable.cli.main import cli

ARGS = ["arena", "casino", "--bots", "medium,random", "--games", "3", "--seed", "5", "--json"]


def _run(*extra: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, [*ARGS, *extra])
    return res.exit_code, res.output


def _count_games(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    played: list[int] = []
    real = core.run_job

    def counting(job: Job) -> GameResult:
        played.append(job.index)
        return real(job)

    monkeypatch.setattr(core, "run_job", counting)
    return played


def test_a_resumed_run_plays_only_what_is_missing_and_gives_the_same_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, whole = _run()
    assert code == 0, whole
    path = tmp_path / "run.jsonl"
    code, first = _run("--journal", str(path))
    assert code == 0 and json.loads(first) == json.loads(whole)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6  # the header, then 3 deals x 2 seatings
    # Stop the run after its third game, in the middle of writing the fourth line.
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][:25])
    played = _count_games(monkeypatch)
    code, resumed = _run("--journal", str(path))
    assert code == 0, resumed
    assert json.loads(resumed) == json.loads(whole)
    assert sorted(played) == [3, 4, 5]
    played.clear()
    code, again = _run("--journal", str(path))
    assert code == 0 and json.loads(again) == json.loads(whole) and played == []


def test_a_journal_of_another_run_or_other_code_is_refused_and_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "run.jsonl"
    assert _run("--journal", str(path))[0] == 0
    before = path.read_bytes()
    res = CliRunner().invoke(
        cli,
        [*ARGS[:-3], "--seed", "6", "--journal", str(path)],
    )
    assert res.exit_code != 0 and "another run" in res.output
    header = json.loads(before.decode().splitlines()[0])
    assert header["code"] == code_fingerprint()
    monkeypatch.setattr("cardtable.arena.journal._FINGERPRINT", "0.0+other")
    code, out = _run("--journal", str(path))
    assert code != 0 and "other code" in out
    assert path.read_bytes() == before
    monkeypatch.undo()
    (tmp_path / "notes.txt").write_text("hello\n")
    code, out = _run("--journal", str(tmp_path / "notes.txt"))
    assert code != 0 and "not an arena journal" in out


def test_a_journal_cannot_hold_a_sweep(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        cli,
        [
            *ARGS[:2],
            "--bots",
            "hard,random",
            "--games",
            "1",
            "--budgets",
            "5,10",
            "--journal",
            str(tmp_path / "j.jsonl"),
        ],
    )
    assert res.exit_code != 0 and "--budgets" in res.output


def test_a_journal_refuses_a_job_its_run_does_not_plan(tmp_path: Path) -> None:
    cfg = ArenaConfig("royal-casino", ("medium", "random"), deals=1, seed=1)
    path = tmp_path / "j.jsonl"
    journal = Journal.open(path, cfg, plan(cfg))
    job = plan(cfg)[0]
    journal.record(job, core.run_job(job))
    journal.close()
    other = ArenaConfig("royal-casino", ("medium", "random"), deals=1, seed=1)
    forged = [Job(0, 0, 0, job.game, 2, job.seed + 1, job.seats, (0, 1), job.scope, ())]
    with pytest.raises(Exception, match="does not plan"):
        Journal.open(path, other, forged)
