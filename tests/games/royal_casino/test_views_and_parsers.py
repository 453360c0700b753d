"""No-leak views and events, and fuzzed parsers for Royal Casino."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import format_card, iter_mask
from cardtable.core.errors import CardtableError, InvalidPositionError
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
        "royal-casino 2p; hands=8S KD 5C / 4C; loose=5H 3C; builds=[9 S P2: 6D 3S]"
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
        "royal-casino 2p; hands=8S KD 5C / 4C; loose=5H 3C; builds=[9 S P2: 6D 3S]"
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


def test_seats_are_written_from_P1_in_positions_views_and_events() -> None:
    s = GAME.parse_position(
        "royal-casino 4p; dealer=P4; turn=P1; hands=3D 9S / 4C / 6H / 7C; builds=[6 S P3: 4H 2C]"
    )
    text = GAME.format_position(s)
    assert "dealer=P4; turn=P1;" in text and "[6 S P3: 4H 2C]" in text
    shown = GAME.render_view(GAME.view(s, 0))
    assert "dealer P4 · P1 to play" in shown
    assert "b1: 6 single, owner P3" in shown
    assert "Scores: P1+P3 0  P2+P4 0" in shown
    assert "Your hand (P1)" in shown and "P2 1 card," in shown
    state, events = GAME.apply(s, GAME.parse_action(s, "trail 9S"))
    assert events[0].describe() == "P1 trailed 9S"
    assert state.turn == 1 and "turn=P2" in GAME.format_position(state)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "royal-casino 2p; turn=P0; hands=8S / 4C",
            "turn: seats are P1..P2 (counted from 1); got 'P0'",
        ),
        (
            "royal-casino 2p; turn=1; hands=8S / 4C",
            "turn: seats are P1..P2 (counted from 1); got '1'",
        ),
        ("royal-casino 2p; turn=P3; hands=8S / 4C", "got 'P3'"),
        (
            "royal-casino 2p; hands=8S / 4C; builds=[8 S P0: 5H 3C]",
            "build b1 owner: seats are P1..P2",
        ),
        ("royal-casino 2p; dealer=P0; hands=8S / 4C", "dealer: seats are P1..P2"),
    ],
)
def test_old_zero_based_seats_are_refused_with_the_range(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError) as e:
        GAME.parse_position(text)
    assert message in str(e.value)


def test_winners_are_written_as_sides_by_their_seats() -> None:
    over = "royal-casino 4p; turn=-; scores=21 14; winners=P1+P3; points=5 3"
    s = GAME.parse_position(over)
    assert s.winners == (0,)
    assert "winners=P1+P3; points=5 3" in GAME.format_position(s)
    assert GAME.parse_position(over.replace("P1+P3", "P2+P4")).winners == (1,)
    two = GAME.parse_position("royal-casino 2p; turn=-; scores=14 21; winners=P2")
    assert two.winners == (1,) and "winners=P2" in GAME.format_position(two)
    with pytest.raises(InvalidPositionError, match="winners are sides"):
        GAME.parse_position("royal-casino 2p; turn=-; scores=14 21; winners=1")


def test_version_1_positions_are_migrated_to_the_same_state() -> None:
    new = (
        "royal-casino 3p; scope=unit; seed=5; hand=1; dealer=P3; turn=P2; scores=0 0 0; "
        "hands=9S / 4C 8D / 6H; stock=-; loose=2D; builds=[8 S P1: 5H 3C] [7 M P3: 7C | 4D 3H]; "
        "piles=- / - / -; sweeps=0 0 0; last=P3"
    )
    old = (
        "royal-casino 3p; scope=unit; seed=5; hand=1; dealer=P2; turn=P1; scores=0 0 0; "
        "hands=9S / 4C 8D / 6H; stock=-; loose=2D; builds=[8 S P0: 5H 3C] [7 M P2: 7C | 4D 3H]; "
        "piles=- / - / -; sweeps=0 0 0; last=P2"
    )
    assert GAME.migrate_position(old, 1) == new
    assert GAME.parse_position(GAME.migrate_position(old, 1)) == GAME.parse_position(new)
    assert GAME.migrate_position(new, 2) == new
    old_over = "royal-casino 4p; dealer=P3; turn=-; scores=21 14; winners=1; last=-"
    assert GAME.migrate_position(old_over, 1) == (
        "royal-casino 4p; dealer=P4; turn=-; scores=21 14; winners=P2+P4; last=-"
    )
