"""scripts/pilot_journal.py reads a pilot's journal as the arena counts its games."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from cardtable.arena import ArenaConfig, plan, run_local, summarise
from cardtable.arena.stats import Summary
from tests.script_loader import load_script


def _script() -> ModuleType:
    return load_script("scripts/pilot_journal.py")


def _journal(path: Path, cfg: ArenaConfig) -> Summary:
    """Play ``cfg``, write its games with ``expert_pilot.py``'s own rows, and summarise."""
    results = run_local(plan(cfg), 1)
    pilot = load_script("scripts/expert_pilot.py")
    with path.open("w") as f:
        for r in results:
            f.write(json.dumps(pilot.journal_row(r)) + "\n")
    return summarise(cfg, results)


@pytest.mark.parametrize(
    ("game", "deals", "players"),
    [("royal-mastheads", 3, 4), ("royal-casino", 6, 2), ("royal-casino", 2, 4)],
)
def test_the_journal_gives_the_arenas_match_wins_and_margin(
    tmp_path: Path, game: str, deals: int, players: int
) -> None:
    """One against three, head to head, and two partnerships (two seatings of four seats)."""
    script = _script()
    cfg = ArenaConfig(game, ("medium", "random"), deals, 11, players=players)
    path = tmp_path / "pilot.jsonl"
    summary = _journal(path, cfg)
    games, totals = script.deal_totals(path)
    entrant = summary.entrants[0]
    assert games == summary.games
    assert len(totals) == entrant.matches == deals
    assert script.match_wins(totals, sorted(totals)) == entrant.match_wins
    margin = sum(a - b for a, b in totals.values()) / len(totals)
    assert margin == pytest.approx(entrant.match_margin[0], abs=1e-3)


def test_a_deal_cut_short_is_not_counted_and_a_later_copy_wins(tmp_path: Path) -> None:
    script = _script()
    path = tmp_path / "pilot.jsonl"
    seatings = [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]
    rows = [
        {"deal": 0, "rot": r, "ent": ent, "scores": [1, 2, 3, 4]} for r, ent in enumerate(seatings)
    ]
    rows.append({"deal": 1, "rot": 0, "ent": [0, 1, 1, 1], "scores": [9, 0, 0, 0]})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    games, totals = script.deal_totals(path)
    assert games == 5 and sorted(totals) == [0]
    before = totals[0]
    again = {"deal": 0, "rot": 0, "ent": rows[0]["ent"], "scores": [100, 2, 3, 4]}
    path.write_text(path.read_text() + json.dumps(again) + "\n")
    _, totals = script.deal_totals(path)
    assert totals[0] != before


def test_a_line_that_is_not_a_game_is_refused_with_its_place(tmp_path: Path) -> None:
    script = _script()
    path = tmp_path / "pilot.jsonl"
    path.write_text('{"deal": 0}\n')
    with pytest.raises(ValueError, match=r"pilot\.jsonl:1"):
        script.deal_totals(path)
