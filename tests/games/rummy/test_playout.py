"""The fast random playout plays exactly the contract loop's game (same draws, same end)."""

from __future__ import annotations

import random

import pytest

from cardtable.games.rummy import GAME, RummyState
from cardtable.games.rummy.natural import NaturalPlays, natural_play
from cardtable.games.rummy.playout import random_playout
from cardtable.games.rummy.plays import gen_plays
from cardtable.games.rummy.state import JOKER0, Phase, hand_faces
from tests.games.rummy.helpers import pos


def contract_loop(state: RummyState, rng: random.Random) -> tuple[RummyState, int]:
    """The reference loop of ``Game.playout``."""
    n = 0
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
        n += 1
    return state, n


def check(start: RummyState, seed: int) -> None:
    fast, n_fast = GAME.playout(start, random.Random(seed))
    slow, n_slow = contract_loop(start, random.Random(seed))
    assert n_fast == n_slow
    assert fast == slow
    assert GAME.to_act(fast) is None


@pytest.mark.parametrize(
    ("players", "seeds"), [pytest.param(2, 300, marks=pytest.mark.slow), (4, 60), (6, 30)]
)
def test_playout_equals_the_contract_loop(players: int, seeds: int) -> None:
    for seed in range(seeds):
        check(GAME.new_game(players, seed=seed, scope="unit"), seed)


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"jokers": True}, 2),
        ({"jokers": True, "jokerSwap": True, "jokersMayTouch": True}, 3),
        ({"jokers": True, "jokerLimit": "one-natural", "decks": 2}, 2),
        ({"decks": 2}, 2),
        ({"decks": 2, "jokers": True}, 7),
        ({"discardPickup": "anyWithAbove"}, 2),
        ({"discardPickup": "anySingle", "decks": 2}, 3),
        ({"pickupMustBeUsed": True}, 2),
        ({"wrapKA2": True}, 2),
        ({"maxOneMeldPerTurn": True, "mustDiscardToGoOut": True}, 2),
        ({"doubleFromHand": True, "maxTurnovers": 0}, 4),
        ({"maxTurnovers": -1, "maxTurnsPerRound": 40}, 2),
        # cards known in hands from every source: deep takes, public draws, swapped jokers
        pytest.param(
            {"discardPickup": "anyWithAbove", "jokers": True, "jokerSwap": True},
            3,
            marks=pytest.mark.slow,
        ),
    ],
)
def test_playout_equals_the_contract_loop_under_options(
    options: dict[str, object], players: int
) -> None:
    for seed in range(25):
        check(GAME.new_game(players, options, seed=seed, scope="unit"), seed)


@pytest.mark.parametrize(
    "options",
    [
        {"gameMode": "rounds(3)"},
        {"gameMode": "limit(150)", "jokers": True},
        {"gameMode": "single", "discardPickup": "anyWithAbove"},
    ],
)
def test_playout_plays_whole_matches(options: dict[str, object]) -> None:
    for seed in range(6):
        start = GAME.new_game(2 + seed % 3, options, seed=seed, scope="match")
        check(start, seed)
        end, _ = GAME.playout(start, random.Random(seed))
        assert GAME.units_played(end) >= 1


def test_playout_from_positions_reached_mid_round() -> None:
    rng = random.Random(99)
    for seed in range(40):
        options = {"jokers": seed % 2 == 1, "decks": 1 + seed % 4 // 2}
        state = GAME.new_game(2 + seed % 3, options, seed=seed, scope="unit")
        for _ in range(rng.randrange(1, 200)):
            if GAME.to_act(state) is None:
                break
            legal = GAME.legal_actions(state)
            state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
        check(state, seed)


def test_playout_from_a_position_with_a_wrapped_twelve_card_run() -> None:
    # Both ends of the run stand for 2H: the generator lists the lay-off once.
    start = pos(
        """
        P1: 2H 5C 9D KS 7S 7C
        P2: 4C 4D 4S 10C JC
        M1(P2): 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH
        stock: 8C 8D 8S 3C 3D
        discard: QC
        """,
        options="wrapKA2:true",
    )
    assert len([p for p in gen_plays(start.cfg, 0, start.hands[0], start.melds, 0, 0)]) == 1
    for seed in range(30):
        check(start, seed)


@pytest.mark.parametrize(
    "options", [{}, {"decks": 2}, {"wrapKA2": True, "decks": 2}, {"maxOneMeldPerTurn": True}]
)
def test_each_play_built_alone_is_the_generators(options: dict[str, object]) -> None:
    checked = 0
    for seed in range(25):
        rng = random.Random(seed)
        state = GAME.new_game(2 + seed % 3, options, seed=seed, scope="unit")
        while GAME.to_act(state) is not None:
            hand = state.hands[state.current]
            if state.phase == Phase.PLAY and not state.obligations and not hand >> JOKER0:
                cfg, melds, made = state.cfg, state.melds, state.melds_this_turn
                plays = gen_plays(cfg, state.current, hand, melds, made, 0, state.taken)
                targets = NaturalPlays(melds, cfg.wrap).targets
                melding = not (cfg.one_meld and made)
                for k, expected in enumerate(plays):
                    got = natural_play(
                        k,
                        state.current,
                        hand,
                        hand_faces(hand),
                        melds,
                        made,
                        cfg.wrap,
                        melding,
                        targets,
                        state.taken,
                    )
                    assert got == expected
                    checked += 1
            legal = GAME.legal_actions(state)
            state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    assert checked > 1000


class OwnFloats(random.Random):
    """A generator whose ``_randbelow`` works from ``random()``, not from raw bits."""

    def random(self) -> float:
        return super().random()


def test_playout_with_a_generator_that_does_not_draw_bits() -> None:
    for seed in range(6):
        start = GAME.new_game(2, seed=seed, scope="unit")
        fast = random_playout(start, OwnFloats(seed))
        assert fast == contract_loop(start, OwnFloats(seed))
        assert fast != random_playout(start, random.Random(seed))


class Counting(random.Random):
    """A generator that counts its ``randrange`` calls."""

    calls = 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.calls += 1
        return super().randrange(start, stop, step)


def test_playout_draws_once_per_action_through_an_overridden_randrange() -> None:
    for seed in range(4):
        start = GAME.new_game(3, {"jokers": True}, seed=seed, scope="unit")
        rng = Counting(seed)
        fast, n = random_playout(start, rng)
        assert rng.calls == n
        assert (fast, n) == contract_loop(start, Counting(seed))
