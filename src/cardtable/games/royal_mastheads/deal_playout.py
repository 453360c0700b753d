"""A fast random playout of the rest of a Royal Mastheads deal, for the search.

The playout works on hand masks instead of building a :class:`RoyalMastheadsState` per card;
the rules
it uses are the game's own: follow suit (M-10), the trick-strength tables of
:func:`rules.strength_table` (M-11), and the game's scoring functions
(:func:`scoring.pot_winner`, :func:`scoring.card_points`, :func:`scoring.bonuses`,
assembled as :func:`scoring.score_deal` does).  ``tests/bots`` checks it against playing
the same cards through the contract.

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> s = GAME.new_game(4, seed=1, scope="unit")
>>> len(playout(s, random.Random(0)))
4
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.games.royal_mastheads.rules import strength_table
from cardtable.games.royal_mastheads.scoring import bonuses, card_points, pot_winner
from cardtable.games.royal_mastheads.state import (
    BIT,
    POT_BASE,
    RANK,
    SUIT,
    Phase,
    RoyalMastheadsState,
)

__all__ = ["playout", "score_captures"]

_SUIT_CARDS: list[list[tuple[int, ...] | None]] = [[None] * 8192 for _ in range(4)]


def _cards(suit: int, m13: int) -> tuple[int, ...]:
    got = _SUIT_CARDS[suit][m13]
    if got is None:
        got = tuple(suit * 13 + i for i in range(13) if m13 >> i & 1)
        _SUIT_CARDS[suit][m13] = got
    return got


def _pick(hand: int, rnd: float) -> int:
    """A card of ``hand`` chosen by ``rnd`` in [0, 1), uniformly."""
    n = hand.bit_count()
    k = int(rnd * n)
    for s in range(4):
        m = hand >> (13 * s) & 0x1FFF
        if m:
            c = m.bit_count()
            if k < c:
                return _cards(s, m)[k]
            k -= c
    raise ValueError("empty hand")


_Tables = tuple[tuple[int, ...], tuple[int, ...], list[tuple[int, ...]]]
_TABLES: dict[tuple[str, int], _Tables] = {}


def _tables(state: RoyalMastheadsState) -> _Tables:
    """Per card: its progression unit and flat value, read off the game's ``card_points``
    (the first card of a rank scores ``unit``; the k-th ``unit * k``; aces score ``flat``),
    and the trick-strength table for each suit led."""
    info = state.info
    cfg = info.cfg
    key = (cfg.text, info.turned)
    got = _TABLES.get(key)
    if got is None:
        unit = []
        flat = []
        for c in range(52):
            v = card_points(cfg, info.turned, (c,))
            if RANK[c] == 1:
                unit.append(0)
                flat.append(v)
            else:
                unit.append(v)
                flat.append(0)
        strength = [strength_table(cfg.ace_high, info.turned // 13, led) for led in range(4)]
        got = _TABLES[key] = (tuple(unit), tuple(flat), strength)
    return got


def score_captures(
    state: RoyalMastheadsState,
    captured: Sequence[Sequence[int]],
    counts: Sequence[int],
    pot: Sequence[int],
) -> tuple[int, int, int, int]:
    """Each seat's deal score from its trick captures (in capture order) and trick counts."""
    info = state.info
    cfg = info.cfg
    turned = info.turned
    unit, flat, _strength = _tables(state)
    seat = pot_winner(counts)
    scores = [0, 0, 0, 0]
    for s in range(4):
        cs = captured[s]
        if s == seat:
            cs = [*cs, *pot]
        mask = 0
        ranks = [0] * 14
        total = 0
        for c in cs:
            mask |= BIT[c]
            r = RANK[c]
            n = ranks[r] + 1
            ranks[r] = n
            total += unit[c] * n + flat[c]
        b = bonuses(cfg, turned, mask, counts[s])
        scores[s] = total + b[0] + b[1] + b[2] + b[3]
    return (scores[0], scores[1], scores[2], scores[3])


def playout(
    state: RoyalMastheadsState,
    rng: random.Random,
    greedy: float = 0.0,
    record: list[int] | None = None,
) -> tuple[int, int, int, int]:
    """Play the rest of the deal (legal moves only); each seat's deal score.

    With ``greedy`` = 0 every card is chosen at random.  Otherwise each player who follows
    to a trick plays, with probability ``greedy``, as the greedy bot does: it wins a trick
    worth something with its cheapest winning card, else sheds its least valuable card
    (``pagat``'s negative aces first, onto another player's trick); leads stay random.
    ``record``, when given, receives the actions played, in order (for tests).
    """
    rnd = rng.random
    info = state.info
    hands = list(state.hands)
    pot = list(state.pot)
    if state.phase is Phase.POT:
        while len(pot) < 8:
            seat = (info.dealer + 1 + (len(pot) >> 1)) & 3
            c = _pick(hands[seat], rnd())
            hands[seat] ^= BIT[c]
            pot.append(c)
            if record is not None:
                record.append(POT_BASE + c)
    by_suit = [[list(_cards(s, h >> (13 * s) & 0x1FFF)) for s in range(4)] for h in hands]
    captured: list[list[int]] = [[], [], [], []]
    counts = [0, 0, 0, 0]
    for t in state.tricks:
        captured[t.winner].extend(t.cards)
        counts[t.winner] += 1
    unit, flat, tables = _tables(state)
    leader = state.leader
    done = len(state.tricks)
    trick = list(state.trick)
    fresh = len(trick)
    while done < 11:
        if trick:
            led = SUIT[trick[0]]
            start = len(trick)
        else:
            c = _pop_any(by_suit[leader], rnd())
            trick = [c]
            led = SUIT[c]
            start = 1
        table = tables[led]
        if greedy:
            top = max(table[c] for c in trick)
            worth = sum(unit[c] + flat[c] for c in trick)
        for i in range(start, 4):
            suits = by_suit[(leader + i) & 3]
            lst = suits[led]
            if greedy and rnd() < greedy:
                if lst:
                    j = _greedy_index(lst, table, unit, flat, top, worth)
                    c = lst.pop(j)
                else:
                    c = _greedy_shed(suits, table, unit, flat, top, worth)
                trick.append(c)
                v = table[c]
                if v > top:
                    top = v
                worth += unit[c] + flat[c]
                continue
            c = lst.pop(int(rnd() * len(lst))) if lst else _pop_any(suits, rnd())
            trick.append(c)
            if greedy:
                v = table[c]
                if v > top:
                    top = v
                worth += unit[c] + flat[c]
        a0, a1, a2, a3 = trick
        best, w = table[a0], 0
        v = table[a1]
        if v > best:
            best, w = v, 1
        v = table[a2]
        if v > best:
            best, w = v, 2
        if table[a3] > best:
            w = 3
        winner = (leader + w) & 3
        captured[winner].extend(trick)
        counts[winner] += 1
        if record is not None:
            record.extend(trick[fresh:])
            fresh = 0
        leader = winner
        trick = []
        done += 1
    return score_captures(state, captured, counts, pot)


def _pop_any(suits: list[list[int]], rnd: float) -> int:
    """Remove and return a card of a hand kept as four suit lists, chosen by ``rnd`` in
    [0, 1), uniformly."""
    k = int(rnd * (len(suits[0]) + len(suits[1]) + len(suits[2]) + len(suits[3])))
    for lst in suits:
        n = len(lst)
        if k < n:
            return lst.pop(k)
        k -= n
    raise ValueError("empty hand")


def _greedy_index(
    cards: list[int],
    table: tuple[int, ...],
    unit: tuple[int, ...],
    flat: tuple[int, ...],
    top: int,
    worth: int,
) -> int:
    """The index in ``cards`` of the greedy choice: the cheapest winner of a trick worth
    something, else the least valuable card (lowest first)."""
    win_j = -1
    win_v = 1 << 30
    lose_j = -1
    lose_key = 1 << 30
    any_j = 0
    any_key = 1 << 30
    for j, c in enumerate(cards):
        v = table[c]
        value = unit[c] + flat[c]
        if v > top:
            if v < win_v:
                win_v, win_j = v, j
            key = value * 128 + v
            if key < any_key:
                any_key, any_j = key, j
        else:
            key = value * 128 + v
            if key < lose_key:
                lose_key, lose_j = key, j
    if win_j >= 0 and worth >= 0:
        return win_j
    if lose_j >= 0:
        return lose_j
    return any_j


def _greedy_shed(
    suits: list[list[int]],
    table: tuple[int, ...],
    unit: tuple[int, ...],
    flat: tuple[int, ...],
    top: int,
    worth: int,
) -> int:
    """The greedy card of a player who cannot follow suit (removed from ``suits``)."""
    flat_cards = [c for lst in suits for c in lst]
    c = flat_cards[_greedy_index(flat_cards, table, unit, flat, top, worth)]
    suits[SUIT[c]].remove(c)
    return c
