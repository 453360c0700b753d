"""End-of-hand, sweep, scoring and game-end scenarios CT35–CT53 (§2.3–2.5), from positions.

Game-end scenarios are played for real: a position at the last play of a hand whose piles
are built to the scenario's counts; the dealer trails one card, the leftover goes to the
last capturer, and the engine scores the hand and decides the game.
"""

from __future__ import annotations

from typing import Any

from cardtable.cards import format_card, parse_card
from cardtable.core.options import Options
from cardtable.games.royal_casino import GAME
from cardtable.games.royal_casino.events import Dealt, GameOver, HandScored
from cardtable.games.royal_casino.notation import human_cards
from cardtable.games.royal_casino.rules import play_order
from cardtable.games.royal_casino.scoring import net_sweeps, score_hand
from cardtable.games.royal_casino.state import OPTIONS, SPADES, RoyalCasinoState

from .helpers import assert_legal, play, pos, swept

ACES = ("AS", "AH", "AC", "AD")
SPECIAL = {"10D", "2S", *ACES}


Side = dict[str, Any]
"""A side's pile: ``cards``, ``spades`` (total, specials included), ``special`` cards."""


def make_piles(sides: list[Side]) -> list[int]:
    """Split the 52 cards into piles with the given counts and special cards."""
    piles = [0] * len(sides)
    used = 0
    for i, side in enumerate(sides):
        for text in side.get("special", ()):
            c = parse_card(str(text))
            piles[i] |= 1 << c
            used |= 1 << c
    # Unclaimed special cards (2S, aces, 10D) are used last, only when a count needs them.
    free_spades = sorted(
        (c for c in range(13) if not used >> c & 1), key=lambda c: format_card(c) in SPECIAL
    )
    for i, side in enumerate(sides):
        have = (piles[i] & SPADES).bit_count()
        for _ in range(int(side["spades"]) - have):
            c = free_spades.pop(0)
            piles[i] |= 1 << c
            used |= 1 << c
    others = sorted(
        (c for c in range(13, 52) if not used >> c & 1), key=lambda c: format_card(c) in SPECIAL
    )
    for i, side in enumerate(sides):
        for _ in range(int(side["cards"]) - piles[i].bit_count()):
            piles[i] |= 1 << others.pop(0)
    for i, side in enumerate(sides):
        assert piles[i].bit_count() == side["cards"]
        assert (piles[i] & SPADES).bit_count() == side["spades"]
    return piles


def last_play(
    sides: list[Side],
    scores: tuple[int, ...],
    sweeps: tuple[int, ...] = (0, 0),
    options: str = "",
    playoff: bool = False,
) -> tuple[RoyalCasinoState, tuple[object, ...]]:
    """Play the last trail of a hand whose piles end as ``sides`` say; side 0 captured last."""
    piles = make_piles(sides)
    n = len(sides)
    dealer = n - 1
    # The dealer trails a plain card of side 0's pile; it goes back to side 0 as leftover.
    card = next(c for c in range(13, 52) if piles[0] >> c & 1 and format_card(c) not in SPECIAL)
    piles[0] &= ~(1 << card)
    hands = ["-"] * n
    hands[dealer] = format_card(card)
    fields = [
        f"royal-casino {n}p",
        f"dealer=P{dealer + 1}",
        f"turn=P{dealer + 1}",
        "scores=" + " ".join(map(str, scores)),
        "hands=" + " / ".join(hands),
        "piles=" + " / ".join(human_cards(p) or "-" for p in piles),
        "sweeps=" + " ".join(map(str, sweeps)),
        "last=P1",
    ]
    if options:
        fields.append(f"options={options}")
    if playoff:
        fields.append("playoff=1")
    state = GAME.parse_position("; ".join(fields))
    return GAME.apply(state, GAME.legal_actions(state)[0])


def hand_points(events: tuple[object, ...]) -> tuple[int, ...]:
    return next(e.points for e in events if isinstance(e, HandScored))


def game_over(events: tuple[object, ...]) -> GameOver | None:
    return next((e for e in events if isinstance(e, GameOver)), None)


def opts(**kw: object) -> Options:
    return OPTIONS.validate(kw)


# -- §2.3 -----------------------------------------------------------------------------------
def test_CT35_leftover_cards_go_to_the_last_capturer_and_are_not_a_sweep() -> None:
    s = pos("royal-casino 2p; scope=unit; dealer=P2; turn=P2; hands=- / 7C; loose=4H 9C; last=P1")
    assert_legal(s, "TRAIL 7C")
    s2, events = play(s, "TRAIL 7C")
    assert s2.piles[0] == pos("hands=7C 4H 9C / -").hands[0]
    assert s2.sweeps == (0, 0)
    assert not swept(events)


def test_CT36_a_last_play_capture_that_clears_the_table_is_a_sweep() -> None:
    text = "royal-casino 2p; scope=unit; dealer=P2; turn=P2; hands=- / 7S; loose=3H 4D; last=P1"
    s = pos(text)
    assert_legal(s, "CAPTURE 7S: 3H 4D; TRAIL 7S")
    s2, events = play(s, "CAPTURE 7S: 3H 4D")
    assert swept(events) and s2.sweeps == (0, 1)
    assert s2.piles[0] == 0  # no leftovers
    off = pos(text + "; options=lastPlaySweepCounts:false")
    s3, events3 = play(off, "CAPTURE 7S: 3H 4D")
    assert not swept(events3) and s3.sweeps == (0, 0)


def test_CT37_plain_two_player_score() -> None:
    piles = make_piles(
        [
            {"cards": 27, "spades": 6, "special": ["AS", "10D", "AH"]},
            {"cards": 25, "spades": 7, "special": ["2S", "AC", "AD"]},
        ]
    )
    score = score_hand(piles, (2, 1), opts())
    assert [h.total for h in score] == [8, 4]
    assert (score[0].most_cards, score[0].big_casino, score[0].aces, score[0].sweeps) == (
        3,
        2,
        2,
        1,
    )
    assert sum(h.total for h in score) == 11 + 1


def test_CT38_tie_for_most_cards() -> None:
    piles = make_piles(
        [
            {"cards": 26, "spades": 8, "special": ["10D", "AS"]},
            {"cards": 26, "spades": 5, "special": ["2S", "AH", "AC", "AD"]},
        ]
    )
    assert [h.total for h in score_hand(piles, (0, 0), opts())] == [4, 4]


def test_CT39_three_players_ties() -> None:
    piles = make_piles(
        [
            {"cards": 18, "spades": 5, "special": ["10D"]},
            {"cards": 18, "spades": 5, "special": ["2S", "AS", "AH"]},
            {"cards": 16, "spades": 3, "special": ["AC", "AD"]},
        ]
    )
    assert [h.total for h in score_hand(piles, (0, 0, 0), opts())] == [2, 3, 2]


def test_CT40_sweep_cancellation() -> None:
    assert net_sweeps((3, 1)) == (2, 0)
    assert net_sweeps((2, 2, 1)) == (0, 0, 0)
    assert net_sweeps((3, 1, 0)) == (2, 0, 0)
    assert net_sweeps((1, 0, 0)) == (1, 0, 0)


# -- §2.4 -----------------------------------------------------------------------------------
def test_CT42_18_plus_most_cards_wins_whatever_the_opponent_scores() -> None:
    state, events = last_play(
        [
            {"cards": 28, "spades": 5},
            {"cards": 24, "spades": 8, "special": ["10D", "2S", *ACES]},
        ],
        scores=(18, 15),
        sweeps=(0, 2),
    )
    over = game_over(events)
    assert over is not None and over.winners == (0,)
    assert GAME.outcome(state) is not None and state.winners == (0,)


def test_CT43_18_without_most_cards_the_score_freezes() -> None:
    state, events = last_play(
        [
            {"cards": 24, "spades": 5, "special": ["10D", "AS", "AH"]},
            {"cards": 28, "spades": 8, "special": ["2S", "AC", "AD"]},
        ],
        scores=(18, 10),
        sweeps=(0, 1),
    )
    assert game_over(events) is None
    assert state.scores == (18, 18)
    assert hand_points(events)[1] == 8


def test_CT44_19_plus_big_casino() -> None:
    _, events = last_play(
        [
            {"cards": 20, "spades": 3, "special": ["10D"]},
            {"cards": 32, "spades": 10, "special": ["2S", *ACES]},
        ],
        scores=(19, 12),
        sweeps=(0, 1),
    )
    over = game_over(events)
    assert over is not None and over.winners == (0,)


def test_CT45_the_20_point_rule_both_settings() -> None:
    a = [
        {"cards": 22, "spades": 5, "special": ["2S", "AS", "AH"]},
        {"cards": 30, "spades": 8, "special": ["10D", "AC", "AD"]},
    ]
    _, ev = last_play(a, scores=(20, 14))
    assert (over := game_over(ev)) is not None and over.winners == (0,)
    st, ev = last_play(a, scores=(20, 14), options="rule20:MOST_SPADES")
    assert (over := game_over(ev)) is not None and over.winners == (1,)
    assert st.scores == (20, 22)
    b = [
        {"cards": 22, "spades": 7, "special": ["AS", "AH"]},
        {"cards": 30, "spades": 6, "special": ["2S", "10D", "AC", "AD"]},
    ]
    _, ev = last_play(b, scores=(20, 14), options="rule20:MOST_SPADES")
    assert (over := game_over(ev)) is not None and over.winners == (0,)
    st, ev = last_play(b, scores=(20, 14))
    assert (over := game_over(ev)) is not None and over.winners == (1,)
    assert st.scores == (20, 22)


def test_CT47_both_unrestricted_sides_pass_21() -> None:
    st, ev = last_play(
        [
            {"cards": 27, "spades": 6, "special": ["10D", "AS"]},
            {"cards": 25, "spades": 7, "special": ["2S", "AH", "AC", "AD"]},
        ],
        scores=(17, 16),
    )
    assert hand_points(ev) == (6, 5)
    assert st.scores == (23, 21) and st.winners == (0,)


def test_CT48_tie_at_21_or_more_goes_to_play_off_hands() -> None:
    sides: list[Side] = [
        {"cards": 27, "spades": 6, "special": ["10D", "AS"]},
        {"cards": 25, "spades": 7, "special": ["2S", "AH", "AC", "AD"]},
    ]
    st, ev = last_play(sides, scores=(16, 17))
    assert game_over(ev) is None
    assert st.scores == (22, 22) and st.playoff
    assert GAME.to_act(st) is not None and st.hand_no == 2
    # In a play-off hand nobody is restricted and the strictly higher score wins.
    # Sweeps score in a play-off hand, even at 22 (C7.4).
    st2, ev2 = last_play(sides, scores=(22, 22), sweeps=(1, 0), playoff=True)
    assert hand_points(ev2) == (7, 5)
    assert st2.winners == (0,) and st2.scores == (29, 27)
    # A play-off hand that ends level is followed by another one.
    even: list[Side] = [
        {"cards": 26, "spades": 8, "special": ["10D", "AS"]},
        {"cards": 26, "spades": 5, "special": ["2S", "AH", "AC", "AD"]},
    ]
    st3, ev3 = last_play(even, scores=(22, 22), playoff=True)
    assert game_over(ev3) is None and st3.playoff and st3.scores == (26, 26)


def test_CT50_17_is_not_a_restricted_score() -> None:
    st, ev = last_play(
        [
            {"cards": 27, "spades": 6, "special": ["AS"]},
            {"cards": 25, "spades": 7, "special": ["10D", "2S", "AH", "AC", "AD"]},
        ],
        scores=(17, 12),
    )
    assert hand_points(ev)[0] == 4
    assert st.winners == (0,) and st.scores[0] == 21


def test_CT51_three_players_18_with_a_tie_for_most_cards() -> None:
    st, ev = last_play(
        [
            {"cards": 18, "spades": 5},
            {"cards": 18, "spades": 4},
            {"cards": 16, "spades": 4},
        ],
        scores=(18, 0, 0),
        sweeps=(0, 0, 0),
    )
    assert game_over(ev) is None
    assert st.scores[0] == 18


# -- C10.4: two restricted sides meet their requirement in the same hand ---------------------
ISSUE_11_POSITION = (
    "royal-casino 2p; scores=18 19; dealer=P2; turn=P2; hands=- / 2C; piles=3C 4C 5C / 10D; last=P1"
)
"""P1 (at 18) ends with most cards, P2 (at 19) with 10♦: both meet their requirement."""


def test_C10_4_the_side_that_loses_on_precedence_stays_where_it_is() -> None:
    # Most cards comes before 10♦ in the C9.4 order: P1 wins with 18 + 3 = 21, and P2,
    # restricted and not the winner, is not credited its 2 points (step 2 → step 3).
    st, ev = play(pos(ISSUE_11_POSITION), "trail 2C")
    assert hand_points(ev) == (3, 2)
    assert st.scores == (21, 19)
    assert st.winners == (0,)
    over = game_over(ev)
    assert over is not None and over.winners == (0,) and over.scores == (21, 19)
    scored = next(e for e in ev if isinstance(e, HandScored))
    assert scored.scores == (21, 19)


def test_C10_4_three_players_the_winner_and_unrestricted_sides_are_credited() -> None:
    # P1 at 19 takes 10♦, P2 at 20 takes 2♠ (LITTLE_CASINO): 10♦ comes first, so P1 wins;
    # P2 stays at 20; P3, unrestricted, adds its 3 + 1 + 4 = 8 points to 10.
    st, ev = last_play(
        [
            {"cards": 16, "spades": 3, "special": ["10D"]},
            {"cards": 16, "spades": 3, "special": ["2S"]},
            {"cards": 20, "spades": 7, "special": list(ACES)},
        ],
        scores=(19, 20, 10),
        sweeps=(0, 0, 0),
    )
    assert hand_points(ev) == (2, 1, 8)
    assert st.winners == (0,)
    assert st.scores == (21, 20, 18)


def test_C10_4_cap_at_20_the_losing_side_is_capped_like_any_restricted_loser() -> None:
    # With nearTargetMiss=CAP_AT_20 the side that loses on precedence is updated as in step
    # 3, like every restricted side that does not win: hand points without sweeps, at most 20.
    st, _ = play(pos(ISSUE_11_POSITION + "; options=nearTargetMiss:CAP_AT_20"), "trail 2C")
    assert st.scores == (21, 20)
    assert st.winners == (0,)


# -- §2.5 -----------------------------------------------------------------------------------
def test_CT52_four_player_seating_and_rotation() -> None:
    assert play_order(3, 4, 1) == [0, 1, 2, 3]
    assert GAME.sides(4) == ((0, 2), (1, 3))
    st, _ = last_play(
        [
            {"cards": 27, "spades": 6},
            {"cards": 25, "spades": 7},
            {"cards": 0, "spades": 0},
            {"cards": 0, "spades": 0},
        ][:2],
        scores=(0, 0),
    )
    # Two-player check of the rotation mechanism: dealer P2 → next dealer P1, P2 leads.
    assert (st.dealer, st.turn) == (0, 1)
    four = pos("royal-casino 4p; dealer=P4; turn=P4; hands=- / - / - / 7C; loose=4H; last=P1")
    s2, _ = GAME.apply(four, GAME.legal_actions(four)[0])
    assert (s2.dealer, s2.turn) == (0, 1)
    cw = pos(
        "royal-casino 4p; options=direction:CW; dealer=P4; turn=P4; hands=- / - / - / 7C; "
        "loose=4H; last=P1"
    )
    s3, _ = GAME.apply(cw, GAME.legal_actions(cw)[0])
    assert play_order(3, 4, -1) == [2, 1, 0, 3]
    assert (s3.dealer, s3.turn) == (2, 1)


def test_CT53_deal_structure() -> None:
    import random

    for players, deals in ((2, 6), (3, 4), (4, 3)):
        s = GAME.new_game(players, seed=players, scope="unit")
        assert s.loose.bit_count() == 4 and all(h.bit_count() == 4 for h in s.hands)
        rng = random.Random(players)
        dealt = []
        while GAME.to_act(s) is not None:
            moves = GAME.legal_actions(s)
            s, events = GAME.apply(s, moves[rng.randrange(len(moves))])
            dealt += [e for e in events if isinstance(e, Dealt)]
        assert len(dealt) == deals - 1
        assert all(not e.table for e in dealt)
        assert not s.stock and not any(s.hands) and not s.builds
