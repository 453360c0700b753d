"""Random playouts on the engine's mutable table.

``random_playout(state, rng)`` plays exactly what this loop plays::

    while state is not over:
        legal = legal_actions(state)
        state = apply_legal(state, legal[rng.randrange(len(legal))])

— same random numbers, same moves, same final state (a test checks it for many seeds) —
on one :class:`~cardtable.games.royal_casino.engine.Table` per hand, without events.  While
no build is on the table (about 70% of positions) it does not list the moves: it counts
each card's moves from the generator's plan for the loose cards and builds only the
chosen one (:func:`~cardtable.games.royal_casino.moves.move_without_builds`).  Used by
``cardtable bench`` and by search rollouts.
"""

from __future__ import annotations

import random

from cardtable.games.royal_casino.engine import Table, end_hand
from cardtable.games.royal_casino.moves import move_without_builds, template_of
from cardtable.games.royal_casino.state import (
    CAPVAL_BIT,
    VAL,
    Phase,
    RoyalCasinoAction,
    RoyalCasinoState,
)

__all__ = ["random_playout"]


def random_playout(state: RoyalCasinoState, rng: random.Random) -> tuple[RoyalCasinoState, int]:
    """Play uniformly random legal moves to the end; the final state and the move count."""
    actions = 0
    # random.Random.randrange(n) is _randbelow(n): draw bit_length(n) bits until below n.
    # For a plain Random that loop is inlined (same numbers, less call overhead).
    plain = type(rng) is random.Random
    while state.phase == Phase.PLAY:
        table = Table(state)
        while not table.hand_over:
            if table.builds:
                legal = table.moves()
                move = legal[_below(rng, len(legal), plain)]
            else:
                move = _random_move_without_builds(table, rng, plain)
            table.play(move, None)
            actions += 1
        state, _ = end_hand(table.state(), [])
    return state, actions


def _below(rng: random.Random, n: int, plain: bool) -> int:
    """``rng.randrange(n)``, drawn as it draws it."""
    if not plain:
        return rng.randrange(n)
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def _random_move_without_builds(table: Table, rng: random.Random, plain: bool) -> RoyalCasinoAction:
    """A uniformly random legal move on a table without builds: the move the generator
    lists at the index drawn, found by counting each card's moves."""
    hand = table.hands[table.turn]
    tpl, order = template_of(table.loose)
    cards: list[int] = []
    m = hand
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    guard_of: list[int] = []
    counts: list[int] = []
    total = 0
    for c in cards:
        guards = 0
        for o in cards:
            if o != c:
                guards |= CAPVAL_BIT[o]
        n = tpl.card_plan(VAL[c], guards)[0]
        guard_of.append(guards)
        counts.append(n)
        total += n
    k = _below(rng, total, plain)
    i = 0
    while k >= counts[i]:
        k -= counts[i]
        i += 1
    return move_without_builds(tpl, order, cards[i], guard_of[i], k)
