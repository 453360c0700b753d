"""Cards, options, records and the registry: parsers fuzzed, errors clear, round-trips exact."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.cards import (
    CARDS,
    FULL_DECK,
    JOKER,
    Card,
    format_card,
    format_cards,
    format_mask,
    mask_cards,
    parse_card,
    parse_cards,
    parse_mask,
)
from cardtable.core.errors import InvalidOptionError, InvalidRecordError, UnknownGameError
from cardtable.core.options import OptionSchema, OptionSpec
from cardtable.core.record import Record, replay
from cardtable.games import REGISTRY


@given(st.integers(0, 51))
def test_every_card_round_trips_in_every_accepted_spelling(index: int) -> None:
    text = format_card(index)
    assert parse_card(text) == index
    assert parse_card(text.lower()) == index
    assert parse_card(CARDS[index].pretty()) == index
    if text.startswith("10"):
        assert parse_card("T" + text[2:]) == index


@given(st.lists(st.integers(0, 51), unique=True, max_size=52))
def test_card_lists_and_sets_round_trip(cards: list[int]) -> None:
    text = format_cards(cards)
    assert [int(c) for c in parse_cards(text)] == cards
    mask = parse_mask(text)
    assert parse_mask(format_mask(mask)) == mask
    assert mask.bit_count() == len(cards)
    assert list(mask_cards(mask)) == sorted(cards)


@settings(max_examples=300)
@given(st.text(max_size=6))
def test_card_parser_raises_only_value_errors(text: str) -> None:
    try:
        c = parse_card(text)
    except ValueError as e:
        assert "not a card" in str(e)
    else:
        assert 0 <= c <= JOKER


def test_unknown_cards_and_jokers() -> None:
    assert format_cards([0, None, JOKER]) == "AS ?? JK"
    assert Card.parse("jk").is_joker
    with pytest.raises(ValueError, match="listed twice"):
        parse_mask("AS as")
    assert parse_mask(format_cards(range(52))) == FULL_DECK and FULL_DECK.bit_count() == 52


SCHEMA = OptionSchema(
    (
        OptionSpec("sweeps", "bool", True, help="h"),
        OptionSpec("deals", "int", 10, minimum=1, maximum=99, help="h"),
        OptionSpec("rule20", "choice", "LITTLE_CASINO", ("LITTLE_CASINO", "MOST_SPADES"), "h"),
    )
)


def test_option_errors_are_clear() -> None:
    with pytest.raises(InvalidOptionError, match="did you mean 'deals'"):
        SCHEMA.validate({"deal": 3})
    with pytest.raises(InvalidOptionError, match="at least 1"):
        SCHEMA.validate({"deals": 0})
    with pytest.raises(InvalidOptionError, match="whole number"):
        SCHEMA.validate({"deals": "ten"})
    with pytest.raises(InvalidOptionError, match="on/off"):
        SCHEMA.validate({"sweeps": "maybe"})
    with pytest.raises(InvalidOptionError, match="name=value"):
        SCHEMA.parse_assignments(["sweeps"])
    opts = SCHEMA.parse_assignments(["rule20=most_spades", "deals=3"])
    assert (opts["rule20"], opts["deals"], opts["sweeps"]) == ("MOST_SPADES", 3, True)
    assert SCHEMA.parse_words(SCHEMA.format_non_default(opts)) == opts
    assert SCHEMA.validate(None) == SCHEMA.defaults()


def test_registry_names_aliases_and_suggestions() -> None:
    assert REGISTRY.get("casino") is REGISTRY.get("royal-casino")
    assert REGISTRY.get("Royal_Casino") is REGISTRY.get("royal-casino")
    with pytest.raises(UnknownGameError, match="did you mean"):
        REGISTRY.get("rumy")


def test_records_round_trip_and_bad_records_are_refused() -> None:
    game = REGISTRY.get("royal-casino")
    state = game.new_game(2, seed=4, scope="unit")
    actions = []
    for _ in range(5):
        move = game.legal_actions(state)[0]
        actions.append(game.format_action(move))
        state, _ = game.apply(state, move)
    record = Record("royal-casino", 2, 4, {}, "unit", ("human:a", "bot:greedy"), tuple(actions))
    again = Record.loads(record.dumps())
    assert again == record
    assert replay(again, game).final == state
    for bad, message in [
        ("not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"game": "royal-casino"}', "no field 'players'"),
        ('{"game": "royal-casino", "players": "2"}', "whole number"),
        ('{"game": "royal-casino", "players": 2, "scope": "all"}', "scope"),
    ]:
        with pytest.raises(InvalidRecordError, match=message):
            Record.loads(bad)
    broken = json.loads(record.dumps())
    broken["actions"][2] = "capture KS: b9"
    with pytest.raises(InvalidRecordError, match="action 3"):
        replay(Record.from_json(broken), game)
