"""Action and position notation: canonical text, lenient input, exact round-trips."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import parse_card
from cardtable.core.errors import InvalidNotationError, InvalidPositionError
from cardtable.games.royal_mastheads import GAME, RoyalMastheadsState
from cardtable.games.royal_mastheads.state import POT_BASE

from .helpers import EXAMPLE_TRICKS_1_TO_7, example, play_tricks


def test_actions_canonical_text():
    assert GAME.format_action(POT_BASE + parse_card("2C")) == "pot 2C"
    assert GAME.format_action(parse_card("10D")) == "play 10D"


@pytest.mark.parametrize("text", ["play KS", "play ks", "KS", "ks", "K♠", "play K♠", " play  Ks "])
def test_actions_lenient_play(text):
    assert GAME.parse_action(example(), text) == parse_card("KS")


@pytest.mark.parametrize("text", ["pot 10D", "pot td", "Td", "10♦", "POT 10d"])
def test_actions_lenient_pot(text):
    state = GAME.new_game(4, seed=1)
    assert GAME.parse_action(state, text) == POT_BASE + parse_card("10D")


@pytest.mark.parametrize("text", ["", "play", "play 1X", "pot JK", "play KS QS", "draw KS"])
def test_actions_bad_text(text):
    with pytest.raises(InvalidNotationError):
        GAME.parse_action(example(), text)


def test_pot_pair_is_two_actions_with_a_clear_message():
    with pytest.raises(InvalidNotationError, match="write 'pot 2C', then 'pot 3D'"):
        GAME.parse_action(GAME.new_game(4), "pot 2c 3d")


def test_every_action_round_trips():
    for action in range(2 * POT_BASE):
        state = GAME.new_game(4) if action >= POT_BASE else example()
        assert GAME.parse_action(state, GAME.format_action(action)) == action


def test_position_of_the_worked_example_mid_play():
    state, _ = play_tricks(example(), EXAMPLE_TRICKS_1_TO_7[:2])
    state, _ = GAME.apply(state, GAME.parse_action(state, "KD"))
    text = GAME.format_position(state)
    assert text == (
        "royal-mastheads; options -; scope unit; seed 0; deal 1; dealer P4; scores -; "
        "turned 7H; hands QS 6H 8H 10H JH QH KH QC / 9S 10S JS AH 5H 7H 9H 4D JC / "
        "6S 2H 3H 4H 7D 9D 10D JD QD / 4S 8S 5D 6D 8D 6C 7C 8C 9C; "
        "pot 2C 3D AC 2D AD 3S AS 4C; tricks P1:KS 7S 5S 2S, P1:KC 10C 3C 5C; trick KD"
    )
    assert GAME.parse_position(text) == state


def random_states(options: dict[str, object], seed: int, count: int) -> list[RoyalMastheadsState]:
    rng = random.Random(seed)
    state = GAME.new_game(4, options, seed=seed, scope="unit")
    out = [state]
    while GAME.to_act(state) is not None and len(out) < count:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
        out.append(state)
    return out


@pytest.mark.parametrize(
    "mutate",
    [
        lambda t: t.replace("tricks P1:", "tricks P2:"),  # wrong winner
        lambda t: t.replace("deal 1", "deal 0"),
        lambda t: t.replace("dealer P4", "dealer P5"),
        lambda t: t.replace("dealer P4", "dealer 3"),  # the version-1 form
        lambda t: t.replace("scope unit", "scope forever"),
        lambda t: t.replace("turned 7H", "turned 7X"),
        lambda t: t.replace("pot 2C 3D", "pot 3D"),  # 51 cards
        lambda t: t.replace("trick KD", "trick KD KD"),  # a card twice
        lambda t: t.replace("options -", "options deels:3"),
        lambda t: t.replace("scores -", "scores 1 2 3"),
        lambda t: t.replace("; trick KD", ""),
        lambda t: "royal-casino" + t[len("royal-mastheads") :],
        # a revoke: B plays 4D to the club trick 2 while holding JC
        lambda t: t.replace("4D JC", "10C JC").replace("KC 10C", "KC 4D"),
    ],
)
def test_bad_positions_rejected(mutate):
    state, _ = play_tricks(example(), EXAMPLE_TRICKS_1_TO_7[:2])
    state, _ = GAME.apply(state, GAME.parse_action(state, "KD"))
    text = GAME.format_position(state)
    bad = mutate(text)
    assert bad != text
    with pytest.raises(InvalidPositionError) as e:
        GAME.parse_position(bad)
    assert "not a Royal Mastheads position" in str(e.value)


def test_revoke_in_history_is_named():
    state, _ = play_tricks(example(), EXAMPLE_TRICKS_1_TO_7[:2])
    text = GAME.format_position(state).replace("4D JC", "10C JC").replace("KC 10C", "KC 4D")
    with pytest.raises(InvalidPositionError, match="P2 revoked: played 4D"):
        GAME.parse_position(text)


def test_old_seat_numbers_are_refused_with_the_seat_range():
    state, _ = play_tricks(example(), EXAMPLE_TRICKS_1_TO_7[:2])
    text = GAME.format_position(state)
    with pytest.raises(
        InvalidPositionError, match=r"dealer: seats are P1\.\.P4 \(counted from 1\); got '3'"
    ):
        GAME.parse_position(text.replace("dealer P4", "dealer 3"))
    with pytest.raises(InvalidPositionError, match=r"trick winner: seats are P1\.\.P4"):
        GAME.parse_position(text.replace("tricks P1:", "tricks 0:"))


def test_version_1_positions_are_migrated_to_the_same_state():
    state, _ = play_tricks(example(), EXAMPLE_TRICKS_1_TO_7[:2])
    text = GAME.format_position(state)
    old = text.replace("dealer P4", "dealer 3").replace("P1:", "0:")
    assert GAME.migrate_position(old, 1) == text
    assert GAME.parse_position(GAME.migrate_position(old, 1)) == state
    assert GAME.migrate_position(text, 2) == text


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=120))
def test_parse_position_never_crashes(text):
    """Any text is a position or an InvalidPositionError, never another exception."""
    with contextlib.suppress(InvalidPositionError):
        GAME.parse_position(text)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([{}, {"ruleset": "russian"}, {"ruleset": "russian", "aces": "low"}]),
    st.integers(0, 10_000),
    st.integers(0, 60),
    st.integers(0, 400),
)
def test_positions_round_trip_and_corruptions_are_caught(options, seed, steps, where):
    state = random_states(options, seed, steps + 1)[-1]
    text = GAME.format_position(state)
    assert GAME.parse_position(text) == state
    assert GAME.format_position(GAME.parse_position(text)) == text
    # drop one character: either still a position equal to the original, or rejected
    cut = text[: where % len(text)] + text[where % len(text) + 1 :]
    try:
        other = GAME.parse_position(cut)
    except InvalidPositionError:
        return
    assert GAME.invariant_failures(other) == []
