"""Every command has --help, and the group lists them all."""

from __future__ import annotations

import pytest

from cardtable.cli.main import cli

from .conftest import Run

COMMANDS = sorted(cli.commands)


def test_every_documented_command_exists() -> None:
    assert set(COMMANDS) >= {
        "play",
        "selfplay",
        "legal",
        "apply",
        "replay",
        "rules",
        "games",
        "bench",
    }


def test_group_help_lists_the_commands(run: Run) -> None:
    result = run("--help")
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_help_on_every_command(run: Run, command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0, result.output
    assert "Usage: " in result.output
    assert command in result.output


def test_unknown_command_is_a_usage_error(run: Run) -> None:
    result = run("plya")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
