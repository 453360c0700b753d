"""The replay tells each recorded move in the reader's words, never in notation (the
notation stays in the step's ``action``, for scripts)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from tests.games.test_present_words import problems
from tests.server.test_daily import _play_day, scripted_settings


@pytest.fixture
def client(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("CARDTABLE_DAILY_DEALS", "1")
    monkeypatch.setenv("CARDTABLE_DAILY_LEVEL", "random")
    monkeypatch.delenv("CARDTABLE_DAILY_SECRET", raising=False)
    with TestClient(create_app(scripted_settings(database_url))) as c:
        yield c


@pytest.mark.parametrize("game", ["royal-casino", "rummy", "royal-mastheads"])
def test_every_replay_step_says_its_move_in_words(client: TestClient, game: str) -> None:
    (table,) = _play_day(client, "eva-token", "Eva", game)
    for lang in ("cs", "ru", "en"):
        steps = client.get(f"/api/replay/{table}?lang={lang}").json()["steps"]
        assert steps[0]["label"] is None
        for step in steps[1:]:
            assert step["action"] and step["label"], step
            assert not problems(step["label"], lang), (lang, step["action"], step["label"])
            for entry in step["events"]:
                assert not problems(entry["text"], lang), (lang, entry["text"])
