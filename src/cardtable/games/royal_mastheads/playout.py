"""A fast random-playout kernel for search and benchmarks (STYLE principle 3: a mutable fast
path behind the same contract, checked against the pure one).

:func:`random_playout` plays uniformly random legal actions to the end of the current deal
with plain ints and lists, no per-action state or event objects; after the deal's last
trick :func:`~cardtable.games.royal_mastheads.rules.finish_deal` scores it and deals the
next one as :func:`~cardtable.games.royal_mastheads.rules.apply_legal` does (without its
events).  Given the same generator it returns exactly the state the
contract loop ``legal = legal_actions(s); s = apply(s, legal[int(rng.random() * len(legal))])``
reaches (the tests check this).

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> s = GAME.new_game(4, seed=1, scope="unit")
>>> end, n = random_playout(s, random.Random(2))
>>> GAME.to_act(end) is None, n
(True, 52)
"""

from __future__ import annotations

import random

from cardtable.games.royal_mastheads.rules import (
    _PLAY_T,
    _STRENGTH,
    _fill,
    finish_deal,
)
from cardtable.games.royal_mastheads.state import (
    BIT,
    SUIT,
    Phase,
    RoyalMastheadsState,
    Trick,
)

__all__ = ["random_playout"]

_POP13: tuple[int, ...] = tuple(m.bit_count() for m in range(1 << 13))
"""The number of cards in each 13-bit suit mask."""


def _kth(hand: int, k: int) -> int:
    """The ``k``-th card (0-based, in index order) of a hand mask: ``cards_of(hand)[k]``
    without building the tuple of every card."""
    for s in range(4):
        m = hand >> (13 * s) & 0x1FFF
        n = _POP13[m]
        if k < n:
            key = s << 13 | m
            got = _PLAY_T[key]
            return got[k] if got is not None else _fill(_PLAY_T, 0, key)[k]
        k -= n
    raise ValueError("the hand has fewer cards")


def random_playout(
    state: RoyalMastheadsState, rng: random.Random
) -> tuple[RoyalMastheadsState, int]:
    """Random legal actions to the end of the current deal: the final state (the next deal
    dealt, or the game over) and the number of actions taken."""
    if state.phase is Phase.OVER:
        return state, 0
    info = state.info
    random_ = rng.random
    hands = list(state.hands)
    pot = list(state.pot)
    taken = 0
    dealer = info.dealer
    while len(pot) < 8:
        seat = (dealer + 1 + (len(pot) >> 1)) & 3
        hand = hands[seat]
        card = _kth(hand, int(random_() * hand.bit_count()))
        hands[seat] ^= BIT[card]
        pot.append(card)
        taken += 1
    strength = _STRENGTH[info.cfg.ace_high][info.turned // 13]
    trick = list(state.trick)
    leader = state.leader
    tricks = list(state.tricks)
    while True:
        seat = (leader + len(trick)) & 3
        hand = hands[seat]
        card = -1
        if trick:
            led = SUIT[trick[0]]
            m = hand >> (13 * led) & 0x1FFF
            if m:
                key = led << 13 | m
                got = _PLAY_T[key]
                legal = got if got is not None else _fill(_PLAY_T, 0, key)
                card = legal[int(random_() * len(legal))]
        if card < 0:
            card = _kth(hand, int(random_() * hand.bit_count()))
        taken += 1
        if len(tricks) == 10 and len(trick) == 3:
            hands[seat] = hand ^ BIT[card]
            trick.append(card)
            table = strength[SUIT[trick[0]]]
            best, w = table[trick[0]], 0
            for i in (1, 2, 3):
                v = table[trick[i]]
                if v > best:
                    best, w = v, i
            tricks.append(Trick(leader, (leader + w) & 3, (trick[0], trick[1], trick[2], trick[3])))
            last = tuple.__new__(
                RoyalMastheadsState,
                (
                    info,
                    Phase.PLAY,
                    (hands[0], hands[1], hands[2], hands[3]),
                    tuple(pot),
                    (),
                    leader,
                    (),
                ),
            )
            return finish_deal(last, tuple(tricks)), taken
        hands[seat] = hand ^ BIT[card]
        trick.append(card)
        if len(trick) == 4:
            table = strength[SUIT[trick[0]]]
            best, w = table[trick[0]], 0
            for i in (1, 2, 3):
                v = table[trick[i]]
                if v > best:
                    best, w = v, i
            winner = (leader + w) & 3
            tricks.append(Trick(leader, winner, (trick[0], trick[1], trick[2], trick[3])))
            trick = []
            leader = winner
