"""Random playouts on the engine's mutable board.

``random_playout(state, rng)`` plays exactly what this loop plays::

    while state is not over:
        legal = legal_actions(state)
        state = apply_legal(state, legal[rng.randrange(len(legal))])

— same random numbers, same moves, same final state (a test checks it for many seeds) —
on one :class:`~cardtable.games.royal_casino.engine.Board` per hand, without events.  While
no build is on the table (about 70% of positions) it does not list the moves: it counts
each card's moves from the generator's plan for the loose cards and builds only the
chosen one (:func:`~cardtable.games.royal_casino.moves.move_without_builds`).  Used by
``cardtable bench`` and by search rollouts.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtable.games.royal_casino.engine import Board, end_hand
from cardtable.games.royal_casino.moves import (
    EMPTY_TEMPLATE,
    MoveParts,
    move_without_builds,
    template_key,
)
from cardtable.games.royal_casino.state import (
    CAPVAL_BIT,
    VAL,
    Phase,
    RoyalCasinoState,
)

__all__ = ["random_playout"]


def random_playout(state: RoyalCasinoState, rng: random.Random) -> tuple[RoyalCasinoState, int]:
    """Play uniformly random legal moves to the end; the final state and the move count."""
    actions = 0
    # random.Random.randrange(n) is _randbelow(n): draw bit_length(n) bits until below n.
    # For a plain Random that loop is inlined on its bound getrandbits (same numbers, less
    # call overhead); a subclass is asked through its own randrange.
    plain = rng.getrandbits if type(rng) is random.Random else None
    while state.phase == Phase.PLAY:
        board = Board(state)
        while not board.hand_over:
            if board.builds:
                legal = board.moves()
                board.play(legal[_below(rng, len(legal), plain)], None)
            else:
                kind, card, value, multi, named, used = _random_move_without_builds(
                    board, rng, plain
                )
                board.play_parts(kind, card, value, multi, named, used, None)
            actions += 1
        state, _ = end_hand(board.state(), [])
    return state, actions


def _below(rng: random.Random, n: int, plain: Callable[[int], int] | None) -> int:
    """``rng.randrange(n)``, drawn as it draws it (``plain``: its ``getrandbits``)."""
    if plain is None:
        return rng.randrange(n)
    bits = n.bit_length()
    r = plain(bits)
    while r >= n:
        r = plain(bits)
    return r


def _random_move_without_builds(
    board: Board, rng: random.Random, plain: Callable[[int], int] | None
) -> MoveParts:
    """A uniformly random legal move on a board without builds: the move the generator
    lists at the index drawn, found by counting each card's moves."""
    hand = board.hands[board.turn]
    loose = board.loose
    tpl = template_key(loose) if loose else EMPTY_TEMPLATE
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
        n = tpl.count_moves(VAL[c], guards)
        guard_of.append(guards)
        counts.append(n)
        total += n
    k = _below(rng, total, plain)
    i = 0
    while k >= counts[i]:
        k -= counts[i]
        i += 1
    return move_without_builds(tpl, loose, cards[i], guard_of[i], k)
