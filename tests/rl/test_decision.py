"""The decision tree of id sequences refuses ambiguous encodings."""

from __future__ import annotations

import pytest

from cardtable.core.encoding import Decision, Features, InfoState, decode, observation
from cardtable.core.errors import IllegalActionError


class ToyEncoding:
    """Actions are strings; their ids are given by a table."""

    num_distinct_actions = 4

    def __init__(self, table: dict[str, tuple[int, ...]]) -> None:
        self.table = table

    def action_ids(self, view: int | None, action: str) -> tuple[int, ...]:
        return self.table[action]

    def id_text(self, action_id: int) -> str:
        return str(action_id)

    def observation_size(self, players: int) -> int:
        return 2

    def observe(self, view: int | None) -> Features:
        f = Features()
        f.numbers((0.0, 0.5))
        return f

    card_count = 4

    def hand(self, view: int | None) -> int:
        return 0b0101

    def private_id(self, action_id: int) -> bool:
        return action_id == 3

    def history_capacity(self, players: int) -> int:
        return 5


def test_a_walk_names_one_action() -> None:
    enc = ToyEncoding({"a": (0, 1), "b": (0, 2), "c": (3,)})
    d = Decision(enc, None, ["a", "b", "c"])
    assert d.legal_ids() == [0, 3]
    assert d.mask(4) == [1, 0, 0, 1]
    assert d.choose(0) is None
    assert d.legal_ids() == [1, 2]
    with pytest.raises(IllegalActionError):
        d.choose(3)
    assert d.choose(2) == "b"
    assert d.prefix == (0, 2)
    assert decode(enc, None, ["a", "b", "c"], (3,)) == "c"
    with pytest.raises(IllegalActionError):
        decode(enc, None, ["a", "b", "c"], (0,))


@pytest.mark.parametrize(
    "table",
    [
        {"a": (0, 1), "b": (0, 1)},  # two actions, one sequence
        {"a": (0,), "b": (0, 1)},  # a sequence that is a prefix of another
        {"a": (0, 1), "b": (0,)},  # the same, the other way round
        {"a": (5,)},  # an id outside the space
        {"a": ()},  # no id at all
    ],
)
def test_ambiguous_encodings_are_refused(table: dict[str, tuple[int, ...]]) -> None:
    with pytest.raises(ValueError):
        Decision(ToyEncoding(table), None, list(table))


def test_observation_appends_the_pending_ids() -> None:
    enc = ToyEncoding({"a": (0, 1)})
    assert observation(enc, None, (1,)) == [0.0, 0.5, 0.0, 1.0, 0.0, 0.0]


class HandEncoding(ToyEncoding):
    """The view is the hand's card mask."""

    def hand(self, view: int | None) -> int:
        return int(view or 0)


def test_infostate_tokens_moves_secrets_received_cards_and_the_window() -> None:
    enc = HandEncoding({})
    mine: InfoState[int | None] = InfoState(enc, 2, 0, None)
    theirs: InfoState[int | None] = InfoState(enc, 2, 1, None)
    watcher: InfoState[int | None] = InfoState(enc, 2, None, None)
    assert mine.tokens == []
    for info, view in ((mine, 0b0110), (theirs, 0), (watcher, None)):
        info.record(0, (0, 3), view)
    # the actor sees its own secret id; the other seat and a spectator see it hidden
    assert mine.tokens == [(1.0, 0.5, 0.25), (0.5, 0.5, 1.0), (-1.0, 0.0, 0.5), (-1.0, 0.0, 0.75)]
    assert theirs.tokens == [(1.0, 1.0, 0.25), (0.5, 1.0, -1.0)]
    assert watcher.tokens == [(1.0, 0.5, 0.25), (0.5, 0.5, -1.0)]
    # a card already in hand is not received again; a new one is
    mine.record(1, (2,), 0b1110)
    assert mine.tokens[-2:] == [(1.0, 1.0, 0.75), (-1.0, 0.0, 1.0)]
    f = mine.features((1,))
    base = 2 + 4  # observation and pending ids
    assert f.pos == base + 3 * 5
    assert f.values[2 + 1] == 1.0  # the pending id
    # six tokens, capacity five: the oldest is dropped
    assert f.values[base] == 0.5 and f.values[base + 3 * 4 + 2] == 1.0
