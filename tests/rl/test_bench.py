"""``cardtable bench GAME --env``: environment steps/s."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cardtable.cli.main import cli
from cardtable.rl.bench import run_env_bench


@pytest.mark.parametrize("name", ["casino", "rummy", "mastheads"])
def test_bench_env_json_counts_steps_of_both_environments(name: str) -> None:
    result = CliRunner().invoke(cli, ["bench", name, "--env", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["aec_steps"] > 0 and data["gym_steps"] > 0
    assert data["aec_episodes"] >= 1 and data["gym_episodes"] >= 1
    assert data["aec_steps_per_s"] > 0 and data["gym_steps_per_s"] > 0


def test_bench_env_text_names_both_environments() -> None:
    result = CliRunner().invoke(cli, ["bench", "casino", "--env", "--seconds", "0.2"])
    assert result.exit_code == 0, result.output
    assert "PettingZoo AEC steps/s" in result.output
    assert "Gymnasium steps/s" in result.output


def test_each_episode_is_played_to_its_end() -> None:
    result = run_env_bench("mastheads", 4, 0.1)
    # a Royal Mastheads deal is 8 pot cards and 44 trick cards; the learner acts in 13
    assert result.aec_steps == 52 * result.aec_episodes
    assert result.gym_steps == 13 * result.gym_episodes
