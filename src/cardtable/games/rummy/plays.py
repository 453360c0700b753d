"""Play generation: every MELD, LAYOFF and SWAP a hand allows, and the R4.7 completion search.

Both the rules (:mod:`cardtable.games.rummy.rules`, which lists legal actions) and the
explanations (:mod:`cardtable.games.rummy.analysis`, which says why an action is not legal)
use them, so they live below both.
"""

from __future__ import annotations

from cardtable.games.rummy.melds import (
    joker_runs,
    joker_sets,
    natural_runs,
    natural_sets,
    pos_face,
    run_ends,
    valid_composition,
)
from cardtable.games.rummy.state import (
    JOKER0,
    LAYOFF,
    MELD,
    RUN,
    SET,
    SETJ,
    SWAP,
    Config,
    Meld,
    RummyAction,
    hand_faces,
)

__all__ = [
    "Memo",
    "Play",
    "completable",
    "gen_plays",
    "layoff_run",
    "layoff_set",
    "pick_copy",
    "pick_pref",
    "run_meld",
    "set_meld",
]


Play = tuple[RummyAction, int, tuple[Meld, ...], int, int]
"""(action, hand after, melds after, melds made this turn after, obligations added)."""


_RANK_FACES = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
"""The four faces of each rank (index rank - 1)."""


def pick_copy(hand: int, face: int, pref: int) -> int:
    """The copy of a natural face to play: a preferred copy (obligated, or the card taken
    from the pile) first, else the lowest."""
    a, b = face, face + 52
    if pref >> a & 1 and hand >> a & 1:
        return a
    if pref >> b & 1 and hand >> b & 1:
        return b
    if hand >> a & 1:
        return a
    if hand >> b & 1:
        return b
    return -1


def _jokers(hand: int, obl: int, taken: int, count: int) -> list[int]:
    """``count`` jokers to play, in increasing id order: obligated ones first, then the one
    taken from the pile, then the lowest."""
    order = [j for j in range(JOKER0, JOKER0 + 4) if (hand & obl) >> j & 1]
    if taken >= JOKER0 and hand >> taken & 1 and not obl >> taken & 1:
        order.append(taken)
    if len(order) < count:
        order += [j for j in range(JOKER0, JOKER0 + 4) if hand >> j & 1 and j not in order]
    return sorted(order[:count])


def _set_cards(naturals: list[int], jokers: list[int]) -> tuple[int, ...]:
    return tuple(sorted(naturals, key=lambda c: c % 52)) + tuple(sorted(jokers))


def _mask(cards: tuple[int, ...]) -> int:
    used = 0
    for c in cards:
        used |= 1 << c
    return used


def pick_pref(obl: int, taken: int) -> int:
    """The copies a play prefers (R1.5): the obligated ones and the card taken this turn."""
    return obl | 1 << taken if taken >= 0 else obl


# ---------------------------------------------------------------- one play, built


def run_meld(
    hand: int,
    pref: int,
    seat: int,
    suit: int,
    lo: int,
    length: int,
    melds: tuple[Meld, ...],
    nmelds: int,
) -> Play:
    """MELD of the natural run of ``suit`` from position ``lo``, ``length`` cards long."""
    base = 13 * suit
    meanings = tuple([base + (lo + i - 1) % 13 for i in range(length)])
    cards = tuple([pick_copy(hand, f, pref) for f in meanings])
    return (
        RummyAction(MELD, cards, meanings, lo),
        hand & ~_mask(cards),
        (*melds, Meld(RUN, suit, lo, cards, seat)),
        nmelds + 1,
        0,
    )


def set_meld(
    hand: int,
    pref: int,
    seat: int,
    rank: int,
    suits: int,
    jokers: list[int],
    melds: tuple[Meld, ...],
    nmelds: int,
) -> Play:
    """MELD of the set of rank index ``rank`` in the suits of the 4-bit mask ``suits``,
    with ``jokers``."""
    nat = [pick_copy(hand, 13 * s + rank, pref) for s in range(4) if suits >> s & 1]
    cards = _set_cards(nat, jokers)
    meanings = tuple([c % 52 if c < JOKER0 else SETJ + rank for c in cards])
    return (
        RummyAction(MELD, cards, meanings, 0),
        hand & ~_mask(cards),
        (*melds, Meld(SET, -1, rank + 1, cards, seat)),
        nmelds + 1,
        0,
    )


def layoff_run(
    meld: Meld,
    mi: int,
    melds: tuple[Meld, ...],
    card: int,
    face: int,
    pos: int,
    hand: int,
    nmelds: int,
) -> Play:
    """LAYOFF of ``card`` (standing for ``face``) at position ``pos`` of run ``mi``."""
    n = len(meld.cards)
    if pos == meld.lo + n:
        nmeld = Meld(RUN, meld.suit, meld.lo, (*meld.cards, card), meld.owner)
    else:
        lo = pos if pos >= 1 else pos + 13
        nmeld = Meld(RUN, meld.suit, lo, (card, *meld.cards), meld.owner)
    return (
        RummyAction(LAYOFF, (card,), (face,), mi),
        hand & ~(1 << card),
        (*melds[:mi], nmeld, *melds[mi + 1 :]),
        nmelds,
        0,
    )


def layoff_set(
    meld: Meld, mi: int, melds: tuple[Meld, ...], card: int, meaning: int, hand: int, nmelds: int
) -> Play:
    """LAYOFF of ``card`` (standing for ``meaning``) onto set ``mi``."""
    cards = meld.cards
    nat = [x for x in cards if x < JOKER0]
    js = [x for x in cards if x >= JOKER0]
    if card < JOKER0:
        nat.append(card)
    else:
        js.append(card)
    nmeld = Meld(SET, -1, meld.lo, _set_cards(nat, js), meld.owner)
    return (
        RummyAction(LAYOFF, (card,), (meaning,), mi),
        hand & ~(1 << card),
        (*melds[:mi], nmeld, *melds[mi + 1 :]),
        nmelds,
        0,
    )


def _swap(
    meld: Meld,
    mi: int,
    melds: tuple[Meld, ...],
    nc: tuple[int, ...],
    card: int,
    joker: int,
    hand: int,
    nmelds: int,
) -> Play:
    """SWAP of natural ``card`` for table joker ``joker``: meld ``mi`` becomes ``nc``."""
    nmeld = Meld(meld.kind, meld.suit, meld.lo, nc, meld.owner)
    return (
        RummyAction(SWAP, (card, joker), (), mi),
        (hand & ~(1 << card)) | 1 << joker,
        (*melds[:mi], nmeld, *melds[mi + 1 :]),
        nmelds,
        1 << joker,
    )


# ---------------------------------------------------------------- every play, listed


def gen_plays(
    cfg: Config,
    seat: int,
    hand: int,
    melds: tuple[Meld, ...],
    nmelds: int,
    obl: int,
    taken: int = -1,
) -> list[Play]:
    """Every MELD, LAYOFF and SWAP the rules allow from ``hand`` (before the R4.7 check),
    in canonical order: runs suit by suit, sets rank by rank, lay-offs, swaps.

    Equal copies (R1.5) are listed once: an obligated copy, else the card taken from the
    pile this turn (``taken``, R4.5), else the lowest id.  Playing a copy that must leave
    the hand, or that may not be discarded, keeps every completion of the turn that
    playing another copy would (R4.7), so no legal play is lost.
    """
    out: list[Play] = []
    pref = pick_pref(obl, taken)
    fm = hand_faces(hand)
    nj = (hand >> JOKER0).bit_count()
    if not (cfg.one_meld and nmelds >= 1):
        _run_melds(out, cfg, seat, hand, fm, nj, melds, nmelds, obl, taken, pref)
        _set_melds(out, cfg, seat, hand, fm, nj, melds, nmelds, obl, taken, pref)
    _layoffs(out, cfg, hand, fm, nj, melds, nmelds, obl, taken, pref)
    if cfg.swap and melds:
        _swaps(out, hand, fm, melds, nmelds, pref)
    return out


def _run_melds(
    out: list[Play],
    cfg: Config,
    seat: int,
    hand: int,
    fm: int,
    nj: int,
    melds: tuple[Meld, ...],
    nmelds: int,
    obl: int,
    taken: int,
    pref: int,
) -> None:
    """The runs of each suit: natural ones, then with jokers (R5.2, R8)."""
    wrap = cfg.wrap
    for s in range(4):
        pat = fm >> (13 * s) & 0x1FFF
        if not pat:
            continue
        if (
            not nj
            and not pat & pat >> 1 & pat >> 2
            and pat & 0x1801 != 0x1801
            and not (wrap and pat & 0x1003 == 0x1003)
        ):
            continue  # no three in a row: no natural run
        for lo, length, _ in natural_runs(pat, wrap):
            out.append(run_meld(hand, pref, seat, s, lo, length, melds, nmelds))
        if not nj:
            continue
        base = 13 * s
        for lo, length, _, slots in joker_runs(pat, nj, wrap, cfg.joker_limit, cfg.touch):
            js = _jokers(hand, obl, taken, slots.bit_count())
            ji = 0
            cl: list[int] = []
            ml: list[int] = []
            for i in range(length):
                f = base + (lo + i - 1) % 13
                if slots >> i & 1:
                    c = js[ji]
                    ji += 1
                else:
                    c = pick_copy(hand, f, pref)
                cl.append(c)
                ml.append(f)
            cards = tuple(cl)
            out.append(
                (
                    RummyAction(MELD, cards, tuple(ml), lo),
                    hand & ~_mask(cards),
                    (*melds, Meld(RUN, s, lo, cards, seat)),
                    nmelds + 1,
                    0,
                )
            )


def _set_melds(
    out: list[Play],
    cfg: Config,
    seat: int,
    hand: int,
    fm: int,
    nj: int,
    melds: tuple[Meld, ...],
    nmelds: int,
    obl: int,
    taken: int,
    pref: int,
) -> None:
    """The sets of each rank: natural ones, then with jokers (R5.1, R8)."""
    sa, sb, sc, sd = fm & 0x1FFF, fm >> 13 & 0x1FFF, fm >> 26 & 0x1FFF, fm >> 39
    ranks = (sa | sb | sc | sd) if nj else ((sa & sb & (sc | sd)) | (sc & sd & (sa | sb)))
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        r = low.bit_length() - 1
        q = (fm >> r & 1) | (fm >> (r + 12) & 2) | (fm >> (r + 24) & 4) | (fm >> (r + 36) & 8)
        if q.bit_count() >= 3:
            for sub in natural_sets(q):
                out.append(set_meld(hand, pref, seat, r, sub, [], melds, nmelds))
        if nj:
            for sub, j in joker_sets(q, nj, cfg.joker_limit):
                js = _jokers(hand, obl, taken, j)
                out.append(set_meld(hand, pref, seat, r, sub, js, melds, nmelds))


def _layoffs(
    out: list[Play],
    cfg: Config,
    hand: int,
    fm: int,
    nj: int,
    melds: tuple[Meld, ...],
    nmelds: int,
    obl: int,
    taken: int,
    pref: int,
) -> None:
    """The lay-offs onto each meld (R6): natural cards, then a joker (R8)."""
    wrap = cfg.wrap
    joker = _jokers(hand, obl, taken, 1)[0] if nj else -1
    for mi in range(len(melds)):
        meld = melds[mi]
        if not nj and not _may_extend(meld, fm, wrap):
            continue
        cards = meld.cards
        njm = 0
        for c in cards:
            if c >= JOKER0:
                njm += 1
        joker_fits = joker >= 0 and valid_composition(len(cards) - njm, njm + 1, cfg.joker_limit)
        if meld.kind == RUN:
            seen = 0
            for pos in run_ends(meld, wrap):
                f = pos_face(meld.suit, pos)
                if not seen >> f & 1 and fm >> f & 1:
                    seen |= 1 << f
                    c = pick_copy(hand, f, pref)
                    out.append(layoff_run(meld, mi, melds, c, f, pos, hand, nmelds))
                if joker_fits and not seen >> (f + 52) & 1:
                    if not cfg.touch:
                        neighbour = cards[-1] if pos == meld.lo + len(cards) else cards[0]
                        if neighbour >= JOKER0:
                            continue
                    seen |= 1 << (f + 52)
                    out.append(layoff_run(meld, mi, melds, joker, f, pos, hand, nmelds))
        elif len(cards) < 4:
            r = meld.lo - 1
            present = _set_suits(cards)
            for s in range(4):
                f = 13 * s + r
                if not present >> s & 1 and fm >> f & 1:
                    c = pick_copy(hand, f, pref)
                    out.append(layoff_set(meld, mi, melds, c, f, hand, nmelds))
            if joker_fits:
                out.append(layoff_set(meld, mi, melds, joker, SETJ + r, hand, nmelds))


def _may_extend(meld: Meld, fm: int, wrap: bool) -> bool:
    """A quick test for a hand without jokers (faces ``fm``): may a card of it extend
    ``meld``?"""
    n = len(meld.cards)
    if meld.kind == RUN:
        if n >= 13:
            return False
        base = 13 * meld.suit
        lo = meld.lo
        hi = lo + n - 1
        return bool(
            ((wrap or hi < 14) and fm >> (base + hi % 13) & 1)
            or ((wrap or lo > 1) and fm >> (base + (lo - 2) % 13) & 1)
        )
    return n < 4 and bool(fm & _RANK_FACES[meld.lo - 1])


def _set_suits(cards: tuple[int, ...]) -> int:
    """The 4-bit mask of the suits of a set's natural cards."""
    present = 0
    for c in cards:
        if c < JOKER0:
            present |= 1 << (c % 52 // 13)
    return present


def _swaps(
    out: list[Play], hand: int, fm: int, melds: tuple[Meld, ...], nmelds: int, pref: int
) -> None:
    """The exchanges of a natural card for a table joker (R8.7)."""
    for mi in range(len(melds)):
        meld = melds[mi]
        cards = meld.cards
        if max(cards) < JOKER0:
            continue
        if meld.kind == RUN:
            for i, j in enumerate(cards):
                if j < JOKER0:
                    continue
                f = pos_face(meld.suit, meld.lo + i)
                if fm >> f & 1:
                    c = pick_copy(hand, f, pref)
                    nc = (*cards[:i], c, *cards[i + 1 :])
                    out.append(_swap(meld, mi, melds, nc, c, j, hand, nmelds))
        else:
            r = meld.lo - 1
            nat = [x for x in cards if x < JOKER0]
            js = [x for x in cards if x >= JOKER0]
            present = _set_suits(cards)
            for s in range(4):
                f = 13 * s + r
                if not present >> s & 1 and fm >> f & 1:
                    c = pick_copy(hand, f, pref)
                    nc = _set_cards([*nat, c], js[1:])
                    out.append(_swap(meld, mi, melds, nc, c, js[0], hand, nmelds))


# ------------------------------------------------------------- the R4.7 completion test


def _near(r: int, wrap: bool) -> int:
    """The ranks (a 13-bit mask) within two of rank index ``r`` in a run (R2.2, R2.3)."""
    positions = [r + 1, 14] if r == 0 and not wrap else [r + 1]
    mask = 0
    for p in positions:
        for d in (-2, -1, 1, 2):
            q = p + d
            if wrap or 1 <= q <= 14:
                mask |= 1 << (q - 1) % 13
    return mask


_NEAR = {wrap: tuple(_near(r, wrap) for r in range(13)) for wrap in (False, True)}
"""Per wrap flag and rank index, the ranks that may share a run within two of it."""


def _could_use(cfg: Config, card: int, hand: int, melds: tuple[Meld, ...]) -> bool:
    """A quick necessary condition for an obligated natural card to leave the hand this
    turn: in a new meld, laid off, or swapped for a table joker (R8.7).

    The jokers that may help are those in hand and, with ``jokerSwap``, those on the
    table that a natural card held now could free: no natural card enters the hand during
    a turn, and a joker on the table keeps its meaning.  A meld made this turn that the card
    joins needs two cards of its rank or two of its suit within two ranks of it (naturals or
    jokers); otherwise the card joins a meld already on the table: a run of its suit, a set of its
    rank with room, or (by a swap) a set of its rank whose jokers stand for its suit.
    """
    if card >= JOKER0:
        return True
    nj = (hand >> JOKER0).bit_count()
    fm = hand_faces(hand)
    f = card % 52
    s, r = divmod(f, 13)
    suits = (fm >> r & 1) + (fm >> (r + 13) & 1) + (fm >> (r + 26) & 1) + (fm >> (r + 39) & 1)
    if suits + nj >= 3:
        return True
    near = (fm >> (13 * s) & _NEAR[cfg.wrap][r]).bit_count()
    if near + nj >= 2:
        return True
    for meld in melds:
        if meld.kind == RUN:
            if meld.suit == s:
                return True
        elif meld.lo - 1 == r:
            if len(meld.cards) < 4:
                return True
            if (  # a swap into a set whose jokers (listed last) may stand for this suit
                cfg.swap
                and meld.cards[-1] >= JOKER0
                and all(c >= JOKER0 or c % 52 // 13 != s for c in meld.cards)
            ):
                return True
    if not cfg.swap:
        return False
    # the table jokers that a natural card held now could free
    need = min(3 - suits, 2 - near) - nj
    for meld in melds:
        cards = meld.cards
        if max(cards) < JOKER0:
            continue
        if meld.kind == RUN:
            for i, c in enumerate(cards):
                if c >= JOKER0 and fm >> pos_face(meld.suit, meld.lo + i) & 1:
                    need -= 1
        else:
            rank = meld.lo - 1
            lacking = 0  # faces of the set's rank held, of suits the set lacks
            for t in range(4):
                lacking += fm >> (13 * t + rank) & 1
            jokers = 0
            for c in cards:
                if c >= JOKER0:
                    jokers += 1
                else:
                    lacking -= fm >> (c % 52) & 1
            need -= min(jokers, lacking)
        if need <= 0:
            return True
    return False


Memo = dict[tuple[int, tuple[Meld, ...], int, int], bool]
"""Completability by (hand, melds, obligations, melds made) within one turn."""


def completable(
    cfg: Config,
    seat: int,
    hand: int,
    melds: tuple[Meld, ...],
    obl: int,
    taken: int,
    nmelds: int,
    memo: Memo | None = None,
) -> bool:
    """R4.7: can the turn still be completed — an empty hand (unless mustDiscardToGoOut), or
    every obligation met and a card left that may be discarded?

    The search tries every play :func:`gen_plays` lists, swaps included (R4.3, R8.7), so a
    play whose turn can be completed only by a later swap is legal.  ``memo`` may be shared
    by calls with the same ``taken``.
    """
    if not obl:
        if not hand:
            return not cfg.must_discard
        if hand & ~(1 << taken if taken >= 0 else 0):
            return True
    else:
        o = obl
        while o:
            low = o & -o
            if not _could_use(cfg, low.bit_length() - 1, hand, melds):
                return False
            o ^= low
    if memo is None:
        memo = {}
    key = (hand, melds, obl, nmelds)
    got = memo.get(key)
    if got is not None:
        return got
    memo[key] = False
    plays = gen_plays(cfg, seat, hand, melds, nmelds, obl, taken)
    if obl:
        plays.sort(key=lambda p: not any(obl >> c & 1 for c in p[0].cards))
    for _, nh, nm, nn, oa in plays:
        if completable(cfg, seat, nh, nm, (obl & nh) | oa, taken, nn, memo):
            memo[key] = True
            return True
    return False
