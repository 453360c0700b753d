"""The CLI against the real games of the registry (Royal Casino first).

Parametrised over every registered game where it is cheap; the piped play-through runs
Royal Casino, the game whose terminal play the issue asks for.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.core.record import Record
from cardtable.games import REGISTRY, get_game

from .conftest import Run

GAMES = REGISTRY.names()


@pytest.mark.parametrize("name", GAMES)
def test_rules_lists_every_option(run: Run, name: str) -> None:
    game = get_game(name)
    result = run("rules", name)
    assert result.exit_code == 0, result.output
    assert game.info.title in result.stdout
    assert f"how to play: `cardtable rules {game.info.name} --full [--lang en|cs|ru]`" in (
        result.stdout
    )
    for spec in game.info.options.specs:
        assert spec.describe() in result.stdout


def test_games_lists_every_game(run: Run) -> None:
    result = run("games")
    assert result.exit_code == 0
    for name in GAMES:
        assert name in result.stdout


def test_unknown_game_suggests_royal_casino(run: Run) -> None:
    result = run("legal", "casinoo", "-")
    assert result.exit_code == 2
    assert result.stderr == "error: unknown game 'casinoo'; did you mean 'casino'?\n"


def test_bad_option_suggests_the_name(run: Run) -> None:
    result = run("selfplay", "casino", "-g", "1", "--option", "sweep=off")
    assert result.exit_code == 2
    assert result.stderr == "error: unknown option 'sweep'; did you mean 'sweeps'?\n"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3])
def test_legal_apply_round_trip(run: Run, name: str, players: int) -> None:
    game = get_game(name)
    if not game.info.min_players <= players <= game.info.max_players:
        players = game.info.default_players
    state = game.new_game(players, None, seed=11)
    position = game.format_position(state)
    legal = run("legal", name, position)
    assert legal.exit_code == 0, legal.output
    expected = sorted(game.format_action(a) for a in game.legal_actions(state))
    assert legal.stdout.splitlines() == expected
    # Apply three actions (the first listed each time) and compare with the contract.
    texts = []
    for _ in range(3):
        action = min(game.legal_actions(state), key=game.format_action)
        texts.append(game.format_action(action))
        state, _ = game.apply(state, action)
    applied = run("apply", name, position, *texts)
    assert applied.exit_code == 0, applied.output
    assert applied.stdout.strip() == game.format_position(state).strip()
    assert (
        game.format_position(game.parse_position(applied.stdout)).strip() == applied.stdout.strip()
    )


def test_apply_illegal_royal_casino_action(run: Run, tmp_path: Path) -> None:
    game = get_game("royal-casino")
    state = game.new_game(2, None, seed=11)
    path = tmp_path / "position.txt"
    path.write_text(game.format_position(state))
    legal = {game.format_action(a) for a in game.legal_actions(state)}
    hand_card = next(t.split()[-1] for t in sorted(legal) if t.startswith("trail"))
    result = run("apply", "casino", str(path), f"capture {hand_card}: 2S 3S 4S")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: action 1 (")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("name", GAMES)
def test_selfplay_json_same_for_one_and_two_workers(run: Run, name: str) -> None:
    args = ("selfplay", name, "--games", "6", "--seed", "3", "--unit", "--json")
    one = run(*args, "--workers", "1")
    two = run(*args, "--workers", "2")
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    data = json.loads(one.stdout)
    assert data == json.loads(two.stdout)
    assert data["games"] == 6
    assert data["invariant_failures"] == 0
    for side in data["results"]:
        assert {"seats", "bots", "wins", "mean_points"} <= set(side)


@pytest.mark.parametrize("name", GAMES)
def test_bench_json_keys(run: Run, name: str) -> None:
    result = run("bench", name, "--seconds", "0.1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {
        "game",
        "players",
        "units",
        "units_per_s",
        "actions_per_s",
        "legal_actions_us",
        "apply_us",
        "view_us",
    }
    assert data["game"] == name
    assert data["units"] == get_game(name).info.unit + "s"
    for key in ("units_per_s", "actions_per_s", "legal_actions_us", "apply_us", "view_us"):
        assert data[key] > 0


def test_play_a_royal_casino_hand_to_the_end(run: Run, tmp_path: Path) -> None:
    record = tmp_path / "hand.json"
    lines = ["capture 2C: 9H", "1"] + ["1"] * 60
    result = run(
        "play",
        "royal-casino",
        "--unit",
        "--seed",
        "7",
        "--bots",
        "random",
        "--record",
        str(record),
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "seed 7" in out and "Your hand" in out
    first_reason = next(line for line in out.splitlines() if line.startswith("not played: "))
    assert len(first_reason) > len("not played: ")
    assert "Game over." in out
    assert "WINNER" in out
    data = json.loads(record.read_text())
    assert data["scope"] == "unit" and data["result"] is not None
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert "record OK" in replayed.stdout and "WINNER" in replayed.stdout


def test_play_quit_writes_a_record_that_replays(run: Run, tmp_path: Path) -> None:
    record = tmp_path / "quit.json"
    result = run("play", "casino", "--seed", "5", "--record", str(record), input="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    saved = Record.loads(record.read_text())
    assert saved.game == "royal-casino" and len(saved.actions) >= 2
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert "the game is not over" in replayed.stdout


def test_console_script_with_piped_stdin_and_no_traceback(tmp_path: Path) -> None:
    """The installed entry point, in a real process, reading a closed stdin."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    cmd = [sys.executable, "-m", "cardtable.cli.main"]
    played = subprocess.run(
        [*cmd, "play", "casino", "--seed", "1", "--unit"],
        input="zzz\n1\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert played.returncode == 0, played.stderr
    assert "not played: " in played.stdout
    assert (tmp_path / "cardtable-royal-casino-1.json").exists()
    bad = subprocess.run(
        [*cmd, "replay", "nope.json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: nope.json: ")
    assert "Traceback" not in bad.stderr
    usage = subprocess.run(
        [*cmd, "bench", "casino", "--seconds", "soon"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert usage.returncode == 2
    assert usage.stderr.startswith("error: Invalid value for '--seconds'")
    assert len(usage.stderr.splitlines()) == 1


V1_RECORDS = Path(__file__).parent.parent / "core" / "records" / "v1"


@pytest.mark.parametrize(
    ("fixture", "seats_text"),
    [
        ("royal-casino-2p-start-builds.json", "dealer=P"),
        ("royal-mastheads-start-tricks.json", "dealer P"),
    ],
)
def test_replay_reads_a_version_1_record_and_prints_seats_from_P1(
    run: Run, fixture: str, seats_text: str
) -> None:
    result = run("replay", str(V1_RECORDS / fixture))
    assert result.exit_code == 0, result.output
    final, checked = result.stdout.splitlines()[:2]
    assert seats_text in final and "P0" not in final
    assert checked.endswith("record OK (format version 1, read as today's)")
    assert "  P1 (bot:random): " in result.stdout and "WINNER" in result.stdout
