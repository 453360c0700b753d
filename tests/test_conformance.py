"""The conformance suite, parametrised over every registered game (and the CLI's toy game).

Random self-play under each game's player counts and option variants, checking at every
step: the game's invariants (card conservation and the like), legal actions never empty
while the game runs, every legal action round-trips through its notation, the position
and JSON round-trips, the no-leak property of views (a view and its JSON do not change when
the cards hidden from its seat are shuffled) and that every view renders.  Then whole
matches replay exactly from their records (also from a position in the middle), illegal
actions change nothing, and each game's fast playout reaches the contract loop's end.

The first unit of every configuration runs in the fast tier; the rest, and the big player
counts, are marked ``slow`` (``make test`` runs them, ``make test-fast`` does not).
Game-specific properties stay with their game under ``tests/games/<game>/``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cardtable.core.errors import InvalidOptionError
from cardtable.core.options import OptionSpec
from cardtable.core.record import Record, replay
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY
from cardtable.tables import Table
from tests.cli.toy import GAME as TOY

GAMES: list[AnyGame] = [*REGISTRY.games(), TOY]
GAME_IDS = [g.info.name for g in GAMES]

# Units (hands, rounds, deals) per configuration: a default-options run per player count,
# and a shorter run per option variant.  The first QUICK units are the fast tier.
UNITS_DEFAULT = {"royal-casino": 500, "rummy": 12, "royal-mastheads": 300}
UNITS_VARIANT = {"royal-casino": 40, "rummy": 3, "royal-mastheads": 40}
QUICK = {"royal-casino": 2, "rummy": 1, "royal-mastheads": 2}
# Units checked in depth (position, JSON and notation round-trips, no-leak) at every step;
# later units are checked in depth every 17th step.  A random Rummy round is ~360 actions.
DEEP_UNITS = {"royal-casino": 8, "rummy": 1, "royal-mastheads": 8}
PLAYER_COUNTS = {"rummy": (2, 4, 6, 9)}
# Option combinations worth playing besides the single-option variants.
COMBINATIONS: dict[str, list[dict[str, object]]] = {
    "rummy": [
        {"wrapKA2": True, "maxOneMeldPerTurn": True},
        {"discardPickup": "anySingle", "pickupMustBeUsed": True},
        {"mustDiscardToGoOut": True, "doubleFromHand": True},
        {"jokers": True, "jokerSwap": True, "jokerLimit": "one-natural", "jokersMayTouch": True},
        {
            "jokers": True,
            "jokerLimit": "strict",
            "wrapKA2": True,
            "discardPickup": "anyWithAbove",
            "jokerSwap": True,
        },
        {"decks": 2, "jokers": True},
        {"maxTurnovers": -1, "maxTurnsPerRound": 60},
    ],
    "royal-mastheads": [
        {"ruleset": "russian", "aces": "low", "acePoints": "-10"},
        {"doubled": "trumps", "countBonus": "trumps", "trumpsBonus": "1000"},
    ],
}
# Whole matches that take seconds (a Rummy match is many rounds): slow tier only.
SLOW_MATCHES = {"rummy"}
# How each game's fast playout picks among n legal actions (the contract loop does the same).
DRAWS: dict[str, Callable[[random.Random, int], int]] = {
    "royal-mastheads": lambda rng, n: int(rng.random() * n),
}


def _variants(spec: OptionSpec) -> list[object]:
    if spec.type == "bool":
        return [not spec.default]
    if spec.type == "choice":
        return [c for c in spec.choices if c != spec.default]
    if spec.type == "int":
        lo = spec.minimum if spec.minimum is not None else 1
        return [v for v in {lo, lo + 1} if v != spec.default]
    return []


def _valid(game: AnyGame, players: int, options: dict[str, object]) -> bool:
    try:
        game.new_game(players, options, seed=0, scope="unit")
    except InvalidOptionError:
        return False
    return True


def player_counts(game: AnyGame) -> tuple[int, ...]:
    info = game.info
    return PLAYER_COUNTS.get(info.name, tuple(range(info.min_players, info.max_players + 1)))


def option_sets(game: AnyGame) -> list[dict[str, object]]:
    """Every single-option variant, then the combinations."""
    singles = [{s.name: v} for s in game.info.options.specs for v in _variants(s)]
    return singles + COMBINATIONS.get(game.info.name, [])


def _key(options: dict[str, object]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def configurations() -> Iterator[Any]:
    """(game, players, options, first unit, end unit, depth) for every game and variant that
    matters.  The fast tier plays the first units of the smallest player count, variants
    checked in depth every 17th step only; the rest is marked slow."""
    slow = pytest.mark.slow
    for game in GAMES:
        name = game.info.name
        counts = player_counts(game)
        quick = QUICK.get(name, 3)
        deep = DEEP_UNITS.get(name, 4)
        for players in counts:
            units = UNITS_DEFAULT.get(name, 50)
            tag = f"{name}-{players}p-default"
            if players == counts[0]:
                yield pytest.param(game, players, {}, 0, quick, deep, id=tag)
                yield pytest.param(
                    game, players, {}, quick, units, deep, id=f"{tag}-more", marks=slow
                )
            else:
                yield pytest.param(game, players, {}, 0, units, deep, id=tag, marks=slow)
        for options in option_sets(game):
            variant_counts = counts if len(counts) <= 3 else (counts[0], counts[-1])
            units = UNITS_VARIANT.get(name, 10)
            first = True
            for players in variant_counts:
                if not _valid(game, players, options):
                    continue  # e.g. Rummy's decks=1 with 9 players is refused (R1.3)
                tag = f"{name}-{players}p-{_key(options)}"
                if first:
                    yield pytest.param(game, players, options, 0, 1, 0, id=f"{tag}-quick")
                yield pytest.param(game, players, options, 0, units, deep, id=tag, marks=slow)
                first = False


def check_step(game: AnyGame, state: Any, rng: random.Random, deep: bool) -> None:
    """Every per-state property of the contract."""
    assert game.invariant_failures(state) == [], game.format_position(state)
    legal = game.legal_actions(state)
    assert legal, "no legal action while the game runs: " + game.format_position(state)
    if deep:
        text = game.format_position(state)
        assert game.parse_position(text) == state
        assert game.format_position(game.parse_position(text)) == text
        data = json.loads(json.dumps(game.state_to_json(state)))
        assert game.state_from_json(data) == state
        for action in legal:
            assert game.parse_action(state, game.format_action(action)) == action
        players = game.players(state)
        for seat in [*range(players), None]:
            view = game.view(state, seat)
            assert game.view_seat(view) == seat
            twin = game.shuffle_hidden(state, seat, rng)
            assert game.view(twin, seat) == view
            assert game.view_to_json(game.view(twin, seat)) == game.view_to_json(view)
            json.dumps(game.view_to_json(view))
            assert game.render_view(view)


@pytest.mark.parametrize(
    ("game", "players", "options", "first", "end", "deep_units"), list(configurations())
)
def test_random_self_play_conformance(
    game: AnyGame, players: int, options: dict[str, object], first: int, end: int, deep_units: int
) -> None:
    name = game.info.name
    for n in range(first, end):
        rng = random.Random(f"{name}/{players}/{_key(options)}/{n}")
        state = game.new_game(players, options, seed=rng.randrange(1 << 30), scope="unit")
        deep = n < deep_units
        steps = 0
        while game.to_act(state) is not None:
            check_step(game, state, rng, deep or steps % 17 == 0)
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            assert game.is_legal(state, action)
            state, _ = game.apply(state, action)
            steps += 1
            assert steps < 20_000, "the unit did not end"
        assert game.invariant_failures(state) == []
        assert not game.legal_actions(state)
        assert game.outcome(state) is not None
        assert game.units_played(state) == 1
        text = game.format_position(state)
        assert game.parse_position(text) == state


def match_options(game: AnyGame) -> list[dict[str, object]]:
    """Default options and the game's first combination (short matches where they can be)."""
    return [{}, *COMBINATIONS.get(game.info.name, [])[:1]]


@pytest.mark.parametrize(
    ("game", "options"),
    [
        pytest.param(
            g,
            o,
            id=f"{g.info.name}-{_key(o)}",
            marks=[pytest.mark.slow] if o or g.info.name in SLOW_MATCHES else [],
        )
        for g in GAMES
        for o in match_options(g)
    ],
)
def test_whole_match_ends_and_replays_exactly(game: AnyGame, options: dict[str, object]) -> None:
    info = game.info
    for seed in range(3 if not options else 1):
        players = info.default_players
        table = Table(game, players, seed=seed, seats=["bot:random"] * players, options=options)
        table.run_bots()
        assert table.is_over
        record = Record.loads(table.record.dumps())
        assert record == table.record
        rep = replay(record, game)
        assert rep.final == table.state
        for state in rep.states:  # positions round-trip across unit boundaries too
            assert game.parse_position(game.format_position(state)) == state
        assert [u.events for u in table.log] == list(rep.events)
        outcome = game.outcome(rep.final)
        assert outcome is not None and record.result == outcome.to_json()
        # a record may start from an explicit position instead of a seed
        middle = len(record.actions) // 2
        tail = Record(
            info.name,
            players,
            seed,
            record.options,
            start=game.format_position(rep.states[middle]),
            actions=record.actions[middle:],
        )
        rep_tail = replay(Record.loads(tail.dumps()), game)
        assert rep_tail.final == table.state
        assert list(rep_tail.events) == list(rep.events)[middle:]


@pytest.mark.parametrize("game", REGISTRY.games(), ids=REGISTRY.names())
def test_illegal_actions_change_nothing(game: AnyGame) -> None:
    rng = random.Random(3)
    state = game.new_game(game.info.default_players, seed=9)
    other = game.new_game(game.info.default_players, seed=10)
    tried = 0
    for _ in range(200):
        if game.to_act(state) is None:
            break
        legal = game.legal_actions(state)
        before = game.format_position(state)
        # an action legal elsewhere is usually not legal here
        if game.to_act(other) is not None:
            for foreign in game.legal_actions(other):
                if foreign not in legal:
                    with pytest.raises(ValueError) as err:
                        game.apply(state, foreign)
                    assert game.format_position(state) == before
                    assert str(game.explain_illegal(state, foreign)) == str(err.value)
                    assert not game.is_legal(state, foreign)
                    tried += 1
                    break
            other, _ = game.apply(other, rng.choice(game.legal_actions(other)))
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    assert tried > 0


def _randrange(rng: random.Random, n: int) -> int:
    return rng.randrange(n)


def contract_loop(game: AnyGame, state: Any, rng: random.Random) -> tuple[Any, int]:
    """Random legal actions to the end on the contract, drawn as the game's playout draws."""
    draw = DRAWS.get(game.info.name, _randrange)
    n = 0
    while game.to_act(state) is not None:
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[draw(rng, len(legal))])
        n += 1
    return state, n


@pytest.mark.parametrize(
    ("game", "options", "scope"),
    [
        pytest.param(g, o, "unit", id=f"{g.info.name}-{_key(o)}")
        for g in GAMES
        for o in [{}, *COMBINATIONS.get(g.info.name, [])]
    ]
    + [
        pytest.param(g, {}, "match", id=f"{g.info.name}-match", marks=pytest.mark.slow)
        for g in GAMES
    ],
)
def test_fast_playout_reaches_the_contract_loops_end(
    game: AnyGame, options: dict[str, object], scope: Any
) -> None:
    counts = player_counts(game)
    for seed in range(6 if scope == "unit" else 2):
        players = counts[seed % len(counts)]
        if not _valid(game, players, options):
            continue
        start = game.new_game(players, options, seed=seed, scope=scope)
        walk = random.Random(-seed)  # start some playouts in the middle of a unit
        for _ in range(walk.randrange(40) if seed % 2 else 0):
            if game.to_act(start) is None:
                break
            legal = game.legal_actions(start)
            start, _ = game.apply(start, legal[walk.randrange(len(legal))])
        fast = game.playout(start, random.Random(seed))
        assert fast == contract_loop(game, start, random.Random(seed))
        assert game.to_act(fast[0]) is None
        assert game.playout(fast[0], random.Random(seed)) == (fast[0], 0)
