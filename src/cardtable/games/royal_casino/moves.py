"""Royal Casino move generation: every legal move of a position, written once.

Sets of loose cards are int masks.  For a table the generator lists every subset of loose
cards worth at most 14 (aces 1) once, by sum; a *group* of value V is such a subset of sum
V, or a lone ace when V = 14 (C2.2).  A set of loose cards that splits into groups of V is
a union of pairwise disjoint groups.  The generator works these out on the *values* of the
loose cards (:class:`_Template`, memoised per multiset of values and shared by every table
with the same low cards), which is the "partition check memoised on the value multiset" of
the spec's performance note; :func:`partition` finds one grouping of given cards for
display and for the components of a build.

:func:`generate` lists the moves in a fixed order.  On a table without builds the moves of
a card depend only on the template and on the build values the rest of the hand guards:
the template's :meth:`_Template.count_moves` counts them and :func:`move_without_builds`
builds the k-th alone (for random playouts), from the same template lists
(``captures``, ``singles``, ``multis``) in the same order as :func:`generate`.
"""

from __future__ import annotations

from typing import Final

from cardtable.cards import iter_mask
from cardtable.core.options import Options
from cardtable.games.royal_casino.state import (
    ACE_BITS,
    CAPV,
    CAPVAL_BIT,
    RANK_MASK,
    VAL,
    Build,
    Kind,
    Phase,
    RoyalCasinoAction,
    RoyalCasinoState,
)

__all__ = [
    "ABSORB",
    "ADD",
    "BUILD",
    "CAPTURE",
    "CLOCKWISE",
    "COEXIST",
    "EMPTY_TEMPLATE",
    "LAST_SWEEP",
    "PARTNER_OK",
    "TRAIL",
    "MoveParts",
    "generate",
    "groups",
    "legal_actions",
    "move_without_builds",
    "option_flags",
    "partition",
    "subset_sums",
    "template_key",
    "template_of",
]

# -- memoised subset tables ------------------------------------------------------------------
_SUMS_CACHE: Final[dict[int, dict[int, tuple[int, ...]]]] = {}
_CACHE_LIMIT: Final = 50_000
"""The subset tables kept before :data:`_SUMS_CACHE` starts again (about 4 KB each)."""
_TEMPLATE_LIMIT: Final = 20_000
"""The templates kept before they and their shared lists start again: a template with its
lists is about 5 KB, so a long-running process (the server) keeps at most about 100 MB
here, where the old limit (200,000) let it grow by about 20 MB a minute under load."""


def subset_sums(loose: int) -> dict[int, tuple[int, ...]]:
    """Every non-empty subset of ``loose`` worth at most 14 (aces 1), by sum.

    Tuples of ints, not lists: the garbage collector stops tracking them, and a server
    that formats moves for hours keeps tens of thousands of these (a list is walked by
    every full collection).
    """
    found = _SUMS_CACHE.get(loose)
    if found is not None:
        return found
    items: list[tuple[int, int]] = [(0, 0)]
    m = loose
    while m:
        low = m & -m
        m ^= low
        v = VAL[low.bit_length() - 1]
        items += [(s + v, mask | low) for s, mask in items if s + v <= 14]
    by_sum: dict[int, list[int]] = {}
    for s, mask in items[1:]:
        by_sum.setdefault(s, []).append(mask)
    sums = {s: tuple(masks) for s, masks in by_sum.items()}
    if len(_SUMS_CACHE) > _CACHE_LIMIT:
        _SUMS_CACHE.clear()
    _SUMS_CACHE[loose] = sums
    return sums


def groups(loose: int, value: int) -> tuple[int, ...]:
    """The groups of ``value`` among ``loose``: subsets summing to it, and lone aces for 14."""
    found = subset_sums(loose).get(value, ())
    if value == 14 and loose & ACE_BITS:
        return found + tuple(1 << c for c in iter_mask(loose & ACE_BITS))
    return found


def partition(mask: int, value: int) -> tuple[int, ...] | None:
    """One split of ``mask`` into groups of ``value`` (canonical: by lowest card), or None."""
    if not mask:
        return ()
    low = mask & -mask
    for g in groups(mask, value):
        if g & low:
            rest = partition(mask & ~g, value)
            if rest is not None:
                return (g, *rest)
    return None


_PREFIX_MASK: Final = tuple((1 << 3 * v) - 1 if v <= 13 else (1 << 39) - 1 for v in range(15))
"""For a value V: the bits of a template key counting the ranks A..V (all for 14)."""
# The lists shared by templates with the same prefix, keyed by ``what << 39 | prefix``
# (``what`` is the value, or the played card's value and the value: an int key, which
# needs no tuple made and hashed per lookup).
_UNIONS: Final[dict[int, tuple[int, ...]]] = {}
_CAPTURES: Final[dict[int, tuple[int, ...]]] = {}
_MULTIS: Final[dict[int, tuple[int, ...]]] = {}
_ADDS: Final[dict[int, tuple[int, ...]]] = {}


_BIT_VALUES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(v for v in range(2, 15) if bits >> (v - 2) & 1) for bits in range(1 << 13)
)
"""For a guard set shifted right by 2: the build values 2–14 it guards."""


class _Template:
    """Everything about a table's loose cards that depends only on their values, worked
    out once per multiset of values and shared by every table with the same values.

    Cards are referred to by *index masks*: bit i is the i-th loose card in value order.
    ``sums[t]``: subsets worth ``t`` (aces 1); ``unions[v]``: every union of disjoint
    groups worth ``v`` (a lone ace is a group of 14), the empty union first.  The move
    lists for a played card of value ``vc`` are memoised per (vc, value).
    """

    __slots__ = (
        "_adds",
        "_builds",
        "_unions",
        "aces",
        "caps",
        "groups",
        "key",
        "sums",
        "value_masks",
    )

    def __init__(self, values: tuple[int, ...], key: int = 0) -> None:
        self.key = key
        """The rank counts (3 bits a rank, aces lowest): see :func:`template_key`."""
        items: list[tuple[int, int]] = [(0, 0)]
        for i, v in enumerate(values):
            bit = 1 << i
            items += [(s + v, m | bit) for s, m in items if s + v <= 14]
        sums: list[list[int]] = [[] for _ in range(15)]
        for total, m in items[1:]:
            sums[total].append(m)
        masks = [0] * 14
        for i, v in enumerate(values):
            masks[v] |= 1 << i
        self.value_masks = tuple(masks)
        self.aces = tuple(1 << i for i, v in enumerate(values) if v == 1)
        self.sums: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in sums)
        self.groups = tuple(bool(sums[v]) or (v == 14 and bool(self.aces)) for v in range(15))
        self._unions: list[tuple[int, ...] | None] = [None] * 15
        self.caps: list[tuple[int, ...] | None] = [None] * 14
        self._builds: dict[int, tuple[int, ...]] = {}
        self._adds: dict[int, tuple[int, ...]] = {}

    def _prefix(self, what: int, value: int) -> int:
        """What the lists for ``value`` depend on: the counts of the ranks up to ``value``
        (the cards that can be in a group of ``value`` come first in the index order, so
        their index masks are the same in every template sharing that prefix), with
        ``what`` the lists are of, as one int key."""
        return what << 39 | self.key & _PREFIX_MASK[value]

    def unions(self, value: int) -> tuple[int, ...]:
        """Every union of disjoint groups worth ``value`` (index masks, the empty one first)."""
        found = self._unions[value]
        if found is None:
            prefix = self._prefix(value, value)
            found = _UNIONS.get(prefix)
            if found is None:
                groups_ = self.sums[value] + self.aces if value == 14 else self.sums[value]
                out = [0]
                seen = {0}
                for g in groups_:
                    for u in list(out):
                        if not u & g:
                            w = u | g
                            if w not in seen:
                                seen.add(w)
                                out.append(w)
                found = _UNIONS[prefix] = tuple(out)
            self._unions[value] = found
        return found

    def captures(self, vc: int) -> tuple[int, ...]:
        """Loose sets a card of value ``vc`` may capture: unions of groups of its capture
        value holding every loose card of its rank (C5.2, C6.3); may include the empty set.
        (Hot loops read ``caps[vc]`` first and call this when it is ``None``.)"""
        found = self.caps[vc]
        if found is None:
            v = 14 if vc == 1 else vc
            prefix = self._prefix(vc << 4 | v, v)
            found = _CAPTURES.get(prefix)
            if found is None:
                eq = self.value_masks[vc]
                found = _CAPTURES[prefix] = tuple(u for u in self.unions(v) if u & eq == eq)
            self.caps[vc] = found
        return found

    def _parts(self, vc: int, value: int) -> list[int]:
        """Loose parts that make a group of ``value`` with a played card of value ``vc``."""
        parts = [0] if vc == value or (value == 14 and vc == 1) else []
        if value - vc >= 1:
            parts += self.sums[value - vc]
        return parts

    def multi_builds(self, vc: int, value: int) -> tuple[int, ...]:
        """Loose sets for a new multiple build of ``value`` with a played card of value
        ``vc`` (C5.3): the card's group and at least one more group."""
        key = vc << 4 | value
        found = self._builds.get(key)
        if found is None:
            prefix = self._prefix(key, value)
            found = _MULTIS.get(prefix)
            if found is not None:
                self._builds[key] = found
                return found
            multis: list[int] = []
            seen: set[int] = set()
            for x in self._parts(vc, value):
                for u in self.unions(value):
                    if u and not u & x and x | u not in seen:
                        seen.add(x | u)
                        multis.append(x | u)
            found = self._builds[key] = _MULTIS[prefix] = tuple(multis)
        return found

    def singles(self, vc: int, value: int) -> tuple[int, ...]:
        """Loose sets for a new single build of ``value`` with a played card of value
        ``vc`` (C5.3): the subsets worth the difference."""
        need = value - vc
        return self.sums[need] if need >= 1 else ()

    def multis(self, vc: int, value: int) -> tuple[int, ...]:
        """Loose sets for a new multiple build of ``value`` with a played card of value
        ``vc`` (:meth:`multi_builds`, or none at once when the card cannot start a group
        of ``value`` or the loose cards hold no group of it)."""
        need = value - vc
        if self.groups[value] and (
            need == 0 or (value == 14 and vc == 1) or (need >= 1 and self.sums[need])
        ):
            return self.multi_builds(vc, value)
        return ()

    def count_moves(self, vc: int, guards: int) -> int:
        """How many moves a card of value ``vc`` has on this table when no build is on it
        and the rest of the hand guards the build values ``guards`` (bits): its trail
        unless a loose card has its value (C5.1, C6.3), its captures (C5.2) and its new
        builds of the values guarded (C5.3, C6.2), as :func:`generate` lists them."""
        captures = self.caps[vc]
        if captures is None:
            captures = self.captures(vc)
        n = len(captures) - (1 if captures and not captures[0] else 0)
        if not self.value_masks[vc]:
            n += 1
        for value in _BIT_VALUES[guards >> 2]:
            n += len(self.singles(vc, value)) + len(self.multis(vc, value))
        return n

    def adds(self, vc: int, value: int) -> tuple[int, ...]:
        """Loose sets that join a played card of value ``vc`` on a build of ``value`` (C5.4)."""
        key = vc << 4 | value
        found = self._adds.get(key)
        if found is None:
            prefix = self._prefix(key, value)
            found = _ADDS.get(prefix)
            if found is not None:
                self._adds[key] = found
                return found
            out: list[int] = []
            seen: set[int] = set()
            for x in self._parts(vc, value):
                for u in self.unions(value):
                    if not u & x and x | u not in seen:
                        seen.add(x | u)
                        out.append(x | u)
            found = self._adds[key] = _ADDS[prefix] = tuple(out)
        return found


_TEMPLATES: Final[dict[int, _Template]] = {}
EMPTY_TEMPLATE: Final = _Template(())
"""The template of a table without loose cards."""
"""The template of a table without loose cards."""
_RANK_COUNTS: Final = tuple(
    sum(1 << 3 * i for i in range(13) if bits >> i & 1) for bits in range(1 << 13)
)
"""For a suit's 13-bit chunk of a card mask: the count of each rank in 3-bit fields."""


def template_key(loose: int) -> _Template:
    """The template of a table's loose cards, found by the counts of each rank."""
    rc = _RANK_COUNTS
    key = (
        rc[loose & 0x1FFF]
        + rc[loose >> 13 & 0x1FFF]
        + rc[loose >> 26 & 0x1FFF]
        + rc[loose >> 39 & 0x1FFF]
    )
    tpl = _TEMPLATES.get(key)
    if tpl is None:
        if len(_TEMPLATES) > _TEMPLATE_LIMIT:
            for cache in (_TEMPLATES, _UNIONS, _CAPTURES, _MULTIS, _ADDS):
                cache.clear()
        values = tuple(r + 1 for r in range(13) for _ in range(key >> 3 * r & 7))
        tpl = _TEMPLATES[key] = _Template(values, key)
    return tpl


def value_order(loose: int) -> list[int]:
    """The loose cards in template order: by value, then by index."""
    out: list[int] = []
    for r in range(13):
        m = loose & RANK_MASK[r]
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
    return out


def template_of(loose: int) -> tuple[_Template, list[int]]:
    """The template of a table's loose cards and the cards in template (value) order."""
    if not loose:
        return EMPTY_TEMPLATE, []
    return template_key(loose), value_order(loose)


def _to_cards(index_mask: int, order: list[int]) -> int:
    """The card mask of a template index mask (bit i: the i-th card of ``order``), worked
    out for each move made: cheaper than a table of all ``2**n`` masks per table (which
    boxed a Python int for every entry)."""
    m = 0
    i = 0
    while index_mask:
        if index_mask & 1:
            m |= 1 << order[i]
        index_mask >>= 1
        i += 1
    return m


# -- the generator -----------------------------------------------------------------------------
TRAIL: Final = int(Kind.TRAIL)
"""The kinds of move as plain ints (:data:`MoveParts`)."""
CAPTURE: Final = int(Kind.CAPTURE)
BUILD: Final = int(Kind.BUILD)
ADD: Final = int(Kind.ADD)
_TRAIL: Final = Kind.TRAIL
_CAPTURE: Final = Kind.CAPTURE
_BUILD: Final = Kind.BUILD
_ADD: Final = Kind.ADD
_RAISE: Final = Kind.RAISE
_PLAY: Final = Phase.PLAY
_ACTION: Final = RoyalCasinoAction
"""The move class, as a compiled module's constant (the generator builds moves with it)."""


def _new_move(fields: tuple[Kind, int, int, bool, int, int]) -> RoyalCasinoAction:
    return tuple.__new__(_ACTION, fields)


_TRAILS: Final = tuple(_new_move((_TRAIL, c, 0, False, 0, 0)) for c in range(52))
"""The trail of each card (moves are values: the 52 trails are made once and shared)."""

# What the generator and apply read of the options, as bits of one int (see option_flags).
COEXIST: Final = 1
"""``sameValueBuildsCoexist``"""
ABSORB: Final = 2
"""``raiseAbsorbsLoose``"""
PARTNER_OK: Final = 4
"""``partnerBuildInteraction`` is ``ALLOWED``"""
CLOCKWISE: Final = 8
"""``direction`` is ``CW``"""
LAST_SWEEP: Final = 16
"""``lastPlaySweepCounts``"""
_FLAGS_MEMO: tuple[Options | None, int] = (None, 0)
"""The options last read and their flags (one tuple, replaced whole: safe across threads)."""


def option_flags(options: Options) -> int:
    """The options the rules read on every move, as bits (``Options`` lookups are
    interpreted calls; the last options read are remembered, as a process mostly plays one
    set of options)."""
    global _FLAGS_MEMO
    memo = _FLAGS_MEMO
    if memo[0] is options:
        return memo[1]
    flags = (
        (COEXIST if options["sameValueBuildsCoexist"] else 0)
        | (ABSORB if options["raiseAbsorbsLoose"] else 0)
        | (PARTNER_OK if options["partnerBuildInteraction"] == "ALLOWED" else 0)
        | (CLOCKWISE if options["direction"] == "CW" else 0)
        | (LAST_SWEEP if options["lastPlaySweepCounts"] else 0)
    )
    _FLAGS_MEMO = (options, flags)
    return flags


def _cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_actions(state: RoyalCasinoState, card: int = -1) -> list[RoyalCasinoAction]:
    """Every legal move of the player to act (C4–C6), in a fixed order (:func:`generate`).

    With ``card``, only the moves that play that card: the same generator, a fraction of
    the work, which is all ``apply`` needs to check a move.
    """
    if state.phase != _PLAY:
        return []
    p = state.turn
    return generate(
        p,
        state.hands[p],
        state.loose,
        state.builds,
        state.players,
        option_flags(state.options),
        card,
    )


def generate(
    p: int,
    hand: int,
    loose: int,
    builds: tuple[Build, ...],
    players: int,
    flags: int,
    card: int = -1,
) -> list[RoyalCasinoAction]:
    """Every legal move of seat ``p`` holding ``hand`` (C4–C6), in a fixed order: card by
    card, its trail (C5.1), captures (C5.2), new builds (C5.3), then adds (C5.4) and raises
    (C5.5); ``card`` >= 0 keeps that card's moves only.

    The loose-card part of every move comes from the table's value template (see
    :class:`_Template`); the rest is the hold obligation (C6.2) and the builds on the table.
    """
    tpl, order = template_of(loose)
    owned_bits = 0
    table_values = 0
    for b in builds:
        table_values |= 1 << b.value
        if b.owner == p:
            owned_bits |= 1 << b.value
    no_new_value = 0 if flags & COEXIST else table_values
    cards = _cards_of(hand)
    moves: list[RoyalCasinoAction] = []
    for c in cards:
        if card >= 0 and c != card:
            continue
        guards = 0
        for o in cards:
            if o != c:
                guards |= CAPVAL_BIT[o]
        vc = VAL[c]
        v = CAPV[c]
        # TRAIL (C5.1): no owned build (C6.1), no loose card of the same rank (C6.3)
        if not owned_bits and not tpl.value_masks[vc]:
            moves.append(_TRAILS[c])
        # CAPTURE (C5.2)
        captures = tpl.caps[vc]
        if captures is None:
            captures = tpl.captures(vc)
        if table_values >> v & 1:
            loose_sets = [_to_cards(i, order) for i in captures]
            _captures_with_builds(p, builds, c, v, guards, owned_bits, loose_sets, moves)
        elif not owned_bits & ~guards:  # no build of value v: loose groups only (C6.2 holds)
            for i in captures:
                if i:
                    moves.append(_new_move((_CAPTURE, c, v, False, 0, _to_cards(i, order))))
        if owned_bits & ~guards:
            continue  # every other move leaves an owned build unguarded (C6.2)
        # BUILD (C5.3): the new value must be guarded by the rest of the hand.
        if loose:
            for value in _BIT_VALUES[guards >> 2]:
                if no_new_value >> value & 1:
                    continue
                for i in tpl.singles(vc, value):
                    moves.append(_new_move((_BUILD, c, value, False, 0, _to_cards(i, order))))
                for i in tpl.multis(vc, value):
                    moves.append(_new_move((_BUILD, c, value, True, 0, _to_cards(i, order))))
        if builds:
            _adds_and_raises(p, builds, players, flags, c, vc, guards, tpl, order, moves)
    return moves


MoveParts = tuple[int, int, int, bool, int, int]
"""A move's fields as plain values: ``(kind, card, value, multi, builds, loose)`` (a
compiled tuple of these is not allocated)."""


def move_without_builds(tpl: _Template, loose: int, c: int, guards: int, k: int) -> MoveParts:
    """The k-th move :func:`generate` lists for card ``c`` on a table of loose cards
    ``loose`` (template ``tpl``) without builds, the rest of the hand guarding ``guards``:
    worked out alone, without listing the others (``tpl.count_moves`` counts them)."""
    vc = VAL[c]
    if not tpl.value_masks[vc]:
        if k == 0:
            return (TRAIL, c, 0, False, 0, 0)
        k -= 1
    captures = tpl.captures(vc)
    first = 1 if captures and not captures[0] else 0
    if k < len(captures) - first:
        return (CAPTURE, c, CAPV[c], False, 0, _to_cards(captures[k + first], value_order(loose)))
    k -= len(captures) - first
    for value in _BIT_VALUES[guards >> 2]:
        for multi in (False, True):
            parts = tpl.multis(vc, value) if multi else tpl.singles(vc, value)
            if k < len(parts):
                return (BUILD, c, value, multi, 0, _to_cards(parts[k], value_order(loose)))
            k -= len(parts)
    raise IndexError("no such move")


def _captures_with_builds(
    p: int,
    builds: tuple[Build, ...],
    c: int,
    v: int,
    guards: int,
    owned_bits: int,
    loose_sets: list[int],
    moves: list[RoyalCasinoAction],
) -> None:
    """Captures that may take builds of value ``v`` along with loose groups (C5.2, C6.2)."""
    build_idx = [i for i, b in enumerate(builds) if b.value == v]
    for sel in range(1 << len(build_idx)):
        bmask = 0
        for j, i in enumerate(build_idx):
            if sel >> j & 1:
                bmask |= 1 << i
        if owned_bits:
            left_owned = 0
            for i, b in enumerate(builds):
                if b.owner == p and not bmask >> i & 1:
                    left_owned |= 1 << b.value
            if left_owned & ~guards:
                continue  # C6.2: the owner must keep a card for every build left
        for u in loose_sets:
            if u or bmask:
                moves.append(_new_move((_CAPTURE, c, v, False, bmask, u)))


def _adds_and_raises(
    p: int,
    builds: tuple[Build, ...],
    players: int,
    flags: int,
    c: int,
    vc: int,
    guards: int,
    tpl: _Template,
    order: list[int],
    moves: list[RoyalCasinoAction],
) -> None:
    """ADD (C5.4) and RAISE (C5.5) moves of card ``c`` onto the builds on the table."""
    partner_ok = players != 4 or flags & PARTNER_OK
    coexist = flags & COEXIST
    absorb = flags & ABSORB
    for i, b in enumerate(builds):
        if not partner_ok and b.owner != p and b.owner % 2 == p % 2:
            continue  # C6.4 with partnerBuildInteraction=FORBIDDEN
        value = b.value
        if guards >> value & 1:
            for s in tpl.adds(vc, value):
                moves.append(_new_move((_ADD, c, value, True, 1 << i, _to_cards(s, order))))
        if b.multi or b.owner == p:
            continue
        new = value + vc
        if new > 14 or not guards >> new & 1:
            continue
        if not coexist and any(o.value == new for j, o in enumerate(builds) if j != i):
            continue
        if absorb:
            for u in tpl.unions(new):
                moves.append(_new_move((_RAISE, c, new, bool(u), 1 << i, _to_cards(u, order))))
        else:
            moves.append(_new_move((_RAISE, c, new, False, 1 << i, 0)))
