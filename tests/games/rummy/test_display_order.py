"""The play menu groups Rummy lay-offs by the meld they go to (issue: readable lists)."""

from __future__ import annotations

from cardtable.games.rummy import GAME
from cardtable.games.rummy.state import DISCARD, LAYOFF, MELD, RummyAction


def test_layoffs_are_grouped_by_meld_between_melds_and_discards() -> None:
    actions = [
        RummyAction(DISCARD, (5,), (), 0),
        RummyAction(LAYOFF, (3,), (3,), 1),
        RummyAction(LAYOFF, (9,), (9,), 0),
        RummyAction(MELD, (20, 21, 22), (20, 21, 22), 7),
        RummyAction(LAYOFF, (2,), (2,), 1),
        RummyAction(LAYOFF, (40,), (40,), 0),
    ]
    ordered = [GAME.format_action(a) for a in sorted(actions, key=GAME.display_key)]
    kinds = [t.split()[0] for t in ordered]
    assert kinds == ["MELD", "LAYOFF", "LAYOFF", "LAYOFF", "LAYOFF", "DISCARD"]
    targets = [t.split("->M")[1] for t in ordered if t.startswith("LAYOFF")]
    assert targets == ["1", "1", "2", "2"]
