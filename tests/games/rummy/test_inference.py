"""Determinization that infers from what a seat did not do (docs/bots.md, "Rummy").

A seat that has ended a turn this round holds no meld (a player who melds what it can
would have laid it out), and the seat that has just ended its turn holds no card that
lays off onto the table as it stands at the next seat's draw.  The determinizer prefers
deals that fit (up to ``INFERENCE_TRIES`` deals a determinization).
"""

from __future__ import annotations

import random

import pytest

from cardtable.bots import make_bot
from cardtable.games.rummy import GAME, RummyState
from cardtable.games.rummy.determinize import INFERENCE_TRIES, RummySampler, has_meld
from cardtable.games.rummy.melds import natural_runs, natural_sets
from cardtable.games.rummy.playout import layoff_faces
from cardtable.games.rummy.state import F52, Phase
from tests.games.rummy.helpers import pos


def faces(hand: int) -> int:
    """The natural faces of a hand mask."""
    return (hand | hand >> 52) & F52


def brute_has_meld(fm: int, wrap: bool) -> bool:
    """A meld among ``fm`` by the meld module's own enumeration (R5.1, R5.2)."""
    for s in range(4):
        if natural_runs(fm >> 13 * s & 0x1FFF, wrap):
            return True
    for r in range(13):
        q = sum(1 << s for s in range(4) if fm >> (13 * s + r) & 1)
        if natural_sets(q):
            return True
    return False


@pytest.mark.parametrize("wrap", [False, True])
def test_R5_has_meld_agrees_with_the_meld_enumeration(wrap: bool) -> None:
    rng = random.Random(7)
    for _ in range(3000):
        fm = 0
        for f in rng.sample(range(52), rng.randrange(0, 14)):
            fm |= 1 << f
        assert has_meld(fm, wrap) == brute_has_meld(fm, wrap), (bin(fm), wrap)


def play_medium(seed: int) -> list[RummyState]:
    """The states of a two-player round between ``medium`` bots, at each draw."""
    bot = make_bot("medium", GAME)
    state = GAME.new_game(2, seed=seed, scope="unit")
    rng = random.Random(seed)
    draws = []
    while (seat := GAME.to_act(state)) is not None:
        if state.phase == Phase.DRAW:
            draws.append(state)
        view = GAME.view(state, seat)
        state = GAME.apply(state, bot.choose(view, GAME.legal_actions(state), rng))[0]
    return draws


def test_the_inference_holds_for_the_greedy_player() -> None:
    """Sound against ``medium``: after its turn its hand has no meld and nothing that lays
    off onto the table."""
    checked = 0
    for seed in range(12):
        for state in play_medium(5000 + seed)[2:]:
            other = 1 - state.current
            fm = faces(state.hands[other])
            assert not has_meld(fm, state.cfg.wrap)
            assert not fm & layoff_faces(state.melds, state.cfg.wrap)
            checked += 1
    assert checked > 50


def test_determinizations_follow_the_inference_and_give_the_view_back() -> None:
    assert INFERENCE_TRIES > 1
    fits = total = 0
    for seed in range(6):
        for state in play_medium(6000 + seed)[2:]:
            seat = state.current
            view = GAME.view(state, seat)
            sampler = RummySampler(view)
            other = 1 - seat
            assert sampler.checked[other]
            assert sampler.no_layoff[other] == layoff_faces(state.melds, state.cfg.wrap)
            for k in range(4):
                d = sampler(random.Random(k))
                assert GAME.view(d, seat) == view
                fm = faces(d.hands[other])
                total += 1
                if not has_meld(fm, state.cfg.wrap) and not fm & sampler.no_layoff[other]:
                    fits += 1
    # the uniform deal breaks the inference far more often (most hands hold a meld or a
    # lay-off late in a round); with the retries nearly every deal fits
    assert total > 100 and fits >= 0.95 * total


def test_a_seat_that_has_not_played_yet_is_not_constrained() -> None:
    s = pos("P1: 2C 7D 8D\nP2: QS 3H 4H 5H\n", phase="DRAW P1")
    view = GAME.view(s, 0)
    sampler = RummySampler(view)
    assert view.turn == 0 and sampler.checked == [False, False]
    assert sampler.no_layoff == [0, 0]
