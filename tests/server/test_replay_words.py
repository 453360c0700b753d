"""The replay tells each recorded move in the reader's words, never in notation (the
notation stays in the step's ``action``, for scripts)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.games.test_present_words import problems
from tests.server import test_daily
from tests.server.test_daily import _play_day

client = test_daily.client
"""An in-process server whose daily challenge has two deals played against random bots."""


@pytest.mark.parametrize("game", ["royal-casino", "rummy", "royal-mastheads"])
def test_every_replay_step_says_its_move_in_words(client: TestClient, game: str) -> None:
    tables = _play_day(client, "eva-token", "Eva", game)
    for table in tables:
        for lang in ("cs", "ru", "en"):
            check_replay(client.get(f"/api/replay/{table}?lang={lang}").json()["steps"], lang)


def check_replay(steps: list[dict[str, Any]], lang: str) -> None:
    """Every step after the first names its move, and its move and log lines are words."""
    assert steps[0]["label"] is None
    for step in steps[1:]:
        assert step["action"] and step["label"], step
        assert not problems(step["label"], lang), (lang, step["action"], step["label"])
        for entry in step["events"]:
            assert not problems(entry["text"], lang), (lang, entry["text"])
