"""Scoring one deal of Royal Mastheads (M-8, M-12 … M-16).

Card points are progressive per rank (M-12): the *n*-th captured card of a number rank
scores *n*, of a royal rank *2n*; aces score a flat ``ace_points`` (M-13).  Doubling (M-14)
applies to the masthead rank (``pagat``; masthead aces too) or to trump-suit cards
(``russian``; never to aces).  "The *n*-th" counts in capture order: tricks in the order won,
cards in the order played, then the pot's cards in the order they were chosen.

>>> from cardtable.cards import parse_cards
>>> from cardtable.games.royal_mastheads.state import OPTIONS, config_of
>>> pagat = config_of(OPTIONS.defaults())
>>> card_points(pagat, parse_cards("7H")[0], parse_cards("7S 7D 7C"))  # sevens are mastheads
12
>>> russian = config_of(OPTIONS.validate({"ruleset": "russian"}))
>>> card_points(russian, parse_cards("2H")[0], parse_cards("7C 7H 7S"))  # the spec's M-14
8
>>> card_points(russian, parse_cards("2H")[0], parse_cards("7H 7C 7S"))  # order matters
7
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from cardtable.games.royal_mastheads.state import BIT, RANK, SUIT, SUIT_MASK, Config, Trick

__all__ = [
    "RANK_MASK",
    "ROYAL_MASK",
    "DealScore",
    "bonuses",
    "captured_cards",
    "card_point_items",
    "card_points",
    "deal_scores",
    "is_doubled",
    "pot_winner",
    "reference_card_points",
    "score_deal",
    "seat_scores",
    "unit_and_flat",
]

RANK_MASK: tuple[int, ...] = (
    0,
    *(sum(1 << (s * 13 + r - 1) for s in range(4)) for r in range(1, 14)),
)
"""``RANK_MASK[r]``: the four cards of rank ``r`` (1 ace … 13 king)."""
ROYAL_MASK = RANK_MASK[11] | RANK_MASK[12] | RANK_MASK[13]
"""The 12 royal cards (M-3)."""

_TABLES: dict[tuple[str, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def unit_and_flat(cfg: Config, turned: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per card: the unit of its rank's progression (0 for aces) and its flat ace value."""
    key = (cfg.text, turned)  # the options in words: a complete key, and cheap to hash
    got = _TABLES.get(key)
    if got is not None:
        return got
    trumps, mast = turned // 13, turned % 13 + 1
    unit: list[int] = []
    flat: list[int] = []
    for c in range(52):
        r = RANK[c]
        doubled = SUIT[c] == trumps if cfg.double_trumps else r == mast
        if r == 1:
            unit.append(0)
            # M-13/M-14: an ace is doubled only as a masthead, never as a trump.
            flat.append(cfg.ace_points * (2 if doubled and not cfg.double_trumps else 1))
        else:
            unit.append((2 if r > 10 else 1) * (2 if doubled else 1))
            flat.append(0)
    got = (tuple(unit), tuple(flat))
    _TABLES[key] = got
    return got


def card_points(cfg: Config, turned: int, captured: Sequence[int]) -> int:
    """The card points (M-12 … M-14) of cards captured in the given order."""
    unit, flat = unit_and_flat(cfg, turned)
    counts = [0] * 14
    total = 0
    for c in captured:
        r = RANK[c]
        n = counts[r] + 1
        counts[r] = n
        total += unit[c] * n + flat[c]
    return total


def card_point_items(cfg: Config, turned: int, captured: Sequence[int]) -> tuple[int, ...]:
    """The points of each card captured in the given order (M-12 … M-14); they add up to
    :func:`card_points`.

    >>> from cardtable.cards import parse_cards
    >>> from cardtable.games.royal_mastheads.state import OPTIONS, config_of
    >>> # 2♠ turned: 2s are mastheads and score double
    >>> card_point_items(config_of(OPTIONS.defaults()), 1, parse_cards("7H 7S KD AC 2D"))
    (1, 2, 2, -10, 2)
    """
    unit, flat = unit_and_flat(cfg, turned)
    counts = [0] * 14
    items = []
    for c in captured:
        r = RANK[c]
        counts[r] += 1
        items.append(unit[c] * counts[r] + flat[c])
    return tuple(items)


def is_doubled(cfg: Config, turned: int, card: int) -> bool:
    """True when ``card`` scores double (M-14): a masthead (``pagat``; aces too) or a trump
    that is not an ace (``russian``)."""
    if cfg.double_trumps:
        return SUIT[card] == turned // 13 and RANK[card] != 1
    return RANK[card] == turned % 13 + 1


def reference_card_points(cfg: Config, turned: int, captured: Sequence[int]) -> int:
    """:func:`card_points` computed another way (rank by rank), for invariant checks."""
    trumps, mast = turned // 13, turned % 13 + 1
    total = 0
    for rank in range(1, 14):
        of_rank = [c for c in captured if RANK[c] == rank]
        for n, c in enumerate(of_rank, 1):
            # M-14: trumps double (never an ace), or the masthead rank does (aces too)
            doubled = (SUIT[c] == trumps and rank != 1) if cfg.double_trumps else rank == mast
            if rank == 1:
                value = cfg.ace_points
            elif rank >= 11:
                value = 2 * n
            else:
                value = n
            total += 2 * value if doubled else value
    return total


def bonuses(cfg: Config, turned: int, mask: int, tricks_won: int) -> tuple[int, int, int, int]:
    """The four bonus categories (M-15) of a captured-card mask: count (mastheads or
    trumps), tricks, royals and all trumps.

    >>> from cardtable.games.royal_mastheads.state import OPTIONS, config_of
    >>> bonuses(config_of(OPTIONS.defaults()), 19, (1 << 52) - 1, 11)
    (50, 400, 1000, 2000)
    """
    trumps = (mask & SUIT_MASK[turned // 13]).bit_count()
    if cfg.count_trumps:
        count = 25 if trumps == 3 else 50 if trumps == 4 else 0
    else:
        heads = (mask & RANK_MASK[turned % 13 + 1]).bit_count()
        count = 50 if heads >= 4 else 25 if heads == 3 else 0
    trick = 400 if tricks_won == 11 else 200 if tricks_won == 10 else 100 if tricks_won == 9 else 0
    royals = (mask & ROYAL_MASK).bit_count()
    royal = 1000 if royals == 12 else 500 if royals >= 7 else 0
    all_trumps = cfg.trumps_bonus if trumps == 13 else 0
    return count, trick, royal, all_trumps


def pot_winner(trick_counts: Sequence[int]) -> int | None:
    """The seat with strictly the most tricks, or ``None`` on a tie (M-8).

    >>> pot_winner([4, 4, 2, 1]) is None, pot_winner([9, 1, 1, 0])
    (True, 0)
    """
    best = max(trick_counts)
    if list(trick_counts).count(best) > 1:
        return None
    return list(trick_counts).index(best)


def captured_cards(
    tricks: Sequence[Trick], pot: Sequence[int], pot_seat: int | None
) -> tuple[tuple[int, ...], ...]:
    """Each seat's captured cards in capture order (M-12): tricks in the order won, cards in
    the order played, then the pot (in the order chosen, from the dealer's left) if won."""
    out: list[list[int]] = [[], [], [], []]
    for t in tricks:
        out[t.winner].extend(t.cards)
    if pot_seat is not None:
        out[pot_seat].extend(pot)
    return tuple(tuple(cs) for cs in out)


@dataclass(frozen=True, slots=True)
class DealScore:
    """One deal's scoring, per seat."""

    tricks: tuple[int, ...]
    pot_seat: int | None
    captured: tuple[tuple[int, ...], ...]
    card_points: tuple[int, ...]
    count_bonus: tuple[int, ...]
    tricks_bonus: tuple[int, ...]
    royals_bonus: tuple[int, ...]
    trumps_bonus: tuple[int, ...]
    scores: tuple[int, int, int, int]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


def score_deal(cfg: Config, turned: int, tricks: Sequence[Trick], pot: Sequence[int]) -> DealScore:
    """Score a finished deal (11 tricks, 8 pot cards); a deal's score is card points plus
    bonuses (M-16)."""
    counts = [0, 0, 0, 0]
    for t in tricks:
        counts[t.winner] += 1
    seat = pot_winner(counts)
    captured = captured_cards(tricks, pot, seat)
    points: list[int] = []
    bonus_rows: list[tuple[int, int, int, int]] = []
    scores: list[int] = []
    for s in range(4):
        cs = captured[s]
        mask = 0
        for c in cs:
            mask |= BIT[c]
        p = card_points(cfg, turned, cs)
        b = bonuses(cfg, turned, mask, counts[s])
        points.append(p)
        bonus_rows.append(b)
        scores.append(p + b[0] + b[1] + b[2] + b[3])
    return DealScore(
        tricks=tuple(counts),
        pot_seat=seat,
        captured=captured,
        card_points=tuple(points),
        count_bonus=tuple(b[0] for b in bonus_rows),
        tricks_bonus=tuple(b[1] for b in bonus_rows),
        royals_bonus=tuple(b[2] for b in bonus_rows),
        trumps_bonus=tuple(b[3] for b in bonus_rows),
        scores=(scores[0], scores[1], scores[2], scores[3]),
    )


def deal_scores(
    cfg: Config, turned: int, tricks: Sequence[Trick], pot: Sequence[int]
) -> tuple[int, int, int, int]:
    """:func:`score_deal`'s ``scores`` alone (for playouts and search).

    >>> from cardtable.games.royal_mastheads import GAME
    >>> s = GAME.playout(GAME.new_game(4, seed=5, scope="unit"), __import__("random").Random(1))[0]
    >>> deal_scores(s.info.cfg, s.info.turned, s.tricks, s.pot) == s.info.history[-1]
    True
    """
    captured: list[list[int]] = [[], [], [], []]
    counts = [0, 0, 0, 0]
    for t in tricks:
        captured[t.winner].extend(t.cards)
        counts[t.winner] += 1
    return seat_scores(cfg, turned, captured, counts, pot)


def seat_scores(
    cfg: Config,
    turned: int,
    captured: Sequence[Sequence[int]],
    counts: Sequence[int],
    pot: Sequence[int],
) -> tuple[int, int, int, int]:
    """Each seat's deal score from its captured trick cards (in capture order) and tricks
    won: card points (M-12 … M-14), the pot to the seat with the most tricks (M-8) and the
    bonuses (M-15), in one pass per seat."""
    unit, flat = unit_and_flat(cfg, turned)
    seat = pot_winner(counts)
    out = [0, 0, 0, 0]
    for s in range(4):
        mask = 0
        ranks = [0] * 14
        total = 0
        cards = [*captured[s], *pot] if s == seat else captured[s]
        for c in cards:
            mask |= BIT[c]
            r = RANK[c]
            n = ranks[r] + 1
            ranks[r] = n
            total += unit[c] * n + flat[c]
        b = bonuses(cfg, turned, mask, counts[s])
        out[s] = total + b[0] + b[1] + b[2] + b[3]
    return (out[0], out[1], out[2], out[3])
