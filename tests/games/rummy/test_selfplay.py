"""Random self-play conformance for Rummy: 2, 4, 6 and 9 players and every variant.

At every checked step: card conservation and the other invariants, legal actions never
empty while a round runs, every legal action and the position round-trip through their
notation, no leak (a view is unchanged when the hidden cards are shuffled, and its JSON
names no hidden card), and the publicly known cards of each hand are exactly those a
spectator saw enter it in the events.  Every round ends, closed or blocked; records replay
exactly.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.core.record import Record, replay
from cardtable.games.rummy import GAME, RummyState
from cardtable.games.rummy.events import RoundEnded
from cardtable.games.rummy.state import JOKER0, Phase, card_text
from tests.games.rummy.helpers import track_known

VARIANTS: list[dict[str, object]] = [
    {},
    {"jokers": True},
    {"wrapKA2": True, "maxOneMeldPerTurn": True},
    {"discardPickup": "anyWithAbove"},
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
    {"maxTurnovers": 0},
    {"maxTurnovers": -1, "maxTurnsPerRound": 60},
]


def hidden_texts(state: RummyState, seat: int | None) -> set[str]:
    """Text of every card hidden from ``seat`` (the other hands' publicly known cards, which
    :func:`check` compares with the events, are not hidden)."""
    if state.phase == Phase.OVER:
        hands: list[int] = []
    else:
        hands = [h & ~state.known for i, h in enumerate(state.hands) if i != seat]
    out = {card_text(c) for h in hands for c in range(JOKER0 + 4) if h >> c & 1}
    if not state.stock_public:
        out |= {card_text(c) for c in state.stock}
    return out


def tokens(value: Any) -> set[str]:
    """Every word of every string in a JSON value (``JK=6H`` gives ``JK``: a joker's meaning
    names no physical card)."""
    if isinstance(value, str):
        return {w.partition("=")[0] for w in value.split()}
    if isinstance(value, dict):
        return set().union(*(tokens(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(tokens(v) for v in value)) if value else set()
    return set()


def check(state: RummyState, rng: random.Random, known: list[set[str]]) -> None:
    assert GAME.invariant_failures(state) == []
    assert [set(k) for k in GAME.view(state, None).known_in_hand] == known
    legal = GAME.legal_actions(state)
    assert legal
    text = GAME.format_position(state)
    assert GAME.parse_position(text) == state
    for action in legal:
        assert GAME.parse_action(state, GAME.format_action(action)) == action
    for seat in [*range(state.cfg.players), None]:
        view = GAME.view(state, seat)
        assert view.known_in_hand == GAME.view(state, None).known_in_hand
        assert GAME.view(GAME.shuffle_hidden(state, seat, rng), seat) == view
        data = json.loads(json.dumps(GAME.view_to_json(view)))
        leaked = tokens(data) & hidden_texts(state, seat)
        assert not leaked, (seat, leaked)
        assert GAME.render_view(view)


@pytest.mark.parametrize("players", [2, 4, 6, 9])
@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default"
)
def test_random_self_play(players: int, variant: dict[str, object]) -> None:
    rng = random.Random(f"{players}/{variant}")
    for unit in range(2):
        state = GAME.new_game(players, variant, seed=rng.randrange(1 << 30), scope="unit")
        steps = 0
        ended = []
        known: list[set[str]] = [set() for _ in range(players)]
        while GAME.to_act(state) is not None:
            if (unit == 0 and steps < 120) or steps % 11 == 0:
                check(state, rng, known)
            legal = GAME.legal_actions(state)
            state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
            track_known(known, events)
            ended += [e for e in events if isinstance(e, RoundEnded)]
            steps += 1
            assert steps < 5000
        assert len(ended) == 1  # closed or blocked, exactly once
        assert GAME.invariant_failures(state) == []
        assert [set(k) for k in GAME.view(state, None).known_in_hand] == known
        assert GAME.outcome(state) is not None and GAME.units_played(state) == 1
        assert GAME.parse_position(GAME.format_position(state)) == state
        if ended[0].closer >= 0:
            assert state.hands[ended[0].closer] == 0
            assert ended[0].scores[ended[0].closer] == 25


@pytest.mark.parametrize("variant", [{}, {"jokers": True, "discardPickup": "anyWithAbove"}])
def test_record_replays_exactly(variant: dict[str, object]) -> None:
    rng = random.Random(7)
    state = GAME.new_game(3, {**variant, "maxTurnsPerRound": 40}, seed=21)
    options: dict[str, bool | int | str] = {"maxTurnsPerRound": 40}
    options.update({k: v for k, v in variant.items() if isinstance(v, bool | int | str)})
    record = Record("rummy", 3, 21, options)
    states = [state]
    all_events = []
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        record = record.with_action(GAME.format_action(action))
        state, events = GAME.apply(state, action)
        states.append(state)
        all_events.append(events)
    assert GAME.units_played(state) == 3
    rep = replay(Record.loads(record.dumps()), GAME)
    assert list(rep.states) == states
    assert list(rep.events) == all_events


def test_record_from_a_start_position() -> None:
    start = GAME.format_position(GAME.new_game(2, seed=3, scope="unit"))
    record = Record("rummy", 2, 0, {}, "unit", actions=("DRAW_STOCK",), start=start)
    rep = replay(record, GAME)
    assert rep.final.phase == Phase.PLAY
