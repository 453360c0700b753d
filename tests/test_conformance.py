"""The conformance suite, parametrised over every registered game.

Random self-play under each game's player counts and option variants, checking at every
step: the game's invariants (card conservation and the like), legal actions never empty
while the game runs, every legal action round-trips through its notation, the position
and JSON round-trips, and the no-leak property of views (a view does not change when the
cards hidden from its seat are shuffled).  Then records replay exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.core.errors import InvalidOptionError
from cardtable.core.options import OptionSpec
from cardtable.core.record import Record, replay
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY
from cardtable.tables import Table

# Units (hands, rounds, deals) per configuration: a default-options run per player count,
# and a shorter run per single-option variant.
UNITS_DEFAULT = {"royal-casino": 500, "rummy": 12, "royal-mastheads": 300}
UNITS_VARIANT = {"royal-casino": 40, "rummy": 3, "royal-mastheads": 40}
# Units checked in depth (position, JSON and notation round-trips, no-leak) at every step;
# later units are checked in depth every 17th step.  A random Rummy round is ~360 actions.
DEEP_UNITS = {"royal-casino": 8, "rummy": 1, "royal-mastheads": 8}
PLAYER_COUNTS = {"rummy": (2, 4, 6, 9)}


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


def configurations() -> Iterator[Any]:
    """(game, players, options, units) for every game and variant that matters."""
    for game in REGISTRY.games():
        info = game.info
        counts = PLAYER_COUNTS.get(info.name, tuple(range(info.min_players, info.max_players + 1)))
        name = info.name
        for players in counts:
            yield pytest.param(
                game, players, {}, UNITS_DEFAULT.get(name, 50), id=f"{name}-{players}p-default"
            )
        for spec in info.options.specs:
            variant_counts = counts if len(counts) <= 3 else (counts[0], counts[-1])
            for value in _variants(spec):
                for players in variant_counts:
                    if not _valid(game, players, {spec.name: value}):
                        continue  # e.g. Rummy's decks=1 with 9 players is refused (R1.3)
                    yield pytest.param(
                        game,
                        players,
                        {spec.name: value},
                        UNITS_VARIANT.get(name, 10),
                        id=f"{name}-{players}p-{spec.name}={value}",
                    )


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
            twin = game.shuffle_hidden(state, seat, rng)
            assert game.view(twin, seat) == view
            assert game.view_to_json(game.view(twin, seat)) == game.view_to_json(view)
            json.dumps(game.view_to_json(view))


@pytest.mark.parametrize(("game", "players", "options", "units"), list(configurations()))
def test_random_self_play_conformance(
    game: AnyGame, players: int, options: dict[str, object], units: int
) -> None:
    rng = random.Random(f"{game.info.name}/{players}/{options}")
    for n in range(units):
        state = game.new_game(players, options, seed=rng.randrange(1 << 30), scope="unit")
        deep = n < DEEP_UNITS.get(game.info.name, 4)
        steps = 0
        while game.to_act(state) is not None:
            check_step(game, state, rng, deep or steps % 17 == 0)
            legal = game.legal_actions(state)
            state, _ = game.apply(state, legal[rng.randrange(len(legal))])
            steps += 1
            assert steps < 20_000, "the unit did not end"
        assert game.invariant_failures(state) == []
        assert game.outcome(state) is not None
        assert game.units_played(state) == 1
        text = game.format_position(state)
        assert game.parse_position(text) == state


@pytest.mark.parametrize("game", REGISTRY.games(), ids=REGISTRY.names())
def test_whole_match_ends_and_replays_exactly(game: AnyGame) -> None:
    info = game.info
    for seed in range(3):
        players = info.default_players
        table = Table(game, players, seed=seed, seats=["bot:random"] * players)
        table.run_bots()
        assert table.is_over
        record = Record.loads(table.record.dumps())
        assert record == table.record
        rep = replay(record, game)
        assert rep.final == table.state
        for state in rep.states:  # positions round-trip across hand boundaries too
            assert game.parse_position(game.format_position(state)) == state
        assert [u.events for u in table.log] == list(rep.events)
        outcome = game.outcome(rep.final)
        assert outcome is not None and record.result == outcome.to_json()


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
                    with pytest.raises(ValueError):
                        game.apply(state, foreign)
                    assert game.format_position(state) == before
                    assert str(game.explain_illegal(state, foreign))
                    tried += 1
                    break
            other, _ = game.apply(other, rng.choice(game.legal_actions(other)))
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    assert tried > 0
