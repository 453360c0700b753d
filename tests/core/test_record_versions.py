"""Old records stay replayable: every version-1 fixture replays under today's code.

The files under ``records/v1/`` were written by cardtable before seats were renumbered
(commit a5e36d1, record format 1: ``turn=P0`` in Royal Casino, ``dealer 0`` in Royal
Mastheads): seeded self-play records of every game, in both scopes, and records that
start from an explicit position.  They are never regenerated.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from cardtable.core.errors import InvalidRecordError
from cardtable.core.record import RECORD_VERSION, Record, replay, upgrade
from cardtable.games import REGISTRY

V1 = Path(__file__).parent / "records" / "v1"
FIXTURES = sorted(V1.glob("*.json"))


def test_the_fixtures_cover_every_game_scope_and_start() -> None:
    records = [Record.loads(p.read_text(encoding="utf-8")) for p in FIXTURES]
    assert all(r.version == 1 for r in records)
    for name in REGISTRY.names():
        mine = [r for r in records if r.game == name]
        assert {r.scope for r in mine} == {"unit", "match"}, name
        assert any(r.start is not None for r in mine), name
        assert any(r.start is None for r in mine), name
    casino = [r for r in records if r.game == "royal-casino"]
    assert {r.players for r in casino} == {2, 3, 4}


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_a_version_1_record_replays_to_its_recorded_outcome(path: Path) -> None:
    record = Record.loads(path.read_text(encoding="utf-8"))
    assert record.version == 1 and record.result is not None
    game = REGISTRY.get(record.game)
    final = replay(record, game).final
    outcome = game.outcome(final)
    assert outcome is not None and outcome.to_json() == dict(record.result)
    # the upgraded record is a current one and replays the same states
    new = upgrade(record, game)
    assert new.version == RECORD_VERSION and new.actions == record.actions
    again = Record.loads(new.dumps())
    assert again == new and json.loads(new.dumps())["version"] == RECORD_VERSION
    assert replay(again, game).states == replay(record, game).states
    if record.start is not None:
        assert new.start == game.format_position(replay(record, game).states[0])
        # Rummy wrote P1 … already; the other games' starts name seats that moved
        assert (new.start == record.start) == (record.game == "rummy")


def test_a_version_1_start_read_as_today_would_be_a_different_game() -> None:
    # Why the version matters: the old text means other seats (or nothing) today.
    path = V1 / "royal-casino-2p-start-builds.json"
    record = Record.loads(path.read_text(encoding="utf-8"))
    assert record.start is not None and "turn=P1" in record.start
    game = REGISTRY.get(record.game)
    as_today = Record.from_json({**record.to_json(), "version": RECORD_VERSION})
    with pytest.raises(InvalidRecordError):
        replay(as_today, game)


def test_new_records_carry_the_current_version_and_newer_ones_are_refused() -> None:
    record = Record("royal-mastheads", 4, 3, {}, "unit")
    assert record.version == RECORD_VERSION == 2
    assert json.loads(record.dumps())["version"] == 2
    assert Record.loads(record.with_action("pot 2C").dumps()).version == 2
    data = record.to_json()
    with pytest.raises(InvalidRecordError, match="format version 3"):
        Record.from_json({**data, "version": 3})
    with pytest.raises(InvalidRecordError, match="field 'version'"):
        Record.from_json({**data, "version": "2"})
    del data["version"]
    assert Record.from_json(data).version == RECORD_VERSION  # hand-made: today's notation


@pytest.mark.parametrize("name", REGISTRY.names())
def test_no_action_text_names_a_seat(name: str) -> None:
    # Why upgrade() rewrites only the start: an action line never names a seat, in either
    # numbering, so version-1 action lines are version-2 action lines.
    game = REGISTRY.get(name)
    seat_word = re.compile(r"\b[Pp]\d+\b|\bseat\b")
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(game.info.max_players, None, seed, "unit")
        while game.to_act(state) is not None:
            legal = list(game.legal_actions(state))
            for action in legal:
                text = game.format_action(action)
                assert not seat_word.search(text), text
            state, _ = game.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"version": 2, "game": "casino", "seed": ' + "1" * 5000 + "}", "not valid JSON"),
        ("{not json", "not valid JSON"),
    ],
    ids=["deep", "huge-number", "syntax"],
)
def test_json_that_is_no_record_is_an_invalid_record_error(text: str, words: str) -> None:
    """Every caller (CLI, server) gets the one error type, never a RecursionError or a bare
    ValueError from json."""
    with pytest.raises(InvalidRecordError, match=words):
        Record.loads(text)
