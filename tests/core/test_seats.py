"""Seat names: P1 … Pn for people, 0 … n-1 for code, and nothing else accepted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.core.errors import InvalidNotationError
from cardtable.core.seats import parse_seat, seat_name, side_name


@given(st.integers(2, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1))))
def test_a_seat_name_reads_back_as_its_seat(case: tuple[int, int]) -> None:
    players, seat = case
    name = seat_name(seat)
    assert name == f"P{seat + 1}"
    assert parse_seat(name, players) == seat
    assert parse_seat(f" {name.lower()} ", players) == seat


@pytest.mark.parametrize("text", ["P0", "0", "1", "P5", "P", "", "P-1", "Q1", "P1.0", "seat 1"])
def test_anything_but_P1_to_Pn_is_refused_with_the_range(text: str) -> None:
    with pytest.raises(InvalidNotationError, match=r"seats are P1\.\.P4 \(counted from 1\)"):
        parse_seat(text, 4)


def test_a_side_is_named_by_its_seats() -> None:
    assert side_name((0, 2)) == "P1+P3"
    assert side_name((1,)) == "P2"
