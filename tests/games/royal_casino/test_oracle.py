"""The move generator against a brute-force oracle written from the spec's §1.13.

The oracle tries every card, every subset of loose cards, every subset of builds and every
value, and checks each candidate with the legality procedure of the spec, using a naive
partition search.  It shares no code with the engine's generator.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.royal_casino import GAME, Kind, RoyalCasinoAction, RoyalCasinoState
from cardtable.games.royal_casino.greedy import RoyalCasinoGreedyBot


def value(card: int) -> int:
    return card % 13 + 1


def capture_value(card: int) -> int:
    return 14 if value(card) == 1 else value(card)


def splits(cards: tuple[int, ...], v: int) -> list[int]:
    """The numbers of groups of value v that ``cards`` can be split into (all of them)."""
    if not cards:
        return [0]
    first, rest = cards[0], cards[1:]
    counts = []
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            group = (first, *others)
            lone_ace = v == 14 and len(group) == 1 and value(first) == 1
            if lone_ace or sum(value(c) for c in group) == v:
                left = tuple(c for c in rest if c not in others)
                counts += [1 + n for n in splits(left, v)]
    return counts


def subsets(items: list[int]) -> list[tuple[int, ...]]:
    return [s for k in range(len(items) + 1) for s in combinations(items, k)]


def mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def oracle(state: RoyalCasinoState) -> set[RoyalCasinoAction]:
    p = state.turn
    opts = state.options
    hand = [c for c in range(52) if state.hands[p] >> c & 1]
    loose = [c for c in range(52) if state.loose >> c & 1]
    builds = state.builds
    n = state.players

    def partner(owner: int) -> bool:
        return n == 4 and owner != p and owner % 2 == p % 2

    def keeps_guards(rest: list[int], owned_after: set[int]) -> bool:
        held = {capture_value(c) for c in rest}
        return owned_after <= held

    owned_now = {b.value for b in builds if b.owner == p}
    legal: set[RoyalCasinoAction] = set()
    for c in hand:
        rest = [x for x in hand if x != c]
        held = {capture_value(x) for x in rest}
        same_rank = [x for x in loose if value(x) == value(c)]
        if not owned_now and not same_rank:
            legal.add(RoyalCasinoAction(Kind.TRAIL, c))
        v = capture_value(c)
        for t in subsets(loose):
            if not set(same_rank) <= set(t):
                continue
            if t and not splits(t, v):
                continue
            for bs in subsets(list(range(len(builds)))):
                if not t and not bs:
                    continue
                if any(builds[i].value != v for i in bs):
                    continue
                left = {b.value for i, b in enumerate(builds) if b.owner == p and i not in bs}
                if keeps_guards(rest, left):
                    legal.add(RoyalCasinoAction(Kind.CAPTURE, c, v, False, mask(bs), mask(t)))
        for t in subsets(loose):
            if not t:
                continue
            for target in range(2, 15):
                if target not in held or not keeps_guards(rest, owned_now | {target}):
                    continue
                if not opts["sameValueBuildsCoexist"] and any(b.value == target for b in builds):
                    continue
                total = value(c) + sum(value(x) for x in t)
                if total == target:
                    legal.add(RoyalCasinoAction(Kind.BUILD, c, target, False, 0, mask(t)))
                if any(k >= 2 for k in splits((c, *t), target)):
                    legal.add(RoyalCasinoAction(Kind.BUILD, c, target, True, 0, mask(t)))
        for i, b in enumerate(builds):
            if partner(b.owner) and opts["partnerBuildInteraction"] == "FORBIDDEN":
                continue
            for t in subsets(loose):
                if (
                    b.value in held
                    and keeps_guards(rest, owned_now | {b.value})
                    and any(k >= 1 for k in splits((c, *t), b.value))
                ):
                    legal.add(RoyalCasinoAction(Kind.ADD, c, b.value, True, 1 << i, mask(t)))
                new = b.value + value(c)
                if b.multi or b.owner == p or new > 14 or new not in held:
                    continue
                if not keeps_guards(rest, owned_now | {new}):
                    continue
                if not opts["sameValueBuildsCoexist"] and any(
                    o.value == new for j, o in enumerate(builds) if j != i
                ):
                    continue
                if t and not opts["raiseAbsorbsLoose"]:
                    continue
                if not t or splits(t, new):
                    legal.add(RoyalCasinoAction(Kind.RAISE, c, new, bool(t), 1 << i, mask(t)))
    return legal


def positions(
    players: int, options: dict[str, object], count: int, seed: int
) -> list[RoyalCasinoState]:
    """Positions from games mixing greedy (which builds) and random play."""
    rng = random.Random(seed)
    greedy = RoyalCasinoGreedyBot()
    out: list[RoyalCasinoState] = []
    game_seed = seed * 1000
    while len(out) < count:
        game_seed += 1
        s = GAME.new_game(players, options, seed=game_seed, scope="unit")
        while GAME.to_act(s) is not None and len(out) < count:
            if s.loose.bit_count() <= 9:
                out.append(s)
            legal = GAME.legal_actions(s)
            if rng.random() < 0.5:
                move = greedy.choose(GAME.view(s, s.turn), legal, rng)
            else:
                move = rng.choice(legal)
            s, _ = GAME.apply(s, move)
    return out


VARIANTS = [
    {},
    {"partnerBuildInteraction": "FORBIDDEN"},
    {"raiseAbsorbsLoose": False},
    {"sameValueBuildsCoexist": False},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", VARIANTS, ids=["default", "partner", "absorb", "coexist"])
def test_generator_equals_the_brute_force_oracle(players: int, options: dict[str, object]) -> None:
    with_builds = 0
    for state in positions(players, options, 150, players):
        generated = list(GAME.legal_actions(state))
        assert len(generated) == len(set(generated)), "a move is generated twice"
        assert set(generated) == oracle(state), GAME.format_position(state)
        with_builds += bool(state.builds)
    assert with_builds > 20  # the sample really exercises builds


CARD = st.integers(0, 51)


@pytest.mark.slow  # a minute of brute force; the seeded sample above runs in the fast tier
@settings(max_examples=150, deadline=None)
@given(st.lists(CARD, min_size=6, max_size=14, unique=True), st.integers(1, 3), st.randoms())
def test_generator_equals_oracle_on_arbitrary_tables(
    cards: list[int], hand_size: int, rnd: random.Random
) -> None:
    """Arbitrary tables with a random build made by a real move first."""
    hand, rest = cards[:hand_size], cards[hand_size:]
    other = rest[:3]
    loose = rest[3:]
    text = (
        "royal-casino 2p; hands="
        + " ".join(GAME.format_action(RoyalCasinoAction(Kind.TRAIL, c)).split()[1] for c in hand)
        + " / "
        + " ".join(GAME.format_action(RoyalCasinoAction(Kind.TRAIL, c)).split()[1] for c in other)
        + "; loose="
        + (
            " ".join(GAME.format_action(RoyalCasinoAction(Kind.TRAIL, c)).split()[1] for c in loose)
            or "-"
        )
    )
    state = GAME.parse_position(text)
    assert set(GAME.legal_actions(state)) == oracle(state)
    # one more move (often a build) and check the opponent's position too
    state, _ = GAME.apply(state, rnd.choice(list(GAME.legal_actions(state))))
    if GAME.to_act(state) is not None:
        assert set(GAME.legal_actions(state)) == oracle(state)
