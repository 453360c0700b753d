"""Royal Casino's rollout policy: captures by the points they take, precious cards kept."""

from __future__ import annotations

import random

from cardtable.games.royal_casino import GAME
from cardtable.games.royal_casino.search import RANDOM_ROLLOUT, rollout

from .helpers import pos


class _NoRandomMoves(random.Random):
    """A generator whose ``random()`` never asks the rollout for a uniformly random move."""

    def random(self) -> float:
        return RANDOM_ROLLOUT


def _rollout_text(text: str, seed: int = 0) -> str:
    s = pos(text)
    return GAME.format_action(rollout(s, GAME.legal_actions(s), _NoRandomMoves(seed)))


def test_the_rollout_takes_the_capture_worth_most_points_not_the_most_cards() -> None:
    # 10S takes 10D (Big Casino, 2 points) alone; 6D takes three plain cards.
    text = "hands=10S 6D / 4C; loose=10D 6C 6H 6S"
    assert _rollout_text(text) == "capture 10S: 10D"


def test_the_rollout_counts_aces_and_little_casino() -> None:
    assert _rollout_text("hands=AH 9S / 4C; loose=AD 9C 9D") == "capture AH: AD"
    assert _rollout_text("hands=2H 9S / 4C; loose=2S 9C 9D") == "capture 2H: 2S"


def test_the_rollout_counts_a_sweep() -> None:
    # AH takes an ace and two plain cards (4D stays); 9H takes the whole table, four
    # plain cards: worth less than the ace without the sweep, more with it.
    text = "hands=AH 9H / 4C; loose=5C 4D 9D"
    assert _rollout_text(text) == "capture 9H: 9D [5C 4D]"


def test_the_rollout_does_not_trail_precious_cards_while_it_has_another_move() -> None:
    # No capture: the moves are trails and builds; AS, 10D and 2S are never trailed.
    text = "hands=AS 10D 2S 6H / 4C; loose=KC QD"
    for seed in range(40):
        move = _rollout_text(text, seed)
        assert move not in ("trail AS", "trail 10D", "trail 2S"), seed


def test_the_rollout_trails_a_precious_card_when_that_is_all_it_can_do() -> None:
    assert _rollout_text("hands=AS / 4C; loose=KC QD") == "trail AS"


def test_a_tenth_of_rollout_moves_are_uniformly_random() -> None:
    s = pos("hands=10S 5H 3D / 4C; loose=10D 9H")
    legal = GAME.legal_actions(s)
    rng = random.Random(1)
    picks = [GAME.format_action(rollout(s, legal, rng)) for _ in range(2000)]
    other = sum(p != "capture 10S: 10D" for p in picks)
    # about 10% random moves, of which most are not the best capture
    assert 0.03 * len(picks) < other < 0.15 * len(picks)
