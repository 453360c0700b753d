"""Every option is validated: bad input ends with one line on stderr and exit status 2,
before anything is announced or played, and never with a traceback (issue 11)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.cli.commands.serve import check_address

from .conftest import Run


def _one_error_line(stderr: str) -> str:
    """The error line; under CliRunner click's usage errors come with a usage header
    (``cardtable`` itself prints them as one line, see the subprocess test below)."""
    lines = [line for line in stderr.splitlines() if line]
    if lines and lines[0].startswith("Usage:"):
        lines = lines[2:]
    assert len(lines) == 1, stderr
    assert lines[0].startswith(("error: ", "Error: ")), stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_serve_on_a_busy_port_says_so_before_announcing(run: Run) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run("serve", "--host", "127.0.0.1", "--port", str(port))
    assert result.exit_code == 2
    assert "serving" not in result.stdout
    assert f"port {port}" in _one_error_line(result.stderr)


def test_serve_address_check_accepts_a_free_port_and_port_0() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    check_address("127.0.0.1", free)
    check_address("127.0.0.1", 0)


def test_serve_unknown_host_is_one_line(run: Run) -> None:
    result = run("serve", "--host", "no-such-host.invalid", "--port", "0")
    assert result.exit_code == 2
    assert "--host no-such-host.invalid" in _one_error_line(result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ("serve", "--log-level", "shouty"),
        ("serve", "--bot-delay", "nan"),
        ("serve", "--port", "70000"),
        ("bench", "casino", "--seconds", "nan"),
        ("bench", "casino", "--seconds", "inf"),
        ("arena", "casino", "--bots", "random,random", "-g", "1", "--budgets", "x"),
        ("arena", "casino", "--bots", "random,random", "-g", "1", "--budgets", "0"),
        ("arena", "casino", "--bots", "random,random", "-g", "1", "--budgets", ","),
        ("arena", "casino", "--bots", "random,random", "-g", "1", "--chart", "out.txt"),
        ("play", "casino", "--players", "9"),
        ("play", "casino", "--seat", "P7"),
        ("play", "casino", "--bots", ",,"),
        ("play", "casino", "--bots", ""),
        ("play", "casino", "--option", "sweeps"),
        ("selfplay", "casino", "-g", "0"),
    ],
)
def test_bad_options_are_one_line_with_status_2(run: Run, args: tuple[str, ...]) -> None:
    result = run(*args, input="")
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    _one_error_line(result.stderr)
    assert result.stdout == ""


def test_serve_log_level_is_a_choice(run: Run) -> None:
    result = run("serve", "--log-level", "shouty")
    assert "'shouty' is not one of" in result.stderr


def test_record_into_a_missing_folder_is_refused_before_the_game(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "game.json"
    result = run("play", "casino", "--seed", "1", "--record", str(target), input="1\n1\n")
    assert result.exit_code == 2
    assert result.stdout == ""  # nothing announced, nothing played
    assert "the folder" in _one_error_line(result.stderr) and "does not exist" in result.stderr
    assert not target.exists()


def test_record_naming_a_folder_is_refused(run: Run, tmp_path: Path) -> None:
    result = run("play", "casino", "--seed", "1", "--record", str(tmp_path), input="q\n")
    assert result.exit_code == 2
    assert result.stdout == ""
    _one_error_line(result.stderr)


def test_replay_of_deeply_nested_json_is_one_line(run: Run, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    result = run("replay", str(deep))
    assert result.exit_code == 2
    assert "nested too deeply" in _one_error_line(result.stderr)
    piped = run("replay", "-", input='{"game": ' + "[" * 100_000)
    assert piped.exit_code == 2
    _one_error_line(piped.stderr)


def test_the_command_prints_a_usage_error_as_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardtable.cli.main", "serve", "--log-level", "shouty"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: Invalid value")


def test_replay_of_a_number_json_refuses_is_one_line(run: Run, tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    huge.write_text('{"version": 2, "game": "casino", "seed": ' + "1" * 5000 + "}", "utf-8")
    result = run("replay", str(huge))
    assert result.exit_code == 2
    assert "not valid JSON" in _one_error_line(result.stderr)


def test_a_position_with_a_bad_player_count_is_one_line(run: Run) -> None:
    result = run("legal", "rummy", "rummy\nplayers: 2options: -")
    assert result.exit_code == 2
    assert "players" in _one_error_line(result.stderr)


@pytest.mark.parametrize(
    ("variable", "value", "named"),
    [
        ("CARDTABLE_GC_INTERVAL", "0", "CARDTABLE_GC_INTERVAL"),
        ("CARDTABLE_GC_RECLAIM", "0.01", "CARDTABLE_GC_RECLAIM"),
        ("CARDTABLE_GC_INTERVAL", "soon", "CARDTABLE_GC_INTERVAL='soon'"),
        ("CARDTABLE_BOT_DELAY", "slow", "CARDTABLE_BOT_DELAY='slow'"),
    ],
)
def test_serve_bad_environment_is_one_line(
    run: Run,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    variable: str,
    value: str,
    named: str,
) -> None:
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path))
    monkeypatch.setenv(variable, value)
    result = run("serve", "--host", "127.0.0.1", "--port", "0")
    assert result.exit_code == 2
    assert "serving" not in result.stdout
    assert named in _one_error_line(result.stderr)
