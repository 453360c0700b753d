"""The view's JSON lists cards exactly in notation order (``human_cards``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardtable.games.royal_casino import view
from cardtable.games.royal_casino.notation import human_cards


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_cards_json_is_the_notation_order(mask: int) -> None:
    """Every card set gives the cards of its notation text, in that order."""
    assert view._cards_json(mask) == human_cards(mask).split()
