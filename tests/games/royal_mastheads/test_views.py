"""Views: what each seat may know, redaction, the no-leak property and rendering."""

from __future__ import annotations

import json
import random

import pytest

from cardtable.cards import format_card, parse_card, parse_cards
from cardtable.games.royal_mastheads import GAME, Phase, RoyalMastheadsState
from cardtable.games.royal_mastheads.events import Dealt, PotCardChosen
from cardtable.games.royal_mastheads.state import pot_owner

from .helpers import EXAMPLE_TRICKS_1_TO_7, A, B, example, play_tricks


def card_strings(data: object) -> set[int]:
    """Every card written anywhere in a JSON value."""
    found: set[int] = set()
    if isinstance(data, dict):
        for value in data.values():
            found |= card_strings(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_strings(value)
    elif isinstance(data, str):
        for word in data.split():
            try:
                card = parse_card(word)
            except ValueError:
                continue
            if card < 52:
                found.add(card)
    return found


def hidden_from(state: RoyalMastheadsState, seat: int | None) -> set[int]:
    """Cards a seat must not see: other hands and, until scoring, others' pot cards.

    The turned card is shown to everyone (M-5) though someone holds it: its holder is
    hidden, not the card, so it is left out here."""
    out = {c for s in range(4) if s != seat for c in range(52) if state.hands[s] >> c & 1}
    if state.phase is not Phase.OVER:
        out |= {c for i, c in enumerate(state.pot) if pot_owner(state.info.dealer, i) != seat}
    return out - {state.info.turned}


def test_view_shows_own_hand_and_pot_only():
    state = example()
    view = GAME.view(state, A)
    assert view.hand == tuple(sorted(parse_cards("KH QH JH 10H 8H 6H KS QS KD KC QC")))
    assert view.own_pot == parse_cards("2C 3D")
    assert view.pot is None and view.pot_counts == (2, 2, 2, 2)
    assert view.turned == parse_card("7H") and view.trumps == 1 and view.masthead == 7
    spectator = GAME.view(state, None)
    assert spectator.hand == () and spectator.own_pot == ()
    assert GAME.view_seat(view) == A and GAME.view_seat(spectator) is None


def test_tricks_are_public_once_taken_and_pot_shown_after_scoring():
    state, _ = play_tricks(example(), EXAMPLE_TRICKS_1_TO_7[:1])
    view = GAME.view(state, B)
    assert view.tricks == ((A, A, parse_cards("KS 7S 5S 2S")),)
    assert view.tricks_won == (1, 0, 0, 0)
    rng = random.Random(0)
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
    assert GAME.view(state, B).pot == parse_cards("2C 3D AC 2D AD 3S AS 4C")
    assert GAME.view(state, None).pot == state.pot


def test_redact_dealt_and_pot_events():
    state = GAME.new_game(4, seed=2)
    hands = tuple(tuple(format_card(c) for c in range(52) if h >> c & 1) for h in state.hands)
    dealt = Dealt(1, 0, hands)
    assert GAME.redact(dealt, 2) == Dealt(1, 0, (None, None, hands[2], None))
    assert GAME.redact(dealt, None) == Dealt(1, 0, (None, None, None, None))
    chosen = PotCardChosen(1, "6S")
    assert GAME.redact(chosen, 1) == chosen
    assert GAME.redact(chosen, 0) == PotCardChosen(1, None)


@pytest.mark.parametrize("options", [{}, {"ruleset": "russian"}])
def test_no_leak_views_and_events(options):
    rng = random.Random(7)
    changed = 0
    for seed in range(6):
        state = GAME.new_game(4, options, seed=seed, scope="unit")
        while True:
            for seat in (0, 1, 2, 3, None):
                view = GAME.view(state, seat)
                twin = GAME.shuffle_hidden(state, seat, rng)
                changed += twin != state
                assert GAME.view(twin, seat) == view
                data = GAME.view_to_json(view)
                assert json.loads(json.dumps(data)) == data
                assert not card_strings(data) & hidden_from(state, seat)
            if GAME.to_act(state) is None:
                break
            legal = GAME.legal_actions(state)
            state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
            for seat in (0, 1, 2, 3, None):
                for event in events:
                    shown = GAME.redact(event, seat)
                    if isinstance(shown, PotCardChosen) and shown.seat != seat:
                        assert shown.card is None
                    if isinstance(shown, Dealt):
                        assert all(h is None for i, h in enumerate(shown.hands) if i != seat)
    assert changed > 100  # shuffle_hidden really moves hidden cards


def test_render_view_shows_the_table():
    state, _ = play_tricks(example(), EXAMPLE_TRICKS_1_TO_7[:1])
    state, _ = GAME.apply(state, GAME.parse_action(state, "KC"))
    text = GAME.render_view(GAME.view(state, B))
    assert "deal 1 of 1, P4 deals — you are P2" in text  # scope "unit": one deal
    assert "Turned 7♥" in text and "trumps ♥ hearts" in text and "mastheads 7s" in text
    assert "Trick 2, P1 leads: P1:K♣" in text
    assert "Your hand: ♠ J 10 9   ♥ 9 7 5 A   ♦ 4   ♣ J 10" in text
    assert "Your pot cards: A♣ 2♦" in text
    assert "P1 won 1 trick: K♠ 7♠ 5♠ 2♠" in text
    assert "Scores after 0 deals: P1: 0  P2: 0  P3: 0  P4: 0" in text
    assert "P2 to act." in text
