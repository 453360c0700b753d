"""The decision tree of id sequences refuses ambiguous encodings."""

from __future__ import annotations

import pytest

from cardtable.core.encoding import Decision, Features, decode, observation
from cardtable.core.errors import IllegalActionError


class ToyEncoding:
    """Actions are strings; their ids are given by a table."""

    num_distinct_actions = 4

    def __init__(self, table: dict[str, tuple[int, ...]]) -> None:
        self.table = table

    def action_ids(self, view: None, action: str) -> tuple[int, ...]:
        return self.table[action]

    def id_text(self, action_id: int) -> str:
        return str(action_id)

    def observation_size(self, players: int) -> int:
        return 2

    def observe(self, view: None) -> Features:
        f = Features()
        f.numbers((0.0, 0.5))
        return f


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
