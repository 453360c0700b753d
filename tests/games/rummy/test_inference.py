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
from cardtable.games.rummy.determinize import (
    INFERENCE_TRIES,
    RummySampler,
    has_meld,
    makes_meld,
    unseen_cards,
)
from cardtable.games.rummy.melds import natural_runs, natural_sets
from cardtable.games.rummy.playout import layoff_faces
from cardtable.games.rummy.state import F52, Phase, parse_phys
from tests.games.rummy.helpers import play, pos


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


def random_faces(rng: random.Random) -> int:
    """A mask of 0 to 13 distinct faces, as a hand of the size Rummy deals can hold."""
    fm = 0
    for f in rng.sample(range(52), rng.randrange(0, 14)):
        fm |= 1 << f
    return fm


@pytest.mark.parametrize("wrap", [False, True])
def test_R5_makes_meld_agrees_with_the_meld_enumeration(wrap: bool) -> None:
    rng = random.Random(8)
    for _ in range(3000):
        fm = random_faces(rng)
        face = rng.randrange(52)
        suit, rank = divmod(face, 13)
        cards = fm | 1 << face
        runs = natural_runs(cards >> 13 * suit & 0x1FFF, wrap)
        q = sum(1 << t for t in range(4) if cards >> (13 * t + rank) & 1)
        expected = any(mask >> rank & 1 for _, _, mask in runs) or any(
            sub >> suit & 1 for sub in natural_sets(q)
        )
        assert makes_meld(fm, face, wrap) == expected, (bin(fm), face, wrap)


@pytest.mark.parametrize("wrap", [False, True])
def test_R5_has_meld_agrees_with_the_meld_enumeration(wrap: bool) -> None:
    rng = random.Random(7)
    for _ in range(3000):
        fm = random_faces(rng)
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


def test_R4_2_a_stock_draw_records_the_top_discard_as_passed_up_for_everyone() -> None:
    s = pos("P1: 2C 7D 8D\nP2: QS 3H 4H 5H\nstock: 9S KH\ndiscard: 4C JD\n", phase="DRAW P1")
    drew, _ = play(s, "DRAW_STOCK")
    assert drew.passed == (1 << parse_phys("JD"), 0)
    for seat in (0, 1, None):
        assert GAME.view(drew, seat).passed == (("JD",), ())
    took, _ = play(s, "TAKE_DISCARD")
    assert took.passed == (0, 0)
    assert GAME.parse_position(GAME.format_position(drew)) == drew
    assert "passed: P1 JD" in GAME.format_position(drew)


def test_R4_2_a_greedy_player_passes_up_only_cards_that_make_no_meld_with_its_hand() -> None:
    """Sound against ``medium`` when it draws: what it leaves on the pile makes no meld with
    its hand then (it would have taken it)."""
    bot = make_bot("medium", GAME)
    checked = 0
    for seed in range(10):
        state = GAME.new_game(2, seed=7000 + seed, scope="unit")
        rng = random.Random(seed)
        while (seat := GAME.to_act(state)) is not None:
            action = bot.choose(GAME.view(state, seat), GAME.legal_actions(state), rng)
            before = state.passed[seat]
            top = state.discard[-1] if state.discard else -1
            hand = faces(state.hands[seat])
            state = GAME.apply(state, action)[0]
            if state.phase != Phase.OVER and state.passed[seat] != before:
                assert state.passed[seat] == before | 1 << top
                assert not makes_meld(hand, top % 52, state.cfg.wrap)
                checked += 1
    assert checked > 30


def test_determinizations_prefer_hands_that_make_no_meld_with_a_passed_up_card() -> None:
    # P2 has ended a turn and passed up the 6 of hearts: a hand holding 5H 7H or two other
    # sixes would have taken it.
    s = pos(
        "P1: 2C 9D KS 4S\nP2: QS 5H 7H 3D 9C JC 2S\nturn: 2\npassed: P2 6H\n"
        "stock: 8S ...\ndiscard: 10C 6H JS\n",
        phase="DRAW P1",
    )
    view = GAME.view(s, 0)
    assert view.passed == ((), ("6H",))
    sampler = RummySampler(view)
    assert sampler.checked[1] and sampler.passed[1] == [parse_phys("6H")]
    rng = random.Random(3)
    hits = 0
    for _ in range(400):
        d = sampler(rng)
        assert GAME.view(d, 0) == view
        hits += makes_meld(faces(d.hands[1]), parse_phys("6H"), False)
    # a uniform deal of 7 of the 47 unseen cards makes a meld with 6H far more often
    uniform = 0
    for _ in range(400):
        hand = 0
        for c in rng.sample(unseen_cards(view), 7):
            hand |= 1 << c
        uniform += makes_meld(faces(hand), parse_phys("6H"), False)
    assert hits * 2 < uniform
