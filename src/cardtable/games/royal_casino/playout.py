"""A fast random playout: the same game as the contract loop, without its allocations.

``random_playout(state, rng)`` plays exactly what this loop plays::

    while state is not over:
        legal = legal_actions(state)
        state = apply_legal(state, legal[rng.randrange(len(legal))])

— same random numbers, same moves, same final state (a test checks it for many seeds) —
but on mutable locals, without events, and without listing every move: while no build is
on the table (about 70% of positions) it counts the moves from the value template of the
loose cards and builds only the chosen one.  Positions with builds go through the
generator itself.  Used by ``cardtable bench`` and by search rollouts.
"""

from __future__ import annotations

import random

from cardtable.cards import mask_cards
from cardtable.games.royal_casino.rules import (
    _BIT_VALUES,
    _EMPTY,
    _end_hand,
    _Template,
    _to_cards,
    legal_actions,
    partition,
    play_order,
    template_key,
    value_order,
)
from cardtable.games.royal_casino.state import (
    CAPVAL_BIT,
    RANK_MASK,
    VAL,
    Build,
    Kind,
    Phase,
    RoyalCasinoState,
)

__all__ = ["random_playout"]


def random_playout(state: RoyalCasinoState, rng: random.Random) -> tuple[RoyalCasinoState, int]:
    """Play uniformly random legal moves to the end; the final state and the move count."""
    actions = 0
    while state.phase == Phase.PLAY:
        state, n = _play_hand(state, rng)
        actions += n
    return state, actions


def _play_hand(state: RoyalCasinoState, rng: random.Random) -> tuple[RoyalCasinoState, int]:
    """Play to the end of the current hand (scored, and the next one dealt if any)."""
    players = state.players
    step = state.step
    four = players == 4
    last_play_sweeps = bool(state.options["lastPlaySweepCounts"])
    hands = list(state.hands)
    stock = state.stock
    loose = state.loose
    builds = state.builds
    piles = list(state.piles)
    sweeps = list(state.sweeps)
    last = state.last_capturer
    turn = state.turn
    actions = 0
    randrange = rng.randrange
    # random.Random.randrange(n) is _randbelow(n): draw bit_length(n) bits until below n.
    # For a plain Random that loop is inlined (same numbers, less call overhead).
    plain = type(rng) is random.Random
    getrandbits = rng.getrandbits
    while True:
        p = turn
        side = p % 2 if four else p
        actions += 1
        if builds:
            # Builds on the table: the generator lists the moves; they are applied here.
            snap = tuple.__new__(
                RoyalCasinoState,
                (
                    players,
                    state.options,
                    state.scope,
                    state.seed,
                    state.hand_no,
                    state.dealer,
                    p,
                    Phase.PLAY,
                    tuple(hands),
                    stock,
                    loose,
                    builds,
                    tuple(piles),
                    tuple(sweeps),
                    last,
                    state.scores,
                    state.playoff,
                    (),
                    state.last_hand_points,
                ),
            )
            legal = legal_actions(snap)
            n_legal = len(legal)
            if plain:
                bits = n_legal.bit_length()
                r = getrandbits(bits)
                while r >= n_legal:
                    r = getrandbits(bits)
                move = legal[r]
            else:
                move = legal[randrange(n_legal)]
            c = move.card
            bit = 1 << c
            hands[p] &= ~bit
            kind = move.kind
            used = move.loose
            loose &= ~used
            if kind == Kind.TRAIL:
                loose |= bit
            elif kind == Kind.CAPTURE:
                taken = bit | used
                kept = []
                for i, b in enumerate(builds):
                    if move.builds >> i & 1:
                        taken |= b.mask
                    else:
                        kept.append(b)
                builds = tuple(kept)
                piles[side] |= taken
                last = p
                if not loose and not builds and (last_play_sweeps or any(hands) or stock):
                    sweeps[side] += 1
            elif kind == Kind.BUILD:
                full = bit | used
                comps = (partition(full, move.value) or (full,)) if move.multi else (full,)
                builds = (*builds, Build(move.value, move.multi, p, full, comps))
            else:
                i = move.builds.bit_length() - 1
                b = builds[i]
                if kind == Kind.ADD:
                    added = partition(bit | used, b.value) or (bit | used,)
                    nb = Build(b.value, True, p, b.mask | bit | used, b.comps + added)
                else:
                    absorbed = partition(used, move.value) or ()
                    nb = Build(
                        move.value, bool(used), p, b.mask | bit | used, (b.mask | bit, *absorbed)
                    )
                builds = (*builds[:i], nb, *builds[i + 1 :])
        else:
            hand = hands[p]
            cards = mask_cards(hand)
            tpl = template_key(loose) if loose else _EMPTY
            tpl_caps = tpl.caps
            sums = tpl.sums
            has_groups = tpl.groups
            # Count the moves card by card, in the generator's order.
            counts = []
            total = 0
            for c in cards:
                guards = 0
                for o in cards:
                    if o != c:
                        guards |= CAPVAL_BIT[o]
                vc = VAL[c]
                n = 0 if loose & RANK_MASK[vc - 1] else 1
                caps = tpl_caps[vc]
                if caps is None:
                    caps = tpl.captures(vc)
                n += len(caps) - (1 if caps and not caps[0] else 0)
                if loose:
                    for value in _BIT_VALUES[guards >> 2]:
                        need = value - vc
                        if need >= 1:
                            n += len(sums[need])
                        if has_groups[value] and (
                            need == 0 or (value == 14 and vc == 1) or (need >= 1 and sums[need])
                        ):
                            n += len(tpl.multi_builds(vc, value))
                counts.append((c, guards, n))
                total += n
            if plain:
                bits = total.bit_length()
                k = getrandbits(bits)
                while k >= total:
                    k = getrandbits(bits)
            else:
                k = randrange(total)
            for chosen in counts:
                if k < chosen[2]:
                    break
                k -= chosen[2]
            c, guards, _ = chosen
            bit = 1 << c
            vc = VAL[c]
            hands[p] = hand & ~bit
            if not loose & RANK_MASK[vc - 1]:
                if k == 0:
                    loose |= bit  # trail
                    k = -1
                else:
                    k -= 1
            if k >= 0:
                order = value_order(loose)
                caps_n = [i for i in tpl.captures(vc) if i]
                if k < len(caps_n):
                    taken = _to_cards(caps_n[k], order)
                    loose &= ~taken
                    piles[side] |= bit | taken
                    last = p
                    if not loose and (last_play_sweeps or any(hands) or stock):
                        sweeps[side] += 1
                else:
                    k -= len(caps_n)
                    builds = (_chosen_build(tpl, order, p, c, guards, k),)
                    loose &= ~builds[0].mask
        # whose turn next
        turn = (p + step) % players
        if not hands[turn]:
            if any(hands):
                while not hands[turn]:
                    turn = (turn + step) % players
            elif stock:
                order_ = play_order(state.dealer, players, step)
                pos = 0
                for seat in order_:
                    m = 0
                    for x in stock[pos : pos + 4]:
                        m |= 1 << x
                    hands[seat] = m
                    pos += 4
                stock = stock[pos:]
                turn = order_[0]
            else:
                state = _snapshot(state, turn, hands, stock, loose, piles, sweeps, last)
                end, _ = _end_hand(state._replace(builds=builds), [])
                return end, actions


def _chosen_build(tpl: _Template, order: list[int], p: int, c: int, guards: int, k: int) -> Build:
    """The k-th new build (in the generator's order) of card ``c`` on a table of loose
    cards only."""
    vc = VAL[c]
    bit = 1 << c
    sums = tpl.sums
    for value in _BIT_VALUES[guards >> 2]:
        need = value - vc
        singles = sums[need] if need >= 1 else ()
        if k < len(singles):
            full = bit | _to_cards(singles[k], order)
            return Build(value, False, p, full, (full,))
        k -= len(singles)
        if tpl.groups[value] and (
            need == 0 or (value == 14 and vc == 1) or (need >= 1 and sums[need])
        ):
            multis = tpl.multi_builds(vc, value)
            if k < len(multis):
                full = bit | _to_cards(multis[k], order)
                return Build(value, True, p, full, partition(full, value) or (full,))
            k -= len(multis)
    raise AssertionError("the move count and the moves disagree")


def _snapshot(
    state: RoyalCasinoState,
    turn: int,
    hands: list[int],
    stock: tuple[int, ...],
    loose: int,
    piles: list[int],
    sweeps: list[int],
    last: int,
) -> RoyalCasinoState:
    """The state of the playout's locals."""
    return state._replace(
        turn=turn,
        phase=Phase.PLAY,
        hands=tuple(hands),
        stock=stock,
        loose=loose,
        piles=tuple(piles),
        sweeps=tuple(sweeps),
        last_capturer=last,
        winners=(),
    )
