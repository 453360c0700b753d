"""Publicly known cards in hands (R4.9): what every seat saw enter a hand and not leave it.

A card is known once taken from the discard pile (R4.2, R11.2, R11.4), drawn from a stock
turned over in public (R7.1), or taken back as a joker by a swap (R8.7); it stops being known
when melded, laid off, swapped or discarded, and a new deal forgets everything.  Every view
carries it, for every seat, the same for every reader.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.core.errors import InvalidPositionError
from cardtable.games.rummy import GAME, RummyState
from cardtable.games.rummy.determinize import determinize
from cardtable.games.rummy.events import RoundEnded
from cardtable.games.rummy.state import JOKER0, Phase, card_text, parse_phys
from tests.games.rummy.helpers import play, pos, track_known


def known(state: RummyState) -> list[set[str]]:
    """``known_in_hand`` per seat as sets, checked to be the same for every reader."""
    views = [GAME.view(state, s) for s in [*range(state.cfg.players), None]]
    first = views[0].known_in_hand
    assert all(v.known_in_hand == first for v in views)
    for v in views:
        data = json.loads(json.dumps(GAME.view_to_json(v)))
        assert [tuple(k) for k in data["known_in_hand"]] == list(first)
    return [set(k) for k in first]


def mask(*cards: str) -> int:
    m = 0
    for c in cards:
        m |= 1 << parse_phys(c)
    return m


TAKE = "P1: 5D 6D KS 2C 9H\nP2: 3C 4C 8H JD QC\ndiscard: 9S 7D\nstock: AS 2S 3S 4S ...\n"


def test_R4_9_a_taken_discard_is_known_to_all_until_melded() -> None:
    s = pos(TAKE, phase="DRAW P1")
    assert known(s) == [set(), set()]
    s, _ = play(s, "TAKE_DISCARD")
    assert known(s) == [{"7D"}, set()]
    assert s.known == mask("7D") and s.hands[0] & s.known == s.known
    s, _ = play(s, "MELD 5D 6D 7D")
    assert known(s) == [set(), set()]
    assert GAME.invariant_failures(s) == []


def test_R4_9_a_taken_discard_stays_known_over_turns_until_discarded() -> None:
    s = pos(TAKE, phase="DRAW P1")
    s, _ = play(s, "TAKE_DISCARD", "DISCARD KS", "DRAW_STOCK", "DISCARD QC")
    assert known(s) == [{"7D"}, set()]  # a later turn: still known
    text = GAME.render_view(GAME.view(s, 1))
    assert "P1 holds: 7♦ + 4 unseen" in text
    assert "seen by all: 7♦" in GAME.render_view(GAME.view(s, 0))
    s, _ = play(s, "TAKE_DISCARD")  # P1 takes back the QC that P2 discarded
    assert known(s) == [{"7D", "QC"}, set()]
    s, _ = play(s, "DISCARD 7D")
    assert known(s) == [{"QC"}, set()]
    s, _ = play(s, "TAKE_DISCARD")  # P2 takes 7D: now known in P2's hand
    assert known(s) == [{"QC"}, {"7D"}]


def test_R11_2_every_card_taken_with_the_chosen_one_is_known() -> None:
    s = pos(
        "P1: 8S 8H 2C QD\nP2: 4H 5H\ndiscard: 3S 8D 8C KH\n",
        options="discardPickup:anyWithAbove",
        phase="DRAW P1",
    )
    s, _ = play(s, "TAKE@2")
    assert known(s) == [{"8D", "8C", "KH"}, set()]
    s, _ = play(s, "MELD 8D 8S 8H")
    assert known(s) == [{"8C", "KH"}, set()]
    s, _ = play(s, "LAYOFF 8C->M1")
    assert known(s) == [{"KH"}, set()]


def test_R11_4_only_the_chosen_card_is_taken_and_known() -> None:
    s = pos(
        "P1: 8S 8H 2C QD\nP2: 4H 5H\ndiscard: 3S 8D 8C KH\n",
        options="discardPickup:anySingle",
        phase="DRAW P1",
    )
    s, _ = play(s, "TAKE@1")
    assert known(s) == [{"8C"}, set()]
    assert s.discard == tuple(parse_phys(c) for c in ("3S", "8D", "KH"))


def test_R7_1_a_card_drawn_from_a_turned_over_stock_is_known() -> None:
    s = pos(
        "P1: 2S 3S\nP2: 5H 6H\nP3: 7C 8C\nstock: -\ndiscard: 4C 9D KS\n", players=3, phase="DRAW P2"
    )
    s, _ = play(s, "DRAW_STOCK")
    assert known(s) == [set(), {"4C"}, set()]
    s, _ = play(s, "DISCARD 5H", "DRAW_STOCK")  # P3 draws 9D from the public stock
    assert known(s) == [set(), {"4C"}, {"9D"}]


def test_R4_9_a_card_drawn_from_a_face_down_stock_is_not_known() -> None:
    s = pos(TAKE, phase="DRAW P1")
    s, _ = play(s, "DRAW_STOCK")
    assert known(s) == [set(), set()]


def test_R8_7_a_joker_freed_by_a_swap_is_known_until_used() -> None:
    s = pos("P1: 6H 9C 2D\nM1(P2): 5H JK=6H 7H\n", options="jokers:true jokerSwap:true")
    s, _ = play(s, "SWAP 6H<->JK in M1")
    assert known(s) == [{"JK"}, set()]
    s, _ = play(s, "LAYOFF JK->M1 as 8H")
    assert known(s) == [set(), set()]


def test_a_new_round_forgets_the_known_cards() -> None:
    s = pos("P1: 2C\nP2: QS 3H\nknown: P2 QS\n", scope="match")
    assert known(s) == [set(), {"QS"}]
    s, _ = play(s, "DISCARD 2C")
    assert s.round_no == 1 and s.known == 0


def test_position_round_trip_and_old_positions() -> None:
    s = pos("P1: 2C 7D 9H\nP2: QS 3H\nknown: P2 QS; P1 7D\ntaken: 9H\n")
    text = GAME.format_position(s)
    assert "known: P1 9H 7D; P2 QS\n" in text  # in card order; the taken card is known
    assert GAME.parse_position(text) == s
    assert GAME.invariant_failures(s) == []
    old = pos("P1: 2C 7D\nP2: QS 3H\n")  # no known: line
    assert old.known == 0
    assert "known: -\n" in GAME.format_position(old)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("known: P2 7D", "not in P2's hand"),
        ("known: P1 7D; P1 2C", "listed twice"),
        ("known: P3 QS", "not a seat"),
        ("passed: P1 7H; P1 2S", "passed: P1 is listed twice"),
        ("passed: P3 QS", "not a seat"),
        ("passed: P1 ZZ", "not a card"),
    ],
)
def test_bad_known_and_passed_lines_are_refused(line: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        pos(f"P1: 2C 7D\nP2: QS 3H\n{line}\n")


def test_invariant_known_cards_must_be_in_hands() -> None:
    s = pos("P1: 2C 7D\nP2: QS 3H\ndiscard: 9S\n")
    bad = s._replace(known=mask("9S"))
    assert "a card publicly known to be in a hand is in none" in GAME.invariant_failures(bad)
    t = pos("P1: 2C 7D\nP2: QS 3H\ntaken: 7D\n")
    assert "the taken card or an obligated card is not publicly known" in (
        GAME.invariant_failures(t._replace(known=0))
    )


def test_shuffling_hidden_cards_keeps_known_cards_in_place() -> None:
    s = pos("P1: 2C 7D\nP2: QS 3H 4H 5H\nP3: 9C 9D\nknown: P2 QS\n", players=3)
    for seed in range(20):
        other = GAME.shuffle_hidden(s, 0, random.Random(seed))
        assert other.hands[1] & mask("QS")
        assert GAME.view(other, 0) == GAME.view(s, 0)


def test_determinization_deals_known_cards_to_their_holder() -> None:
    s = pos(
        "P1: 2C 7D 8D\nP2: QS 3H 4H 5H\nP3: 9C 9D KH\nknown: P2 QS; P3 KH\n",
        players=3,
        phase="DRAW P1",
    )
    view = GAME.view(s, 0)
    for seed in range(30):
        d = determinize(view, random.Random(seed))
        assert d.hands[1] & mask("QS") and d.hands[2] & mask("KH")
        assert d.hands[0] == s.hands[0]
        assert [h.bit_count() for h in d.hands] == [3, 4, 3]
        assert GAME.view(d, 0) == view


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


@pytest.mark.parametrize(
    "players", [2, pytest.param(4, marks=pytest.mark.slow), pytest.param(9, marks=pytest.mark.slow)]
)
@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default"
)
def test_R4_9_random_play_known_cards_are_what_a_spectator_saw_and_no_view_names_a_hidden_card(
    players: int, variant: dict[str, object]
) -> None:
    """In random self-play, ``known_in_hand`` is what the events showed a spectator, the same
    for every reader, and no view's JSON names a card hidden from its seat; the round ends
    once (the registry-wide conformance suite checks the rest of the contract)."""
    rng = random.Random(f"{players}/{variant}")
    state = GAME.new_game(players, variant, seed=rng.randrange(1 << 30), scope="unit")
    steps = 0
    ended = []
    seen: list[set[str]] = [set() for _ in range(players)]
    while GAME.to_act(state) is not None:
        if steps < 120 or steps % 11 == 0:
            assert known(state) == seen
            for seat in [*range(players), None]:
                data = json.loads(json.dumps(GAME.view_to_json(GAME.view(state, seat))))
                leaked = tokens(data) & hidden_texts(state, seat)
                assert not leaked, (seat, leaked)
        legal = GAME.legal_actions(state)
        state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
        track_known(seen, events)
        assert [set(k) for k in GAME.view(state, None).known_in_hand] == seen
        ended += [e for e in events if isinstance(e, RoundEnded)]
        steps += 1
        assert steps < 5000
    assert len(ended) == 1  # closed or blocked, exactly once
    assert known(state) == seen


def test_passed_lines_read_each_seat_s_cards() -> None:
    s = pos("P1: 2C 7D\nP2: QS 3H\npassed: P2 7H 4C; P1 9S\n")
    assert s.passed == (mask("9S"), mask("7H") | mask("4C"))
    assert GAME.parse_position(GAME.format_position(s)) == s
