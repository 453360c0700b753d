"""No-leak views and events, and fuzzed parsers for Royal Casino."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import format_card, iter_mask
from cardtable.core.errors import CardtableError
from cardtable.games.royal_casino import GAME, RoyalCasinoState
from cardtable.games.royal_casino.events import Dealt


def hidden_from(state: RoyalCasinoState, seat: int | None) -> set[str]:
    """Cards in other hands and the stock (and, for a spectator, every hand)."""
    cards: set[int] = set(state.stock)
    for i, h in enumerate(state.hands):
        if i != seat:
            cards |= set(iter_mask(h))
    return {format_card(c) for c in cards}


def tokens(value: object) -> set[str]:
    text = json.dumps(value)
    for ch in '[]{}",:':
        text = text.replace(ch, " ")
    return set(text.split())


def test_serialized_views_and_events_never_hold_a_hidden_card() -> None:
    rng = random.Random(2)
    for seed in range(25):
        players = 2 + seed % 3
        s = GAME.new_game(players, seed=seed, scope="unit")
        while GAME.to_act(s) is not None:
            before = s
            s, events = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
            for seat in [*range(players), None]:
                secret = hidden_from(s, seat)
                assert not tokens(GAME.view_to_json(GAME.view(s, seat))) & secret
                for e in events:
                    red = GAME.redact(e, seat)
                    shown = {format_card(c) for c in _event_cards(red)}
                    # a card in an event is either public now or was public before it
                    assert not shown & secret & hidden_from(before, seat)


def _event_cards(event: object) -> list[int]:
    out: list[int] = []
    for name in ("card", "loose", "taken", "cards", "table", "hands"):
        value = getattr(event, name, None)
        if isinstance(value, int):
            out.append(value)
        elif isinstance(value, tuple):
            for v in value:
                if isinstance(v, int):
                    out.append(v)
                elif isinstance(v, tuple):
                    out += [c for c in v if isinstance(c, int)]
    return out


def test_dealt_events_show_a_seat_only_its_own_cards() -> None:
    s = GAME.new_game(3, seed=4)
    s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    e = Dealt(
        1, 2, 0, (("2S", "3S", "4S", "5S"), ("6S", "7S", "8S", "9S"), ("JS", "QS", "KS", "AH")), ()
    )
    red = GAME.redact(e, 1)
    assert isinstance(red, Dealt)
    assert red.hands == ((None,) * 4, ("6S", "7S", "8S", "9S"), (None,) * 4)
    spectator = GAME.redact(e, None)
    assert isinstance(spectator, Dealt)
    assert all(c is None for h in spectator.hands for c in h)


def test_views_do_not_change_when_hidden_cards_move() -> None:
    rng = random.Random(7)
    for seed in range(30):
        s = GAME.new_game(4, seed=seed, scope="unit")
        for _ in range(rng.randrange(40)):
            s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
        for seat in (0, 1, 2, 3, None):
            twin = GAME.shuffle_hidden(s, seat, rng)
            assert GAME.view(twin, seat) == GAME.view(s, seat)
        # ...while the state really changed (the test can fail)
        assert any(GAME.shuffle_hidden(s, 0, rng) != s for _ in range(5)) or not s.stock


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_move_parser_raises_only_clear_errors(text: str) -> None:
    s = GAME.parse_position(
        "royal-casino 2p; hands=8S KD 5C / 4C; loose=5H 3C; builds=[9 S P1: 6D 3S]"
    )
    try:
        move = GAME.parse_action(s, text)
    except CardtableError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert GAME.parse_action(s, GAME.format_action(move)) == move


WORDS = st.sampled_from(
    [
        "capture",
        "build",
        "add",
        "raise",
        "trail",
        "8S",
        "5H",
        "3C",
        "KD",
        "b1",
        "b2",
        "->",
        "=",
        "13",
        "(single)",
        "(multi)",
        "+",
        ":",
        "[",
        "]",
        "9",
        "5c",
        "ks",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=8))
def test_move_parser_on_near_misses(words: list[str]) -> None:
    s = GAME.parse_position(
        "royal-casino 2p; hands=8S KD 5C / 4C; loose=5H 3C; builds=[9 S P1: 6D 3S]"
    )
    try:
        move = GAME.parse_action(s, " ".join(words))
    except CardtableError:
        return
    # whatever parses formats canonically and reads back as the same move
    assert GAME.parse_action(s, GAME.format_action(move)) == move
    if move not in GAME.legal_actions(s):
        assert GAME.explain_illegal(s, move).rule


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_position_parser_raises_only_clear_errors(text: str) -> None:
    try:
        GAME.parse_position("royal-casino; " + text)
    except CardtableError as e:
        assert str(e)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**31), st.integers(2, 4), st.integers(0, 60))
def test_positions_round_trip_anywhere(seed: int, players: int, steps: int) -> None:
    rng = random.Random(seed)
    s = GAME.new_game(players, seed=seed)
    for _ in range(steps):
        if GAME.to_act(s) is None:
            break
        s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
    text = GAME.format_position(s)
    assert GAME.parse_position(text) == s
    assert GAME.format_position(GAME.parse_position(text)) == text
