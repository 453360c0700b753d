"""Helpers for Royal Mastheads tests: explicit deals, plays from text, and a scorer written
straight from the spec's words (independent of the engine's scoring code)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardtable.cards import parse_card, parse_cards
from cardtable.core.game import Event, Outcome, Scope
from cardtable.games.royal_mastheads import GAME, OPTIONS, RoyalMastheadsState
from cardtable.games.royal_mastheads.rules import deal_from_hands
from cardtable.games.royal_mastheads.state import config_of

A, B, C, D = 0, 1, 2, 3

# The spec's worked example: D deals, 7H turned.
EXAMPLE_HANDS = (
    "KH QH JH 10H 8H 6H KS QS KD KC QC 2C 3D",
    "9H 7H 5H AH JS 10S 9S 7S JC 10C AC 4D 2D",
    "4H 3H 2H 6S 5S 3S QD JD 10D 9D 7D AD 3C",
    "8S 4S 2S AS 8D 6D 5D 9C 8C 7C 6C 5C 4C",
)
EXAMPLE_POT = ("2C 3D", "AC 2D", "AD 3S", "AS 4C")
EXAMPLE_TRICKS_1_TO_7 = (
    "KS 7S 5S 2S",
    "KC 10C 3C 5C",
    "KD 4D 7D 5D",
    "QS 9S 6S 4S",
    "QC JC 2H 6C",
    "QD 6D 6H 7H",
    "JS 9D 8S 8H",
)
EXAMPLE_TRICKS_8_TO_11 = ("KH AH 3H 7C", "QH 5H 4H 8D", "JH 9H 10D 8C", "10H 10S JD 9C")


def mask(text: str) -> int:
    """The mask of some cards given as text."""
    m = 0
    for c in parse_cards(text):
        m |= 1 << c
    return m


def deal(
    hands: Sequence[str],
    turned: str,
    dealer: int,
    options: dict[str, object] | None = None,
    scope: Scope = "unit",
    seed: int = 0,
) -> RoyalMastheadsState:
    """A state in the pot phase dealt explicitly (hands by seat, as text)."""
    cfg = config_of(OPTIONS.validate(options or {}))
    state, _ = deal_from_hands(
        cfg, seed, scope, 1, dealer, parse_card(turned), [mask(h) for h in hands]
    )
    assert GAME.invariant_failures(state) == []
    return state


def act(state: RoyalMastheadsState, text: str) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    """Apply one action given as text."""
    return GAME.apply(state, GAME.parse_action(state, text))


def act_all(
    state: RoyalMastheadsState, texts: Iterable[str]
) -> tuple[RoyalMastheadsState, list[Event]]:
    """Apply actions given as text (each a card, or ``pot``/``play`` and a card)."""
    events: list[Event] = []
    for text in texts:
        state, evs = act(state, text)
        events.extend(evs)
    return state, events


def play_tricks(
    state: RoyalMastheadsState, tricks: Iterable[str]
) -> tuple[RoyalMastheadsState, list[Event]]:
    """Play tricks given as text (four cards each, from the leader)."""
    events: list[Event] = []
    for trick in tricks:
        state, evs = act_all(state, trick.split())
        events.extend(evs)
    return state, events


def outcome(state: RoyalMastheadsState) -> Outcome:
    """The outcome of a finished game."""
    got = GAME.outcome(state)
    assert got is not None
    return got


def random_finish(
    state: RoyalMastheadsState, rng: random.Random
) -> tuple[RoyalMastheadsState, list[Event]]:
    """Play uniformly random legal actions to the end of the game."""
    events: list[Event] = []
    while GAME.to_act(state) is not None:
        legal = GAME.legal_actions(state)
        state, evs = GAME.apply(state, legal[rng.randrange(len(legal))])
        events.extend(evs)
    return state, events


def pot_all(state: RoyalMastheadsState, pots: Sequence[str]) -> RoyalMastheadsState:
    """Every seat's two pot cards, in turn from the dealer's left (pots by seat)."""
    dealer = state.info.dealer
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        for card in pots[seat].split():
            state, _ = act(state, "pot " + card)
    return state


def example(options: dict[str, object] | None = None) -> RoyalMastheadsState:
    """The worked example after the pot is complete (A to lead)."""
    return pot_all(deal(EXAMPLE_HANDS, "7H", D, options), EXAMPLE_POT)


# -- the spec's scoring, written out independently -----------------------------------
@dataclass(frozen=True)
class SpecRules:
    """The rules a scoring computation needs, named as in the spec's table."""

    ace_points: int
    double: str  # "masthead" or "trumps"
    count: str  # "mastheads" or "trumps"
    all_trumps: int


PAGAT = SpecRules(-10, "masthead", "mastheads", 2000)
RUSSIAN = SpecRules(10, "trumps", "trumps", 1000)


def spec_rules(options: dict[str, object]) -> SpecRules:
    """The spec rules of an options dict (only ``ruleset`` is read)."""
    return RUSSIAN if options.get("ruleset") == "russian" else PAGAT


def spec_card_points(rules: SpecRules, turned: str, captured: Sequence[int]) -> int:
    """M-12 … M-14 read from the spec: n-th card of a rank, in capture order."""
    trump_suit = parse_card(turned) // 13
    mast = parse_card(turned) % 13 + 1
    seen: dict[int, int] = {}
    total = 0
    for card in captured:
        rank, suit = card % 13 + 1, card // 13
        seen[rank] = seen.get(rank, 0) + 1
        nth = seen[rank]
        if rank == 1:
            value = rules.ace_points
            if rules.double == "masthead" and mast == 1:
                value *= 2
        else:
            value = nth * (2 if rank in (11, 12, 13) else 1)
            if rules.double == "masthead" and rank == mast:
                value *= 2
            if rules.double == "trumps" and suit == trump_suit:
                value *= 2
        total += value
    return total


def spec_bonus(rules: SpecRules, turned: str, captured: Sequence[int], tricks: int) -> int:
    """M-15 read from the spec's table."""
    trump_suit = parse_card(turned) // 13
    mast = parse_card(turned) % 13 + 1
    trumps = len([c for c in captured if c // 13 == trump_suit])
    heads = len([c for c in captured if c % 13 + 1 == mast])
    royals = len([c for c in captured if c % 13 + 1 in (11, 12, 13)])
    bonus = 0
    if rules.count == "mastheads":
        bonus += {3: 25, 4: 50}.get(heads, 0)
    else:
        bonus += {3: 25, 4: 50}.get(trumps, 0)
    bonus += {9: 100, 10: 200, 11: 400}.get(tricks, 0)
    if royals == 12:
        bonus += 1000
    elif 7 <= royals <= 11:
        bonus += 500
    if trumps == 13:
        bonus += rules.all_trumps
    return bonus


def spec_deal_scores(
    rules: SpecRules, turned: str, tricks: Sequence[tuple[int, Sequence[int]]], pot: Sequence[int]
) -> list[int]:
    """Deal scores (M-8, M-16) from (winner, cards in play order) tricks and the pot."""
    won = [0, 0, 0, 0]
    captured: list[list[int]] = [[], [], [], []]
    for winner, cards in tricks:
        won[winner] += 1
        captured[winner] += list(cards)
    leaders = [s for s in range(4) if won[s] == max(won)]
    if len(leaders) == 1:
        captured[leaders[0]] += list(pot)
    return [
        spec_card_points(rules, turned, captured[s])
        + spec_bonus(rules, turned, captured[s], won[s])
        for s in range(4)
    ]
