"""The search's fast paths agree with playing through the contract."""

from __future__ import annotations

import random

import pytest

from cardtable.games import get_game
from cardtable.games.royal_mastheads.deal_playout import _tables, playout, score_captures

GAME = get_game("royal-mastheads")


@pytest.mark.parametrize("ruleset", ["pagat", "russian"])
@pytest.mark.parametrize("seed", range(25))
def test_mastheads_scoring_matches_the_game(ruleset: str, seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(4, {"ruleset": ruleset}, seed=seed, scope="unit")
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    captured: list[list[int]] = [[], [], [], []]
    counts = [0, 0, 0, 0]
    for t in state.tricks:
        captured[t.winner].extend(t.cards)
        counts[t.winner] += 1
    assert score_captures(state, captured, counts, state.pot) == state.info.history[-1]


@pytest.mark.parametrize("seed", range(25))
def test_mastheads_forced_playout_matches_the_game(seed: int) -> None:
    """From the last trick every move is forced: the playout must score as the game."""
    rng = random.Random(seed)
    state = GAME.new_game(4, seed=seed, scope="unit")
    while len(state.tricks) < 10 or GAME.to_act(state) is None:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    got = playout(state, random.Random(0))
    while GAME.to_act(state) is not None:
        state, _ = GAME.apply(state, GAME.legal_actions(state)[0])
    assert got == state.info.history[-1]


@pytest.mark.parametrize("greedy", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("ruleset", ["pagat", "russian"])
@pytest.mark.parametrize("seed", range(12))
def test_mastheads_playout_moves_are_legal_and_score_as_the_game(
    greedy: float, ruleset: str, seed: int
) -> None:
    """Every card the playout plays (random or greedy) is legal in the game, and the
    playout's scores are the game's scores for those cards, from any point of the deal."""
    rng = random.Random(seed)
    state = GAME.new_game(4, {"ruleset": ruleset}, seed=seed, scope="unit")
    for _ in range(rng.randrange(8 + 44)):  # into the pot phase or anywhere in the play
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    played: list[int] = []
    got = playout(state, random.Random(seed), greedy, played)
    for action in played:
        assert action in GAME.legal_actions(state)
        state, _ = GAME.apply(state, action)
    assert GAME.to_act(state) is None
    assert got == state.info.history[-1]


@pytest.mark.parametrize("seed", range(20))
def test_greedy_playout_follows_the_greedy_rule(seed: int) -> None:
    """With greedy=1 the last player to a trick worth something wins it with the cheapest
    winning card; otherwise it sheds its least valuable card."""
    rng = random.Random(seed)
    state = GAME.new_game(4, seed=seed, scope="unit")
    while GAME.to_act(state) is not None and len(state.trick) < 3:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    assert state.trick and len(state.trick) == 3
    played: list[int] = []
    playout(state, random.Random(0), 1.0, played)

    unit, flat, tables = _tables(state)
    table = tables[state.trick[0] // 13]
    top = max(table[c] for c in state.trick)
    seat = GAME.to_act(state)
    assert seat is not None
    hand = [c for c in range(52) if state.hands[seat] >> c & 1]
    led = [c for c in hand if c // 13 == state.trick[0] // 13]
    options = led or hand
    winners = [c for c in options if table[c] > top]
    worth = sum(unit[c] + flat[c] for c in state.trick)
    if winners and worth >= 0:
        assert played[0] == min(winners, key=lambda c: table[c])
    else:
        losers = [c for c in options if table[c] <= top] or options
        assert played[0] == min(losers, key=lambda c: (unit[c] + flat[c], table[c]))
