"""The plays of a hand without jokers, counted and picked by index without listing them.

A random playout needs one play drawn uniformly from the generator's list, not the list.
For a hand without jokers or obligations, with no table joker to swap, :class:`NaturalPlays`
counts :func:`~cardtable.games.rummy.plays.gen_plays`'s list from the hand's suit patterns
(runs), rank patterns (sets) and the faces that extend each meld (lay-offs), and
:func:`natural_play` builds its ``k``-th play alone, with the generator's own builders
(:func:`~cardtable.games.rummy.plays.run_meld` and the rest), in the generator's order.
A test compares them play by play.

>>> from cardtable.games.rummy.state import RUN, Meld
>>> bin(layoff_faces((Meld(RUN, 0, 4, (3, 4, 5), 0),), False))  # 4-5-6 of spades: 3, 7
'0b1000100'
"""

from __future__ import annotations

from typing import Final

from cardtable.games.rummy.melds import natural_runs, natural_sets, pos_face, run_ends
from cardtable.games.rummy.plays import (
    Play,
    layoff_run,
    layoff_set,
    pick_copy,
    run_meld,
    set_meld,
)
from cardtable.games.rummy.state import JOKER0, RUN, Meld

__all__ = ["NaturalPlays", "layoff_faces", "meld_target", "natural_play"]

_RUN_INFO: Final[tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]]] = ({}, {})
"""Per wrap flag: suit pattern → (number of natural runs, longest run length)."""

_ACES: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The aces' faces: with Q-K or K-2 of their suit they may start a run."""
_RUN_STARTS: Final = 0x7FF * _ACES
"""The faces that may start three in a row within their suit (A..J)."""

_SET_COUNT: Final = (0, 0, 0, 1, 5)
"""Natural sets of a rank held in 0..4 suits (R5.1): the 3-subsets and the 4-set."""


def _run_info(pattern: int, wrap: bool) -> tuple[int, int]:
    table = _RUN_INFO[wrap]
    got = table.get(pattern)
    if got is None:
        runs = natural_runs(pattern, wrap)
        got = (len(runs), max((length for _, length, _ in runs), default=0))
        table[pattern] = got
    return got


def _may_run(fm: int) -> bool:
    """Whether the faces ``fm`` hold three in a row in some suit (a quick test)."""
    return bool(
        fm & fm >> 1 & fm >> 2 & _RUN_STARTS or fm & fm >> 12 & (fm >> 11 | fm >> 1) & _ACES
    )


def meld_target(meld: Meld, wrap: bool) -> int:
    """The faces a natural card may be laid off as on ``meld`` (R6)."""
    cards = meld.cards
    m = 0
    if meld.kind == RUN:
        for pos in run_ends(meld, wrap):
            m |= 1 << pos_face(meld.suit, pos)
    elif len(cards) < 4:
        r = meld.lo - 1
        present = 0
        for c in cards:
            if c < JOKER0:
                present |= 1 << (c % 52 // 13)
        for s in range(4):
            if not present >> s & 1:
                m |= 1 << (13 * s + r)
    return m


def layoff_faces(melds: tuple[Meld, ...], wrap: bool) -> int:
    """The faces a natural card may be laid off as onto any of ``melds`` (R6), as a mask."""
    m = 0
    for meld in melds:
        m |= meld_target(meld, wrap)
    return m


def _levels(targets: list[int]) -> list[int]:
    """Level ``i`` holds the faces that extend more than ``i`` melds, so the lay-offs of
    a hand without jokers number ``sum((faces & level).bit_count() for level in levels)``;
    level 0 is their union."""
    levels: list[int] = []
    for m in targets:
        for i, level in enumerate(levels):
            levels[i] = level | m
            m &= level
        if m:
            levels.append(m)
    return levels or [0]


class NaturalPlays:
    """The lay-off faces of the melds on the table, kept in step with them, and the count
    of a joker-free hand's plays."""

    wrap: bool
    melds: tuple[Meld, ...]
    targets: list[int]
    """The lay-off faces of each meld (:func:`meld_target`)."""
    levels: list[int]
    table_joker: bool
    """Whether a joker lies on the table."""

    def __init__(self, melds: tuple[Meld, ...], wrap: bool) -> None:
        self.wrap = wrap
        self.melds = ()
        self.targets = []
        self.levels = [0]
        self.table_joker = False
        self.sync(melds)

    def sync(self, melds: tuple[Meld, ...]) -> None:
        """Follow ``melds`` (recomputed unless they are the melds followed already)."""
        if melds is self.melds:
            return
        self.melds = melds
        self.targets = [meld_target(meld, self.wrap) for meld in melds]
        self.levels = _levels(self.targets)
        self.table_joker = any(c >= JOKER0 for meld in melds for c in meld.cards)

    def played(self, play: Play) -> None:
        """Follow a natural play's melds: only the meld made or extended changes."""
        melds = play[2]
        if len(melds) > len(self.melds):
            self.targets.append(meld_target(melds[-1], self.wrap))
        else:
            mi = play[0].target
            self.targets[mi] = meld_target(melds[mi], self.wrap)
        self.levels = _levels(self.targets)
        self.melds = melds

    def count(self, fm: int, melding: bool) -> tuple[int, int]:
        """(number of plays, most cards one of them plays) for the faces ``fm`` of a hand
        without jokers; ``melding`` is False when no more melds may be made this turn."""
        nplays = 0
        longest = 0
        if melding:
            if _may_run(fm):
                run_table = _RUN_INFO[self.wrap]
                for shift in (0, 13, 26, 39):
                    pat = fm >> shift & 0x1FFF
                    info = run_table.get(pat)
                    if info is None:
                        info = _run_info(pat, self.wrap)
                    nplays += info[0]
                    if info[1] > longest:
                        longest = info[1]
            sa, sb, sc, sd = fm & 0x1FFF, fm >> 13 & 0x1FFF, fm >> 26 & 0x1FFF, fm >> 39
            ranks = (sa & sb & (sc | sd)) | (sc & sd & (sa | sb))
            while ranks:
                low = ranks & -ranks
                ranks ^= low
                q = (sa & low and 1) + (sb & low and 1) + (sc & low and 1) + (sd & low and 1)
                nplays += _SET_COUNT[q]
                if q > longest:
                    longest = q
        levels = self.levels
        if fm & levels[0]:
            for level in levels:
                nplays += (fm & level).bit_count()
            if not longest:
                longest = 1
        return nplays, longest


def natural_play(
    k: int,
    seat: int,
    hand: int,
    fm: int,
    melds: tuple[Meld, ...],
    nmade: int,
    wrap: bool,
    melding: bool,
    targets: list[int],
    taken: int,
) -> Play:
    """``gen_plays(cfg, seat, hand, melds, nmade, 0, taken)[k]`` for a hand without jokers
    (faces ``fm``; ``targets`` the lay-off faces of each meld), built alone: the runs suit
    by suit, the sets rank by rank, then the lay-offs meld by meld."""
    pref = 1 << taken if taken >= 0 else 0
    if melding:
        if _may_run(fm):
            for s in range(4):
                runs = natural_runs(fm >> 13 * s & 0x1FFF, wrap)
                if k < len(runs):
                    lo, length, _ = runs[k]
                    return run_meld(hand, pref, seat, s, lo, length, melds, nmade)
                k -= len(runs)
        sa, sb, sc, sd = fm & 0x1FFF, fm >> 13 & 0x1FFF, fm >> 26 & 0x1FFF, fm >> 39
        ranks = (sa & sb & (sc | sd)) | (sc & sd & (sa | sb))
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            r = low.bit_length() - 1
            q = (fm >> r & 1) | (fm >> (r + 12) & 2) | (fm >> (r + 24) & 4) | (fm >> (r + 36) & 8)
            subsets = natural_sets(q)
            if k < len(subsets):
                return set_meld(hand, pref, seat, r, subsets[k], [], melds, nmade)
            k -= len(subsets)
    return _natural_layoff(k, hand, fm, melds, nmade, wrap, targets, pref)


def _natural_layoff(
    k: int,
    hand: int,
    fm: int,
    melds: tuple[Meld, ...],
    nmade: int,
    wrap: bool,
    targets: list[int],
    pref: int,
) -> Play:
    """The ``k``-th lay-off of a hand without jokers (see :func:`natural_play`)."""
    for mi, target in enumerate(targets):
        here = fm & target
        if not here:
            continue
        count = here.bit_count()
        if k >= count:
            k -= count
            continue
        meld = melds[mi]
        if meld.kind == RUN:
            for pos in run_ends(meld, wrap):  # the high end first
                f = pos_face(meld.suit, pos)
                if here >> f & 1:  # a 12-card wrapped run's two ends are one face: k is 0
                    if not k:
                        return layoff_run(
                            meld, mi, melds, pick_copy(hand, f, pref), f, pos, hand, nmade
                        )
                    k -= 1
        else:
            while k:
                here &= here - 1
                k -= 1
            f = (here & -here).bit_length() - 1
            return layoff_set(meld, mi, melds, pick_copy(hand, f, pref), f, hand, nmade)
    raise AssertionError("the play count and the generator disagree")
