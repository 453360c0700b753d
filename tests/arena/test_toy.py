"""The arena plays the toy game of the CLI tests through the registry alone."""

from __future__ import annotations

import pytest

import cardtable.games
from cardtable.arena import ArenaConfig, plan, run_local, summarise
from cardtable.core.registry import Registry
from tests.cli.toy import GAME as TOY


@pytest.fixture
def toy_registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The games' registry with the toy game ``take`` added (for this test only)."""
    registry = Registry()
    for game in cardtable.games.REGISTRY.games():
        registry.register(game)
    registry.register(TOY)
    monkeypatch.setattr(cardtable.games, "REGISTRY", registry)
    return registry


@pytest.mark.usefixtures("toy_registry")
def test_the_arena_plays_the_toy_at_every_level() -> None:
    for bots in (("hard", "random"), ("medium", "easy"), ("ismcts:30", "greedy")):
        cfg = ArenaConfig("take", bots, deals=2, seed=4, unit="match")
        results = run_local(plan(cfg))
        assert len(results) == 4
        assert all(r.actions > 0 and r.winners and r.units == 2 for r in results)
        summary = summarise(cfg, results)
        assert summary.games == 4 and summary.units == 8
        assert sum(e.wins for e in summary.entrants) == pytest.approx(4.0)


@pytest.mark.usefixtures("toy_registry")
def test_the_searching_bot_beats_random_at_the_toy() -> None:
    """Take is a solved game; search through the generic profile wins most rounds."""
    cfg = ArenaConfig("take", ("ismcts:200", "random"), deals=4, seed=2, unit="hand")
    results = run_local(plan(cfg))
    assert summarise(cfg, results).entrants[0].wins >= 6
