"""Meld geometry: run and set templates on bit masks, lay-off targets, meld analysis.

Positions: a run of suit ``s`` occupies consecutive positions ``lo..hi``; position ``p`` has
rank ``(p-1) % 13 + 1``.  Without wrap-around (R2.2) positions are ``1..14`` (14 is the high
ace); with ``wrapKA2`` (R2.3) they continue round the corner.  Each rank appears at most once
(R2.4), so a run has 3..13 cards.

>>> [(lo, n) for lo, n, _ in natural_runs(0b111, False)]
[(1, 3)]
>>> [(lo, n) for lo, n, _ in natural_runs(0b1_1000_0000_0001, False)]  # Q K A
[(12, 3)]
>>> [(lo, n) for lo, n, _ in natural_runs(0b1_0000_0000_0011, False)]  # K A 2
[]
>>> [(lo, n) for lo, n, _ in natural_runs(0b1_0000_0000_0011, True)]
[(13, 3)]
"""

from __future__ import annotations

from functools import lru_cache

from cardtable.games.rummy.state import JOKER0, RUN, SET, SETJ, Config, Meld, card_text

__all__ = [
    "JokerRule",
    "joker_runs",
    "joker_sets",
    "natural_runs",
    "natural_sets",
    "pos_face",
    "run_ends",
    "valid_composition",
]

JokerRule = tuple[int, bool]
"""(jokerLimit code, jokersMayTouch)."""


def pos_face(suit: int, pos: int) -> int:
    """The face at run position ``pos`` of ``suit``."""
    return suit * 13 + (pos - 1) % 13


def _templates(wrap: bool) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Every run window as (lo, length, rank mask, rank bit per slot)."""
    out = []
    if wrap:
        for length in range(3, 14):
            for lo in range(1, 14):
                bits = tuple(1 << ((lo + i - 1) % 13) for i in range(length))
                out.append((lo, length, sum(bits), bits))
    else:
        for length in range(3, 14):
            for lo in range(1, 16 - length):
                bits = tuple(1 << ((lo + i - 1) % 13) for i in range(length))
                out.append((lo, length, sum(bits), bits))
    return out


_TEMPLATES = {False: _templates(False), True: _templates(True)}


@lru_cache(maxsize=65536)
def natural_runs(pattern: int, wrap: bool) -> tuple[tuple[int, int, int], ...]:
    """Runs made only of the ranks in a 13-bit ``pattern``: (lo, length, rank mask).

    A 13-card run is listed once (its lowest start), since every start uses the same cards.
    """
    out = []
    full = False
    for lo, length, mask, _ in _TEMPLATES[wrap]:
        if mask & pattern == mask:
            if length == 13:
                if full:
                    continue
                full = True
            out.append((lo, length, mask))
    return tuple(out)


def valid_composition(naturals: int, jokers: int, rule: int) -> bool:
    """R8.3(a): at least one natural and the joker limit (0 half, 1 strict, 2 one-natural)."""
    if naturals < 1:
        return False
    if rule == 0:
        return jokers <= naturals
    if rule == 1:
        return jokers < naturals
    return True


@lru_cache(maxsize=65536)
def joker_runs(
    pattern: int, jokers: int, wrap: bool, rule: int, touch: bool
) -> tuple[tuple[int, int, int, int], ...]:
    """Runs using 1..``jokers`` jokers with the ranks of ``pattern``.

    Each entry is (lo, length, natural rank mask, slot mask of the jokers).  A joker may
    stand for a missing rank or for one the hand also holds.  Composition limits (R8.3)
    apply; a 13-card window is listed once per distinct set of joker ranks.
    """
    out = []
    seen13: set[int] = set()
    for lo, length, mask, bits in _TEMPLATES[wrap]:
        missing = mask & ~pattern
        m = missing.bit_count()
        if m > jokers:
            continue
        present = [b for b in bits if pattern & b]
        extras: list[int] = [0]
        for _ in range(jokers - m):
            extras = sorted({e | b for e in extras for b in present} | set(extras))
        for extra in extras:
            jmask = missing | extra
            k = jmask.bit_count()
            if k == 0 or k > jokers:
                continue
            if not valid_composition(length - k, k, rule):
                continue
            slots = 0
            for i, b in enumerate(bits):
                if jmask & b:
                    slots |= 1 << i
            if not touch and slots & (slots >> 1):
                continue
            if length == 13:
                if jmask in seen13:
                    continue
                seen13.add(jmask)
            out.append((lo, length, mask & ~jmask, slots))
    return tuple(out)


_SUBSETS = {q: [s for s in range(1, 16) if s & q == s] for q in range(16)}


@lru_cache(maxsize=4096)
def natural_sets(q: int) -> tuple[int, ...]:
    """Suit subsets (4-bit) of size 3 or 4 within the suit pattern ``q`` (R5.1)."""
    return tuple(s for s in _SUBSETS[q] if s.bit_count() >= 3)


@lru_cache(maxsize=4096)
def joker_sets(q: int, jokers: int, rule: int) -> tuple[tuple[int, int], ...]:
    """(natural suit subset, joker count ≥ 1) making a set of 3 or 4 cards (R5.1, R8.3)."""
    out = []
    for s in _SUBSETS[q]:
        k = s.bit_count()
        for j in range(1, jokers + 1):
            if 3 <= k + j <= 4 and valid_composition(k, j, rule):
                out.append((s, j))
    return tuple(out)


def run_ends(meld: Meld, wrap: bool) -> list[int]:
    """Positions where a card may extend a run (high end first); none once 13 long."""
    n = len(meld.cards)
    if n >= 13:
        return []
    lo, hi = meld.lo, meld.lo + n - 1
    out = []
    if wrap or hi + 1 <= 14:
        out.append(hi + 1)
    if wrap or lo - 1 >= 1:
        out.append(lo - 1)
    return out


def meld_meanings(meld: Meld) -> tuple[int, ...]:
    """The face each slot of a meld stands for (a set joker: ``SETJ + rank - 1``)."""
    if meld.kind == RUN:
        return tuple(pos_face(meld.suit, meld.lo + i) for i in range(len(meld.cards)))
    return tuple(SETJ + meld.lo - 1 if c >= 104 else c % 52 for c in meld.cards)


def slot_text(card: int, meaning: int) -> str:
    """A card in a meld: ``7H`` or, for a joker, ``JK=6H`` / ``JK=7*`` (a set joker)."""
    text = card_text(card)
    if card < JOKER0:
        return text
    if meaning >= SETJ:
        return f"{text}={card_text(meaning - SETJ)[:-1]}*"
    return f"{text}={card_text(meaning)}"


def meld_text(meld: Meld) -> tuple[str, ...]:
    """The cards of a meld in notation, with joker meanings."""
    return tuple(slot_text(c, m) for c, m in zip(meld.cards, meld_meanings(meld), strict=True))


def cfg_rule(cfg: Config) -> tuple[int, bool]:
    """The (jokerLimit, jokersMayTouch) pair of a configuration."""
    return cfg.joker_limit, cfg.touch


__all__ += ["SET", "cfg_rule", "meld_meanings", "meld_text", "slot_text"]
