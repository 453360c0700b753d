"""The greedy bot: legal, view-only, and the heuristics the issue asks for."""

from __future__ import annotations

import random

from cardtable.bots import make_bot
from cardtable.cards import format_card
from cardtable.games.royal_mastheads import GAME, RoyalMastheadsState
from cardtable.games.royal_mastheads.greedy import MastheadsGreedyBot
from cardtable.tables import Table

from .helpers import A, act_all, deal, outcome, pot_all

BOT = MastheadsGreedyBot()

HANDS = (
    "AS 2S 9S KS 3H 8H QH 4D 7D JD 5C 10C KC",
    "3S 4S 10S QS 2H 9H KH 2D 8D QD 6C JC QC",
    "5S 6S JS 4H 5H 10H JH AH 3D 9D 10D 2C 7C",
    "7S 8S 6H 7H AD 5D 6D KD AC 3C 4C 8C 9C",
)
# B is void in clubs; C holds 2C and KC; hearts are trumps.
CLUB_HANDS = (
    "QC 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
    "AD 3D 2D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    "2C KC AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
    "AS QH KH AC 3C 4C 5C 6C 7C 8C 9C 10C JC",
)
CLUB_POTS = ("2S 3S", "2D 4D", "AH 2H", "3C 4C")


def choice(state: RoyalMastheadsState) -> str:
    seat = GAME.to_act(state)
    action = BOT.choose(GAME.view(state, seat), GAME.legal_actions(state), random.Random(0))
    assert action in GAME.legal_actions(state)
    return GAME.format_action(action)


def test_registered_for_royal_mastheads():
    assert make_bot("greedy", GAME).name == "greedy"


def test_pot_keeps_negative_aces_under_pagat_to_drop_on_others_tricks():
    state = deal(HANDS, "7H", dealer=3)  # A (seat 0) chooses first
    assert GAME.to_act(state) == A
    assert choice(state) == "pot 2S"  # the lowest plain card; AS (-10) is kept for later


def test_pot_keeps_aces_under_russian():
    state = deal(HANDS, "7H", dealer=3, options={"ruleset": "russian"})
    assert choice(state) == "pot 2S"  # the lowest plain card; AS (+10, high) is kept


def test_pot_low_singleton_before_other_low_cards():
    hand = "2S 3S 4S 5S 6S 3H 8H QH 4D 7D JD 8D 7C"  # 7C is the only club
    rest = [c for c in range(52) if format_card(c) not in hand.split()]
    others = [" ".join(format_card(c) for c in rest[13 * i : 13 * i + 13]) for i in range(3)]
    state = deal((hand, *others), "KH", dealer=3)  # kings are mastheads, not sevens
    assert choice(state) == "pot 7C"


def club_trick(second: str) -> RoyalMastheadsState:
    state = pot_all(deal(CLUB_HANDS, "7H", dealer=3), CLUB_POTS)
    state, _ = act_all(state, ["QC", second])
    assert GAME.to_act(state) == 2
    return state


def test_ducks_a_trick_full_of_aces():
    # QC (+2) and AD (-10): the trick is worth less than nothing -> C ducks with 2C
    assert choice(club_trick("AD")) == "play 2C"


def test_wins_a_trick_holding_a_royal_with_the_cheapest_winner():
    # QC and 3D: a royal is in the trick -> C wins it with KC
    state = club_trick("3D")
    assert choice(state) == "play KC"
    state, _ = act_all(state, ["KC"])
    # D cannot beat KC: it sheds its ace of clubs (-10) onto C's trick
    assert choice(state) == "play AC"


def test_bot_sees_only_the_view():
    """Shuffling the cards hidden from the bot's seat never changes its choice."""
    rng = random.Random(5)
    state = GAME.new_game(4, seed=5)
    for _ in range(120):
        seat = GAME.to_act(state)
        if seat is None:
            break
        legal = GAME.legal_actions(state)
        mine = BOT.choose(GAME.view(state, seat), legal, random.Random(0))
        twin = GAME.shuffle_hidden(state, seat, rng)
        assert BOT.choose(GAME.view(twin, seat), legal, random.Random(0)) == mine
        state, _ = GAME.apply(state, mine)


def test_greedy_beats_random_over_a_few_sets():
    greedy = random_total = 0
    for seed in range(6):
        table = Table(
            GAME,
            4,
            seed=seed,
            seats=["bot:greedy", "bot:random", "bot:greedy", "bot:random"],
            options={"deals": 3},
        )
        table.run_bots()
        scores = outcome(table.state).scores
        greedy += scores[0] + scores[2]
        random_total += scores[1] + scores[3]
    assert greedy > random_total
