"""Royal Casino rules: the legal-move generator (the single source of truth), ``apply``,
the deal and the reasons moves are illegal.

Sets of loose cards are int masks.  For a table the generator lists every subset of loose
cards worth at most 14 (aces 1) once, by sum; a *group* of value V is such a subset of sum
V, or a lone ace when V = 14 (C2.2).  A set of loose cards that splits into groups of V is
a union of pairwise disjoint groups.  The generator works these out on the *values* of the
loose cards (:class:`_Template`, memoised per multiset of values and shared by every table
with the same low cards), which is the "partition check memoised on the value multiset" of
the spec's performance note; :func:`partition` finds one grouping of given cards for
display and for the components of a build.
"""

from __future__ import annotations

from typing import Final

from cardtable.cards import format_card, iter_mask
from cardtable.core.errors import IllegalActionError
from cardtable.core.game import Event
from cardtable.core.options import Options
from cardtable.core.rng import shuffled_deck
from cardtable.games.royal_casino import events as ev
from cardtable.games.royal_casino.scoring import decide_game, is_restricted, score_hand
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
    guard_bits,
    side_of,
)

__all__ = [
    "apply_checked",
    "apply_legal",
    "deal_hand",
    "explain_illegal",
    "groups",
    "legal_actions",
    "partition",
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
_EMPTY: Final = _Template(())
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
        return _EMPTY, []
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
_TRAIL: Final = Kind.TRAIL
_CAPTURE: Final = Kind.CAPTURE
_BUILD: Final = Kind.BUILD
_ADD: Final = Kind.ADD
_RAISE: Final = Kind.RAISE
_PLAY: Final = Phase.PLAY
_BIT_VALUES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(v for v in range(2, 15) if bits >> (v - 2) & 1) for bits in range(1 << 13)
)
"""For a guard set shifted right by 2: the build values 2–14 it guards."""
_ACTION: Final = RoyalCasinoAction
"""The move class, as a compiled module's constant (the generator builds moves with it)."""


def _new_move(fields: tuple[Kind, int, int, bool, int, int]) -> RoyalCasinoAction:
    return tuple.__new__(_ACTION, fields)


_TRAILS: Final = tuple(_new_move((_TRAIL, c, 0, False, 0, 0)) for c in range(52))
"""The trail of each card (moves are values: the 52 trails are made once and shared)."""

# What the generator and apply read of the options, as bits of one int (see _flags).
_COEXIST: Final = 1
"""``sameValueBuildsCoexist``"""
_ABSORB: Final = 2
"""``raiseAbsorbsLoose``"""
_PARTNER_OK: Final = 4
"""``partnerBuildInteraction`` is ``ALLOWED``"""
_CLOCKWISE: Final = 8
"""``direction`` is ``CW``"""
_LAST_SWEEP: Final = 16
"""``lastPlaySweepCounts``"""
_FLAGS_MEMO: tuple[Options | None, int] = (None, 0)
"""The options last read and their flags (one tuple, replaced whole: safe across threads)."""


def _flags(options: Options) -> int:
    """The options the rules read on every move, as bits (``Options`` lookups are
    interpreted calls; the last options read are remembered, as a process mostly plays one
    set of options)."""
    global _FLAGS_MEMO
    memo = _FLAGS_MEMO
    if memo[0] is options:
        return memo[1]
    flags = (
        (_COEXIST if options["sameValueBuildsCoexist"] else 0)
        | (_ABSORB if options["raiseAbsorbsLoose"] else 0)
        | (_PARTNER_OK if options["partnerBuildInteraction"] == "ALLOWED" else 0)
        | (_CLOCKWISE if options["direction"] == "CW" else 0)
        | (_LAST_SWEEP if options["lastPlaySweepCounts"] else 0)
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
    """Every legal move of the player to act (C4–C6), in a fixed order.

    The loose-card part of every move comes from the table's value template (see
    :class:`_Template`); the rest is the hold obligation (C6.2), trails (C5.1) and the
    build moves (C5.4, C5.5).  With ``card``, only the moves that play that card: the same
    generator, a fraction of the work, which is all ``apply`` needs to check a move.
    """
    if state.phase != _PLAY:
        return []
    p = state.turn
    hand = state.hands[p]
    loose = state.loose
    builds = state.builds
    tpl, order = template_of(loose)
    owned_bits = 0
    table_values = 0
    for b in builds:
        table_values |= 1 << b.value
        if b.owner == p:
            owned_bits |= 1 << b.value
    flags = _flags(state.options)
    coexist = flags & _COEXIST
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
        if not owned_bits and not loose & RANK_MASK[vc - 1]:
            moves.append(_TRAILS[c])
        # CAPTURE (C5.2)
        captures = tpl.caps[vc]
        if captures is None:
            captures = tpl.captures(vc)
        if table_values >> v & 1:
            loose_sets = [_to_cards(i, order) for i in captures]
            _captures_with_builds(state, c, v, guards, owned_bits, loose_sets, moves)
        elif not owned_bits & ~guards:  # no build of value v: loose groups only (C6.2 holds)
            for i in captures:
                if i:
                    moves.append(_new_move((_CAPTURE, c, v, False, 0, _to_cards(i, order))))
        if owned_bits & ~guards:
            continue  # every other move leaves an owned build unguarded (C6.2)
        # BUILD (C5.3): the new value must be guarded by the rest of the hand.
        if loose:
            sums = tpl.sums
            has_groups = tpl.groups
            for value in _BIT_VALUES[guards >> 2]:
                if not coexist and table_values >> value & 1:
                    continue
                need = value - vc
                if need >= 1:
                    for i in sums[need]:
                        moves.append(_new_move((_BUILD, c, value, False, 0, _to_cards(i, order))))
                if has_groups[value] and (
                    need == 0 or (value == 14 and vc == 1) or (need >= 1 and sums[need])
                ):
                    for i in tpl.multi_builds(vc, value):
                        moves.append(_new_move((_BUILD, c, value, True, 0, _to_cards(i, order))))
        if builds:
            _adds_and_raises(state, flags, c, vc, guards, tpl, order, moves)
    return moves


def _captures_with_builds(
    state: RoyalCasinoState,
    c: int,
    v: int,
    guards: int,
    owned_bits: int,
    loose_sets: list[int],
    moves: list[RoyalCasinoAction],
) -> None:
    """Captures that may take builds of value ``v`` along with loose groups (C5.2, C6.2)."""
    p = state.turn
    builds = state.builds
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
    state: RoyalCasinoState,
    flags: int,
    c: int,
    vc: int,
    guards: int,
    tpl: _Template,
    order: list[int],
    moves: list[RoyalCasinoAction],
) -> None:
    """ADD (C5.4) and RAISE (C5.5) moves of card ``c`` onto the builds on the table."""
    p = state.turn
    builds = state.builds
    partner_ok = state.players != 4 or flags & _PARTNER_OK
    coexist = flags & _COEXIST
    absorb = flags & _ABSORB
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


# -- dealing ---------------------------------------------------------------------------------
def play_order(dealer: int, players: int, step: int) -> list[int]:
    """The seats in playing order for a dealer: the dealer's right first, dealer last (C3.4)."""
    return [(dealer + step * k) % players for k in range(1, players + 1)]


def deal_hand(
    state: RoyalCasinoState, hand_no: int, dealer: int
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """Shuffle (seeded), deal four table cards and four to each player (C3.1, C3.5)."""
    deck = shuffled_deck(state.seed, "hand", hand_no)
    players = state.players
    order = play_order(dealer, players, state.step)
    table = deck[:4]
    pos = 4
    hands = [0] * players
    for seat in order:
        for c in deck[pos : pos + 4]:
            hands[seat] |= 1 << c
        pos += 4
    loose = 0
    for c in table:
        loose |= 1 << c
    sides = state.sides
    new = tuple.__new__(
        RoyalCasinoState,
        (
            players,
            state.options,
            state.scope,
            state.seed,
            hand_no,
            dealer,
            order[0],
            Phase.PLAY,
            tuple(hands),
            tuple(deck[pos:]),
            loose,
            (),
            (0,) * sides,
            (0,) * sides,
            -1,
            state.scores,
            state.playoff,
            (),
            state.last_hand_points,
        ),
    )
    dealt = ev.Dealt(
        hand_no,
        1,
        dealer,
        tuple(ev.mask_texts(h) for h in hands),
        tuple(ev.CARD_TEXT[c] for c in sorted(table)),
    )
    return new, (dealt,)


# -- apply -----------------------------------------------------------------------------------
def apply_checked(
    state: RoyalCasinoState, action: object
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """:func:`apply_legal` once the move ``action`` is known to be legal, else raise
    :func:`explain_illegal`'s error (nothing changes): the contract's ``apply`` in one call
    (the game object's ``apply`` is this function itself).

    The check asks the generator for the moves of the card played only (the game object
    keeps no cache: it is shared by every table and thread)."""
    if not isinstance(action, RoyalCasinoAction):
        raise explain_illegal(state, action)
    card = action.card
    if card < 0 or action not in legal_actions(state, card):
        raise explain_illegal(state, action)
    return apply_legal(state, action)


_STATE: Final = RoyalCasinoState
"""The state class, as a compiled module's constant (apply builds states with it)."""
_CARD_TEXT: Final = ev.CARD_TEXT
_TRAILED: Final = tuple(ev.Trailed(p, _CARD_TEXT[c]) for p in range(4) for c in range(52))
"""The Trailed event of each seat and card (events are values, made once and shared)."""


def _texts(mask: int) -> tuple[str, ...]:
    """The cards of a set, in notation, in index order (``events.mask_texts``)."""
    return tuple([_CARD_TEXT[c] for c in _cards_of(mask)])


def apply_legal(
    state: RoyalCasinoState, move: RoyalCasinoAction
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """Apply a move already known to be legal, then run the automatic steps."""
    p = state.turn
    players = state.players
    side = side_of(p, players)
    c = move.card
    bit = 1 << c
    hands = list(state.hands)
    hands[p] &= ~bit
    loose = state.loose
    builds = state.builds
    piles = state.piles
    sweeps = state.sweeps
    last = state.last_capturer
    kind = move.kind
    events: list[Event] = []
    if kind == _TRAIL:
        loose |= bit
        events.append(_TRAILED[p * 52 + c])
    elif kind == _CAPTURE:
        taken = bit | move.loose
        kept: list[Build] = []
        for i, b in enumerate(builds):
            if move.builds >> i & 1:
                taken |= b.mask
            else:
                kept.append(b)
        builds = tuple(kept)
        loose &= ~move.loose
        pl = list(piles)
        pl[side] |= taken
        piles = tuple(pl)
        last = p
        sweep = not loose and not builds
        if sweep and not _flags(state.options) & _LAST_SWEEP:
            sweep = any(hands) or bool(state.stock)
        if sweep:
            sw = list(sweeps)
            sw[side] += 1
            sweeps = tuple(sw)
        events.append(
            ev.Captured(
                p,
                _CARD_TEXT[c],
                _texts(move.loose),
                tuple(i + 1 for i in range(len(state.builds)) if move.builds >> i & 1),
                _texts(taken),
                sweep,
            )
        )
    elif kind == _BUILD:
        loose &= ~move.loose
        full = bit | move.loose
        comps = partition(full, move.value) if move.multi else (full,)
        builds = (*builds, Build(move.value, move.multi, p, full, comps or (full,)))
        events.append(
            ev.Built(p, _CARD_TEXT[c], move.value, move.multi, _texts(move.loose), len(builds))
        )
    else:
        i = move.builds.bit_length() - 1
        b = builds[i]
        loose &= ~move.loose
        if kind == _ADD:
            added = partition(bit | move.loose, b.value) or (bit | move.loose,)
            nb = Build(b.value, True, p, b.mask | bit | move.loose, b.comps + added)
            events.append(ev.Added(p, _CARD_TEXT[c], i + 1, _texts(move.loose), b.owner, b.value))
        else:
            absorbed = partition(move.loose, move.value) or ()
            nb = Build(
                move.value,
                bool(move.loose),
                p,
                b.mask | bit | move.loose,
                (b.mask | bit, *absorbed),
            )
            events.append(
                ev.Raised(
                    p,
                    _CARD_TEXT[c],
                    i + 1,
                    b.value,
                    move.value,
                    _texts(move.loose),
                    b.owner,
                )
            )
        builds = (*builds[:i], nb, *builds[i + 1 :])
    # whose turn next
    step = -1 if _flags(state.options) & _CLOCKWISE else 1
    turn = (p + step) % players
    new = tuple.__new__(
        _STATE,
        (
            players,
            state.options,
            state.scope,
            state.seed,
            state.hand_no,
            state.dealer,
            turn,
            _PLAY,
            tuple(hands),
            state.stock,
            loose,
            builds,
            piles,
            sweeps,
            last,
            state.scores,
            state.playoff,
            (),
            state.last_hand_points,
        ),
    )
    if hands[turn]:
        return new, tuple(events)
    if any(hands):
        # Only in hand-made positions: skip seats with no cards.
        while not hands[turn]:
            turn = (turn + step) % players
        return _with_turn(new, turn), tuple(events)
    if state.stock:
        return _deal_round(new, events)
    return _end_hand(new, events)


def _with_turn(state: RoyalCasinoState, turn: int) -> RoyalCasinoState:
    return state._replace(turn=turn)


def _deal_round(
    state: RoyalCasinoState, events: list[Event]
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """Deal four more cards to each player, none to the table (C3.2)."""
    players = state.players
    order = play_order(state.dealer, players, state.step)
    stock = state.stock
    hands = [0] * players
    pos = 0
    for seat in order:
        for c in stock[pos : pos + 4]:
            hands[seat] |= 1 << c
        pos += 4
    deal_no = (52 - 4 - len(stock)) // (4 * players) + 1
    events.append(
        ev.Dealt(state.hand_no, deal_no, state.dealer, tuple(ev.mask_texts(h) for h in hands), ())
    )
    new = state._replace(turn=order[0], phase=Phase.PLAY, hands=tuple(hands), stock=stock[pos:])
    return new, tuple(events)


def _end_hand(
    state: RoyalCasinoState, events: list[Event]
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """Leftovers to the last capturer (C8.1), score the hand (C9), decide the game (C10)."""
    players = state.players
    piles = list(state.piles)
    loose = state.loose
    if loose and state.last_capturer >= 0:
        side = side_of(state.last_capturer, players)
        piles[side] |= loose
        events.append(ev.Leftovers(state.last_capturer, ev.mask_texts(loose)))
        loose = 0
    restricted = tuple(is_restricted(s, state.playoff) for s in state.scores)
    hand = score_hand(piles, state.sweeps, state.options, restricted)
    points = tuple(h.total for h in hand)
    if state.scope == "unit":
        best = max(points)
        winners = tuple(i for i, pt in enumerate(points) if pt == best)
        scores = tuple(s + pt for s, pt in zip(state.scores, points, strict=True))
        events.append(ev.HandScored(state.hand_no, hand, points, scores))
        events.append(ev.GameOver(scores, winners, "one hand"))
        return _finish(state, tuple(piles), loose, scores, winners, points, False), tuple(events)
    decision = decide_game(state.scores, hand, state.options, state.playoff)
    events.append(ev.HandScored(state.hand_no, hand, points, decision.scores))
    if decision.winners:
        detail = "automatic win (C10.2)" if decision.automatic else "reached 21"
        events.append(ev.GameOver(decision.scores, decision.winners, detail))
        return (
            _finish(state, tuple(piles), loose, decision.scores, decision.winners, points, False),
            tuple(events),
        )
    # Next hand: the deal passes to the old dealer's right (C1.4).
    base = _finish(state, tuple(piles), loose, decision.scores, (), points, decision.playoff)
    next_dealer = (state.dealer + state.step) % players
    nxt, deal_events = deal_hand(base, state.hand_no + 1, next_dealer)
    events.extend(deal_events)
    return nxt, tuple(events)


def _finish(
    state: RoyalCasinoState,
    piles: tuple[int, ...],
    loose: int,
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    points: tuple[int, ...],
    playoff: bool,
) -> RoyalCasinoState:
    return state._replace(
        turn=-1,
        phase=Phase.OVER,
        loose=loose,
        piles=piles,
        scores=scores,
        playoff=playoff,
        winners=winners,
        last_hand_points=points,
    )


# -- reasons ---------------------------------------------------------------------------------
def _cards(mask: int) -> str:
    return " ".join(format_card(c) for c in iter_mask(mask))


def _guard_name(value: int) -> str:
    return {14: "an ace", 11: "a J", 12: "a Q", 13: "a K"}.get(value, f"a {value}")


def explain_illegal(state: RoyalCasinoState, move: object) -> IllegalActionError:
    """Why ``move`` is not legal here: the rule id and a reason a person understands."""
    if state.phase != Phase.PLAY:
        return IllegalActionError("C10.4", "the game is over")
    if not isinstance(move, RoyalCasinoAction):
        return IllegalActionError("", f"{move!r} is not a Royal Casino move")
    p = state.turn
    hand = state.hands[p]
    c = move.card
    bit = 1 << c
    name = format_card(c)
    if not hand & bit:
        return IllegalActionError("C4.0", f"{name} is not in your hand")
    if move.loose & ~state.loose:
        return IllegalActionError(
            "C5.2", f"{_cards(move.loose & ~state.loose)} is not a loose card on the table"
        )
    if move.builds >> len(state.builds):
        return IllegalActionError("C5.2", "there is no such build on the table")
    rest_hand = hand & ~bit
    guards = guard_bits(rest_hand)
    owned = [b for b in state.builds if b.owner == p]
    equal = state.loose & RANK_MASK[VAL[c] - 1]
    kind = move.kind
    if kind == Kind.TRAIL:
        if owned:
            return IllegalActionError("C6.1", "you own a build, so you may not trail")
        if equal:
            return IllegalActionError(
                "C6.3",
                f"a loose {_cards(equal)} is on the table: capture it or build with {name}; "
                "you may not trail it",
            )
    elif kind == Kind.CAPTURE:
        v = CAPV[c]
        if not move.loose and not move.builds:
            return IllegalActionError("C5.2", "a capture must take at least one card or build")
        for i, b in enumerate(state.builds):
            if move.builds >> i & 1 and b.value != v:
                return IllegalActionError(
                    "C5.2", f"b{i + 1} is worth {b.value}; {name} captures only {v}"
                )
        if equal & ~move.loose:
            return IllegalActionError(
                "C6.3", f"you must take every loose card of {name}'s rank: {_cards(equal)}"
            )
        if partition(move.loose, v) is None:
            return IllegalActionError(
                "C5.2", f"{_cards(move.loose)} cannot be split into groups worth {v}"
            )
    elif kind == Kind.BUILD:
        if not move.loose:
            return IllegalActionError("C5.3", "a build must use at least one loose card")
        if not 2 <= move.value <= 14:
            return IllegalActionError("C5.3", "a build is worth 2 to 14")
        total = VAL[c] + sum(VAL[x] for x in iter_mask(move.loose))
        if not move.multi and total != move.value:
            return IllegalActionError(
                "C5.3", f"{name} and {_cards(move.loose)} make {total}, not {move.value}"
            )
        if move.multi and (
            partition(bit | move.loose, move.value) is None
            or len(partition(bit | move.loose, move.value) or ()) < 2
        ):
            return IllegalActionError(
                "C5.3",
                f"{name} and {_cards(move.loose)} do not split into two or more groups "
                f"worth {move.value}",
            )
        if not guards >> move.value & 1:
            return IllegalActionError(
                "C6.2",
                f"you must keep {_guard_name(move.value)} in hand to build {move.value} "
                "(no building for partner)",
            )
        if not state.options["sameValueBuildsCoexist"] and any(
            b.value == move.value for b in state.builds
        ):
            return IllegalActionError(
                "C5.3", f"a {move.value}-build is already on the table: add to it instead"
            )
    elif kind in (Kind.ADD, Kind.RAISE):
        if move.builds.bit_count() != 1:
            return IllegalActionError("C5.4", "name exactly one build")
        i = move.builds.bit_length() - 1
        b = state.builds[i]
        partner = (
            state.players == 4
            and b.owner != p
            and side_of(b.owner, 4) == side_of(p, 4)
            and state.options["partnerBuildInteraction"] == "FORBIDDEN"
        )
        if partner:
            return IllegalActionError(
                "C6.4", "partners may not add to or raise each other's builds in this game"
            )
        if kind == Kind.ADD:
            if partition(bit | move.loose, b.value) is None:
                return IllegalActionError(
                    "C5.4",
                    f"{name} {_cards(move.loose)} does not make groups worth {b.value}".replace(
                        "  ", " "
                    ),
                )
            if not guards >> b.value & 1:
                return IllegalActionError(
                    "C6.2", f"you must keep {_guard_name(b.value)} in hand to add to b{i + 1}"
                )
        else:
            if b.multi:
                return IllegalActionError("C5.5", "a multiple build cannot be raised")
            if b.owner == p:
                return IllegalActionError("C5.5", "you cannot raise your own build")
            new = b.value + VAL[c]
            if new > 14:
                return IllegalActionError("C5.5", f"raising b{i + 1} would make {new}, over 14")
            if move.value != new:
                return IllegalActionError(
                    "C5.5", f"{name} on b{i + 1} makes {new}, not {move.value}"
                )
            if move.loose and not state.options["raiseAbsorbsLoose"]:
                return IllegalActionError(
                    "C5.5", "only one card from the hand may change a build's value"
                )
            if partition(move.loose, new) is None:
                return IllegalActionError(
                    "C5.5", f"{_cards(move.loose)} cannot be split into groups worth {new}"
                )
            if not guards >> new & 1:
                return IllegalActionError(
                    "C6.2", f"you must keep {_guard_name(new)} in hand to raise to {new}"
                )
            if not state.options["sameValueBuildsCoexist"] and any(
                o.value == new for j, o in enumerate(state.builds) if j != i
            ):
                return IllegalActionError(
                    "C5.3", f"a {new}-build is already on the table: add to it instead"
                )
    # The hold obligation for the builds the player will own afterwards (C6.2).
    remaining = 0
    for i, b in enumerate(state.builds):
        if b.owner == p and not (kind == Kind.CAPTURE and move.builds >> i & 1):
            remaining |= 1 << b.value
    if remaining & ~guards:
        v = next(v for v in range(2, 15) if (remaining & ~guards) >> v & 1)
        return IllegalActionError(
            "C6.2",
            f"you own a {v}-build and would have no card to capture it left in hand",
        )
    return IllegalActionError("C4.0", "that move is not legal here")
