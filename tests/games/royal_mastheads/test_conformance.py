"""Random self-play for both rulesets with every invariant checked at every step, deal
scores recomputed from the spec's words, and record replays."""

from __future__ import annotations

import random

import pytest

from cardtable.cards import parse_card
from cardtable.core.record import Record, replay
from cardtable.games.royal_mastheads import GAME, Phase, RoyalMastheadsState
from cardtable.games.royal_mastheads.events import DealScored, PotAwarded, TrickWon
from cardtable.games.royal_mastheads.playout import random_playout
from cardtable.tables import Table

from .helpers import outcome, random_finish, spec_deal_scores, spec_rules

OPTION_SETS = [
    {},
    {"ruleset": "russian"},
    {"ruleset": "russian", "aces": "low", "ace_points": "-10"},
    {"doubled": "trumps", "count_bonus": "trumps", "trumps_bonus": "1000"},
]


def cards_in(state: RoyalMastheadsState) -> list[int]:
    cards = [c for h in state.hands for c in range(52) if h >> c & 1]
    cards += list(state.pot) + list(state.trick)
    for t in state.tricks:
        cards += list(t.cards)
    return cards


@pytest.mark.parametrize("ruleset", ["pagat", "russian"])
def test_self_play_invariants_and_independent_scores(ruleset):
    options = {"ruleset": ruleset, "deals": 4}
    rules = spec_rules(options)
    rng = random.Random(ruleset)
    deals = 0
    for seed in range(8):
        state = GAME.new_game(4, options, seed=seed)
        tricks_this_deal = 0
        while GAME.to_act(state) is not None:
            assert sorted(cards_in(state)) == list(range(52))
            assert GAME.invariant_failures(state) == []
            text = GAME.format_position(state)
            assert GAME.parse_position(text) == state
            assert GAME.format_position(GAME.parse_position(text)) == text
            legal = GAME.legal_actions(state)
            before = state
            state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
            tricks_this_deal += sum(isinstance(e, TrickWon) for e in events)
            for event in events:
                if isinstance(event, DealScored):
                    deals += 1
                    assert tricks_this_deal == 11
                    tricks_this_deal = 0
                    last = next(e for e in events if isinstance(e, TrickWon))
                    tricks: list[tuple[int, tuple[int, ...]]] = [
                        (t.winner, t.cards) for t in before.tricks
                    ]
                    tricks.append((last.seat, tuple(parse_card(c) for c in last.cards)))
                    turned = GAME.format_action(before.info.turned).split()[1]
                    expected = spec_deal_scores(rules, turned, tricks, before.pot)
                    assert list(event.scores) == expected
                    for s in range(4):
                        assert event.scores[s] == event.card_points[s] + sum(
                            b[s]
                            for b in (
                                event.count_bonus,
                                event.tricks_bonus,
                                event.royals_bonus,
                                event.trumps_bonus,
                            )
                        )
                    pot = next(e for e in events if isinstance(e, PotAwarded))
                    top = max(event.tricks)
                    assert (pot.seat is None) == (event.tricks.count(top) > 1)
        assert state.phase is Phase.OVER
        assert GAME.invariant_failures(state) == []
        assert GAME.units_played(state) == 4
        assert outcome(state).scores == tuple(
            sum(row[i] for row in state.info.history) for i in range(4)
        )
    assert deals == 32


@pytest.mark.parametrize("options", OPTION_SETS)
def test_option_variants_play_out(options):
    rng = random.Random(str(options))
    for seed in range(15):
        state = GAME.new_game(4, options, seed=seed, scope="unit")
        while GAME.to_act(state) is not None:
            legal = GAME.legal_actions(state)
            state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
        assert GAME.invariant_failures(state) == []
        assert GAME.parse_position(GAME.format_position(state)) == state


@pytest.mark.parametrize("ruleset", ["pagat", "russian"])
def test_record_replay_reproduces_states_and_events(ruleset):
    table = Table(
        GAME,
        4,
        seed=11,
        seats=["bot:greedy", "bot:random", "bot:greedy", "bot:random"],
        options={"ruleset": ruleset, "deals": 3},
    )
    table.run_bots()
    assert table.is_over
    record = Record.loads(table.record.dumps())
    assert record == table.record
    rep = replay(record, GAME)
    assert rep.final == table.state
    assert [u.events for u in table.log] == list(rep.events)
    assert record.result == outcome(rep.final).to_json()
    # a record may start from an explicit position instead of a seed
    middle = rep.states[100]
    tail = Record(
        "mastheads", 4, 11, start=GAME.format_position(middle), actions=record.actions[100:]
    )
    assert replay(tail, GAME).final == table.state


def test_illegal_action_changes_nothing():
    state = GAME.new_game(4, seed=3)
    before = GAME.format_position(state)
    illegal = [a for a in range(104) if a not in GAME.legal_actions(state)]
    for action in illegal:
        with pytest.raises(ValueError):
            GAME.apply(state, action)
        assert GAME.explain_illegal(state, action).rule.startswith("M-")
    assert GAME.format_position(state) == before


@pytest.mark.parametrize("options", OPTION_SETS[:2])
def test_fast_playout_matches_the_contract_loop(options):
    """The mutable kernel reaches exactly the state the pure contract loop reaches."""
    for seed in range(12):
        start = GAME.new_game(4, {**options, "deals": 2}, seed=seed)
        skip = random.Random(seed).randrange(60)  # start some playouts mid-deal
        walk = random.Random(-seed)
        for _ in range(skip):
            legal = GAME.legal_actions(start)
            start, _ = GAME.apply(start, legal[walk.randrange(len(legal))])
        fast, taken = random_playout(start, random.Random(seed))
        rng = random.Random(seed)
        state, steps = start, 0
        deal = start.info.number
        while GAME.to_act(state) is not None and state.info.number == deal:
            legal = GAME.legal_actions(state)
            state, _ = GAME.apply(state, legal[int(rng.random() * len(legal))])
            steps += 1
        assert fast == state
        assert taken == steps
    over = random_finish(GAME.new_game(4, options, seed=1, scope="unit"), random.Random(1))[0]
    assert random_playout(over, random.Random(0)) == (over, 0)
