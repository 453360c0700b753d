"""The CLI against the toy game: every command, every error path, no real game needed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.core.record import Record, replay

from .conftest import Run
from .toy import GAME as TOY

pytestmark = pytest.mark.usefixtures("toy")


def start_position(**options: object) -> str:
    return TOY.format_position(TOY.new_game(2, options, seed=3))


def test_games_lists_the_registry(run: Run) -> None:
    result = run("games")
    assert result.exit_code == 0
    assert "take" in result.output and "toy" in result.output


def test_rules_shows_every_option(run: Run) -> None:
    result = run("rules", "toy")
    assert result.exit_code == 0
    assert "Take" in result.output and "how to play: this game has no guide" in result.output
    for spec in TOY.info.options.specs:
        assert spec.describe() in result.output


@pytest.mark.parametrize(
    "args",
    [
        ("rules", "tkae"),
        ("legal", "tkae", "x"),
        ("play", "tkae"),
        ("selfplay", "tkae", "--games", "1"),
        ("bench", "tkae"),
    ],
)
def test_unknown_game_suggests_a_name(run: Run, args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "did you mean 'take'?" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("round=2", "did you mean 'rounds'?"),
        ("rounds=many", "takes a whole number"),
        ("rounds", "name=value"),
        ("rounds=0", "at least 1"),
    ],
)
def test_bad_option_is_one_line(run: Run, option: str, message: str) -> None:
    for command in (("play", "take"), ("selfplay", "take", "-g", "1"), ("bench", "take")):
        result = run(*command, "--option", option)
        assert result.exit_code == 2, result.output
        assert message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_bad_players_and_bots(run: Run) -> None:
    result = run("selfplay", "take", "-g", "1", "--players", "7")
    assert result.exit_code == 2 and "2 to 3 players" in result.stderr
    result = run("selfplay", "take", "-g", "1", "--bots", "randon")
    assert result.exit_code == 2 and "did you mean 'random'?" in result.stderr
    result = run("play", "take", "--seat", "P5")
    assert result.exit_code == 2
    assert "--seat: seats are P1..P2 (counted from 1); got 'P5'" in result.stderr
    result = run("play", "take", "--seat", "1")  # the old 0-based form is refused
    assert result.exit_code == 2 and "seats are P1..P2" in result.stderr


def test_legal_from_literal_file_and_stdin(run: Run, tmp_path: Path) -> None:
    pos = start_position()
    expected = ["take 1", "take 2", "take 3"]
    assert run("legal", "take", pos).stdout.splitlines() == expected
    path = tmp_path / "pos.txt"
    path.write_text(pos + "\n")
    assert run("legal", "take", str(path)).stdout.splitlines() == expected
    assert run("legal", "take", "-", input=pos).stdout.splitlines() == expected


def test_apply_round_trips_with_the_game(run: Run) -> None:
    state = TOY.new_game(2, None, seed=3)
    result = run("apply", "take", TOY.format_position(state), "take 3", "take 2")
    assert result.exit_code == 0, result.output
    expected, _ = TOY.apply(TOY.apply(state, 3)[0], 2)
    assert result.stdout.strip() == TOY.format_position(expected)
    again = run("legal", "take", result.stdout.strip())
    assert again.stdout.splitlines() == ["take 1", "take 2"]


def test_apply_illegal_action_exits_2_with_the_reason(run: Run) -> None:
    pos = start_position(pile=2)
    result = run("apply", "take", pos, "take 3")
    assert result.exit_code == 2
    assert "T1: you may take 1 to 2 counters; not 3" in result.stderr
    assert result.stdout == ""
    result = run("apply", "take", pos, "grab 1")
    assert result.exit_code == 2 and "write a move as 'take N'" in result.stderr


@pytest.mark.parametrize("text", ["nonsense", "take 2 7 0 0,0 1 0 1,2 3 rounds=x,pile=7", ""])
def test_bad_position_is_one_line(run: Run, text: str) -> None:
    result = run("legal", "take", text)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_missing_file_and_directory(run: Run, tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "missing.json"))
    assert result.exit_code == 2 and "missing.json" in result.stderr
    result = run("replay", str(tmp_path))
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_replay_accepts_a_record_and_rejects_a_broken_one(run: Run, tmp_path: Path) -> None:
    record = Record("take", 2, 3, {"rounds": 1}, "match", ("bot:random", "bot:random"))
    for action in ("take 3", "take 3", "take 1"):
        record = record.with_action(action)
    outcome = TOY.outcome(replay(record, TOY).final)
    assert outcome is not None
    record = record.with_result(outcome.to_json())
    path = tmp_path / "r.json"
    path.write_text(record.dumps())
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    assert "3 actions replayed, record OK" in result.stdout
    assert "WINNER" in result.stdout
    broken = record.with_action("take 2")
    path.write_text(broken.dumps())
    result = run("replay", str(path))
    assert result.exit_code == 2 and "action 4 ('take 2') does not replay" in result.stderr
    path.write_text(json.dumps({**record.to_json(), "result": {"scores": [9, 9]}}))
    assert "differs" in run("replay", str(path)).stderr
    path.write_text("{not json")
    result = run("replay", str(path))
    assert result.exit_code == 2 and "not valid JSON" in result.stderr


def selfplay_json(run: Run, *extra: str) -> dict[str, object]:
    result = run("selfplay", "take", "--games", "12", "--seed", "5", "--json", *extra)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_selfplay_json_is_the_same_for_any_workers(run: Run) -> None:
    one = selfplay_json(run, "--workers", "1")
    two = selfplay_json(run, "--workers", "2")
    assert one == two
    assert one["games"] == 12
    assert one["invariant_failures"] == 0
    results = one["results"]
    assert isinstance(results, list) and len(results) == 2
    assert sum(side["wins"] for side in results) >= 12
    assert all(side["bots"] == ["random"] for side in results)
    # The toy's scoring event reports the item "last" per side.
    assert sum(side["mean_item_points"]["last"] for side in results) == pytest.approx(2.0)


def test_selfplay_table_and_records(run: Run, tmp_path: Path) -> None:
    args = ("selfplay", "take", "-g", "3", "--seed", "9", "--unit", "--records", str(tmp_path))
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "invariant failures: 0" in result.stdout
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["take-10.json", "take-11.json", "take-9.json"]
    assert run("replay", str(files[0])).exit_code == 0


def test_bench_json_keys(run: Run) -> None:
    result = run("bench", "take", "--seconds", "0.05", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == [
        "game",
        "players",
        "units",
        "units_per_s",
        "actions_per_s",
        "legal_actions_us",
        "apply_us",
        "view_us",
    ]
    assert data["game"] == "take" and data["players"] == 2 and data["units"] == "rounds"
    for key in ("units_per_s", "actions_per_s", "legal_actions_us", "apply_us", "view_us"):
        assert data[key] > 0


def test_bench_text(run: Run) -> None:
    result = run("bench", "take", "-t", "0.05", "--players", "3")
    assert result.exit_code == 0, result.output
    assert "rounds/s" in result.stdout and "median µs per call" in result.stdout


def test_play_through_a_match_with_a_bad_input(run: Run, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    lines = ["take 9", "", "1"] + ["1"] * 20
    result = run(
        "play",
        "take",
        "--seed",
        "4",
        "--bots",
        "random",
        "--record",
        str(record),
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "seed 4" in out
    assert "not played: T1: you may take 1 to 3 counters; not 9" in out
    assert "Game over." in out
    assert "you are P1;" in out
    assert "P2 took" in out  # the bot's moves are shown as events
    assert "  P1 (human:you): " in out and "  P2 (bot:random): " in out  # the outcome
    data = json.loads(record.read_text())
    assert data["result"] is not None and data["seats"] == ["human:you", "bot:random"]
    assert run("replay", str(record)).exit_code == 0


def test_play_quit_saves_a_record_that_replays(run: Run, tmp_path: Path) -> None:
    record = tmp_path / "q.json"
    result = run(
        "play",
        "take",
        "--seed",
        "2",
        "--seat",
        "P2",
        "--record",
        str(record),
        input="?\nh\n7\n2\nq\n",
    )
    assert result.exit_code == 0, result.output
    # the toy deals states from a view in its own module, so it gets hints like any game
    assert "hints (from your view only" in result.stdout
    assert "no move 7: choose 1 to" in result.stdout
    assert f"record saved to {record}" in result.stdout
    data = json.loads(record.read_text())
    assert "take 2" in data["actions"]
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert "the game is not over: P" in replayed.stdout


def test_play_end_of_input_saves_and_exits(run: Run, tmp_path: Path) -> None:
    record = tmp_path / "eof.json"
    result = run("play", "take", "--seed", "2", "--record", str(record), input="")
    assert result.exit_code == 0
    assert "(end of input)" in result.stdout
    assert record.exists()
    assert "secret" in result.stdout  # the game's render_view of the human's view


def test_play_events_are_redacted_for_the_human(run: Run, tmp_path: Path) -> None:
    # P2 may not see P1's secret in the toy's round-scored event.
    result = run(
        "play",
        "take",
        "--seat",
        "p2",
        "--seed",
        "1",
        "--unit",
        "--record",
        str(tmp_path / "r.json"),
        input="1\n" * 10,
    )
    assert result.exit_code == 0, result.output
    assert "round scored, secret None" in result.stdout
