"""Rummy rules: dealing, legal actions, the no-dead-end search, and ``apply``.

The legal-action generator is the single source of truth: :func:`transitions` lists every
legal action with the state it leads to, and ``apply`` only looks actions up there.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from cardtable.core.errors import IllegalActionError
from cardtable.core.game import Event
from cardtable.core.rng import derive_rng
from cardtable.games.rummy.events import (
    Discarded,
    DrewStock,
    GameEnded,
    LaidOff,
    Melded,
    RoundDealt,
    RoundEnded,
    StockTurnedOver,
    SwappedJoker,
    TookDiscard,
)
from cardtable.games.rummy.melds import (
    joker_runs,
    joker_sets,
    meld_meanings,
    natural_runs,
    natural_sets,
    pos_face,
    run_ends,
    valid_composition,
)
from cardtable.games.rummy.scoring import hand_penalty, rank_winners, round_scores
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    F52,
    JOKER0,
    LAYOFF,
    MELD,
    RUN,
    SET,
    SETJ,
    SWAP,
    TAKE,
    Config,
    Meld,
    Phase,
    RummyAction,
    RummyState,
    card_text,
    hand_faces,
)

__all__ = [
    "Play",
    "apply_action",
    "completable",
    "deal",
    "explain_illegal",
    "gen_plays",
    "legal",
    "meld_text",
    "slot_text",
]

Play = tuple[RummyAction, int, tuple[Meld, ...], int, int]
"""(action, hand after, melds after, melds made this turn after, obligations added)."""


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


# --------------------------------------------------------------------------- dealing


def deal(
    cfg: Config,
    seed: int,
    scope: str,
    round_no: int,
    dealer: int,
    scores: tuple[int, ...],
    closes: tuple[int, ...],
    penalties: tuple[int, ...],
    last_closer: int = -1,
    last_scores: tuple[int, ...] = (),
) -> tuple[RummyState, RoundDealt]:
    """Deal round ``round_no + 1`` (R3.3): card *i* to the *i mod n*-th player from the
    dealer's left, then the upcard, then the stock (index 0 = top)."""
    n = cfg.players
    deck = list(range(52 * cfg.decks))
    if cfg.jokers:
        deck.extend(range(JOKER0, JOKER0 + 2 * cfg.decks))
    derive_rng(seed, "deal", round_no).shuffle(deck)
    first = (dealer + 1) % n
    h = cfg.hand_size
    hands = [0] * n
    for i in range(n * h):
        hands[(first + i % n) % n] |= 1 << deck[i]
    state = RummyState(
        cfg=cfg,
        seed=seed,
        scope=scope,
        round_no=round_no,
        dealer=dealer,
        phase=Phase.DRAW,
        current=first,
        hands=tuple(hands),
        known=0,
        stock=tuple(deck[n * h + 1 :]),
        discard=(deck[n * h],),
        melds=(),
        taken=-1,
        obligations=0,
        melds_this_turn=0,
        placed_this_turn=False,
        placed=(False,) * n,
        turn_no=0,
        turnovers=0,
        stock_public=False,
        scores=scores,
        closes=closes,
        penalties=penalties,
        last_closer=last_closer,
        last_scores=last_scores,
        out=0,
    )
    event = RoundDealt(round_no + 1, dealer, first, h, card_text(deck[n * h]), len(state.stock))
    return state, event


# ------------------------------------------------------------------ play generation


def _pick(hand: int, face: int, pref: int) -> int:
    """The copy of a natural face to play: an obligated copy first, else the lowest."""
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


def _jokers(hand: int, pref: int, count: int) -> list[int]:
    """``count`` jokers to play (obligated ones first), in increasing id order."""
    first = [j for j in range(JOKER0, JOKER0 + 4) if (hand & pref) >> j & 1]
    rest = [j for j in range(JOKER0, JOKER0 + 4) if hand >> j & 1 and not pref >> j & 1]
    return sorted((first + rest)[:count])


def _set_cards(naturals: list[int], jokers: list[int]) -> tuple[int, ...]:
    return tuple(sorted(naturals, key=lambda c: c % 52)) + tuple(sorted(jokers))


def gen_plays(
    cfg: Config, seat: int, hand: int, melds: tuple[Meld, ...], nmelds: int, obl: int
) -> list[Play]:
    """Every MELD, LAYOFF and SWAP the rules allow from ``hand`` (before the R4.7 check)."""
    out: list[Play] = []
    fm = hand_faces(hand)
    nj = (hand >> JOKER0).bit_count()
    wrap = cfg.wrap
    nm = len(melds)
    if not (cfg.one_meld and nmelds >= 1):
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
            base = 13 * s
            for lo, length, _ in natural_runs(pat, wrap):
                cards = tuple(_pick(hand, base + (lo + i - 1) % 13, obl) for i in range(length))
                meanings = tuple(base + (lo + i - 1) % 13 for i in range(length))
                used = 0
                for c in cards:
                    used |= 1 << c
                out.append(
                    (
                        RummyAction(MELD, cards, meanings, lo),
                        hand & ~used,
                        (*melds, Meld(RUN, s, lo, cards, seat)),
                        nmelds + 1,
                        0,
                    )
                )
            if nj:
                for lo, length, _, slots in joker_runs(pat, nj, wrap, cfg.joker_limit, cfg.touch):
                    js = _jokers(hand, obl, slots.bit_count())
                    ji = 0
                    cl: list[int] = []
                    ml: list[int] = []
                    used = 0
                    for i in range(length):
                        f = base + (lo + i - 1) % 13
                        if slots >> i & 1:
                            c = js[ji]
                            ji += 1
                        else:
                            c = _pick(hand, f, obl)
                        cl.append(c)
                        ml.append(f)
                        used |= 1 << c
                    cards = tuple(cl)
                    out.append(
                        (
                            RummyAction(MELD, cards, tuple(ml), lo),
                            hand & ~used,
                            (*melds, Meld(RUN, s, lo, cards, seat)),
                            nmelds + 1,
                            0,
                        )
                    )
        sa, sb, sc, sd = fm & 0x1FFF, fm >> 13 & 0x1FFF, fm >> 26 & 0x1FFF, fm >> 39
        ranks = (sa | sb | sc | sd) if nj else ((sa & sb & (sc | sd)) | (sc & sd & (sa | sb)))
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            r = low.bit_length() - 1
            q = (fm >> r & 1) | (fm >> (r + 12) & 2) | (fm >> (r + 24) & 4) | (fm >> (r + 36) & 8)
            if q.bit_count() >= 3:
                for sub in natural_sets(q):
                    nat = [_pick(hand, 13 * s + r, obl) for s in range(4) if sub >> s & 1]
                    cards = _set_cards(nat, [])
                    used = 0
                    for c in cards:
                        used |= 1 << c
                    out.append(
                        (
                            RummyAction(MELD, cards, tuple(c % 52 for c in cards), 0),
                            hand & ~used,
                            (*melds, Meld(SET, -1, r + 1, cards, seat)),
                            nmelds + 1,
                            0,
                        )
                    )
            if nj:
                for sub, j in joker_sets(q, nj, cfg.joker_limit):
                    nat = [_pick(hand, 13 * s + r, obl) for s in range(4) if sub >> s & 1]
                    cards = _set_cards(nat, _jokers(hand, obl, j))
                    used = 0
                    for c in cards:
                        used |= 1 << c
                    meanings = tuple(c % 52 if c < JOKER0 else SETJ + r for c in cards)
                    out.append(
                        (
                            RummyAction(MELD, cards, meanings, 0),
                            hand & ~used,
                            (*melds, Meld(SET, -1, r + 1, cards, seat)),
                            nmelds + 1,
                            0,
                        )
                    )
    # lay-offs (R6)
    joker = _jokers(hand, obl, 1)[0] if nj else -1
    for mi in range(nm):
        meld = melds[mi]
        cards = meld.cards
        if not nj:  # fast rejection: no joker in hand and no end/suit card held
            n = len(cards)
            if meld.kind == RUN:
                if n >= 13:
                    continue
                base = 13 * meld.suit
                lo = meld.lo
                hi = lo + n - 1
                if not (
                    ((wrap or hi < 14) and fm >> (base + hi % 13) & 1)
                    or ((wrap or lo > 1) and fm >> (base + (lo - 2) % 13) & 1)
                ):
                    continue
            elif n >= 4 or not fm & (_RANK_FACES[meld.lo - 1]):
                continue
        if meld.kind == RUN:
            ends = run_ends(meld, wrap)
            if not ends:
                continue
            seen = 0
            njm = 0
            for c in cards:
                if c >= JOKER0:
                    njm += 1
            for pos in ends:
                f = pos_face(meld.suit, pos)
                if not seen >> f & 1 and fm >> f & 1:
                    seen |= 1 << f
                    c = _pick(hand, f, obl)
                    out.append(_layoff_run(meld, mi, melds, c, f, pos, hand, nmelds))
                if joker >= 0 and not seen >> (f + 52) & 1:
                    if not valid_composition(len(cards) - njm, njm + 1, cfg.joker_limit):
                        continue
                    if not cfg.touch:
                        neighbour = cards[-1] if pos == meld.lo + len(cards) else cards[0]
                        if neighbour >= JOKER0:
                            continue
                    seen |= 1 << (f + 52)
                    out.append(_layoff_run(meld, mi, melds, joker, f, pos, hand, nmelds))
        else:
            if len(cards) >= 4:
                continue
            r = meld.lo - 1
            present = 0
            njm = 0
            for c in cards:
                if c >= JOKER0:
                    njm += 1
                else:
                    present |= 1 << (c % 52 // 13)
            for s in range(4):
                if not present >> s & 1:
                    f = 13 * s + r
                    if fm >> f & 1:
                        c = _pick(hand, f, obl)
                        nc = _set_cards(
                            [*(x for x in cards if x < JOKER0), c],
                            [x for x in cards if x >= JOKER0],
                        )
                        nmeld = Meld(SET, -1, meld.lo, nc, meld.owner)
                        out.append(
                            (
                                RummyAction(LAYOFF, (c,), (f,), mi),
                                hand & ~(1 << c),
                                (*melds[:mi], nmeld, *melds[mi + 1 :]),
                                nmelds,
                                0,
                            )
                        )
            if joker >= 0 and valid_composition(len(cards) - njm, njm + 1, cfg.joker_limit):
                nc = _set_cards(
                    [x for x in cards if x < JOKER0], [*(x for x in cards if x >= JOKER0), joker]
                )
                nmeld = Meld(SET, -1, meld.lo, nc, meld.owner)
                out.append(
                    (
                        RummyAction(LAYOFF, (joker,), (SETJ + r,), mi),
                        hand & ~(1 << joker),
                        (*melds[:mi], nmeld, *melds[mi + 1 :]),
                        nmelds,
                        0,
                    )
                )
    # joker swaps (R8.7)
    if cfg.swap:
        for mi in range(nm):
            meld = melds[mi]
            cards = meld.cards
            if not any(c >= JOKER0 for c in cards):
                continue
            if meld.kind == RUN:
                for i, j in enumerate(cards):
                    if j < JOKER0:
                        continue
                    f = pos_face(meld.suit, meld.lo + i)
                    if fm >> f & 1:
                        c = _pick(hand, f, obl)
                        nc = (*cards[:i], c, *cards[i + 1 :])
                        out.append(
                            (
                                RummyAction(SWAP, (c, j), (), mi),
                                (hand & ~(1 << c)) | 1 << j,
                                (
                                    *melds[:mi],
                                    Meld(RUN, meld.suit, meld.lo, nc, meld.owner),
                                    *melds[mi + 1 :],
                                ),
                                nmelds,
                                1 << j,
                            )
                        )
            else:
                r = meld.lo - 1
                nat = [x for x in cards if x < JOKER0]
                js = [x for x in cards if x >= JOKER0]
                present = 0
                for c in nat:
                    present |= 1 << (c % 52 // 13)
                for s in range(4):
                    f = 13 * s + r
                    if not present >> s & 1 and fm >> f & 1:
                        c = _pick(hand, f, obl)
                        j = js[0]
                        nmeld = Meld(SET, -1, meld.lo, _set_cards([*nat, c], js[1:]), meld.owner)
                        out.append(
                            (
                                RummyAction(SWAP, (c, j), (), mi),
                                (hand & ~(1 << c)) | 1 << j,
                                (*melds[:mi], nmeld, *melds[mi + 1 :]),
                                nmelds,
                                1 << j,
                            )
                        )
    return out


def _layoff_run(
    meld: Meld,
    mi: int,
    melds: tuple[Meld, ...],
    card: int,
    face: int,
    pos: int,
    hand: int,
    nmelds: int,
) -> Play:
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


# ------------------------------------------------------------- the R4.7 completion test


def _could_use(cfg: Config, card: int, hand: int, melds: tuple[Meld, ...]) -> bool:
    """A quick necessary condition for an obligated natural card to be usable this turn."""
    if card >= JOKER0:
        return True
    nj = (hand >> JOKER0).bit_count()
    fm = hand_faces(hand)
    f = card % 52
    s, r = divmod(f, 13)
    suits = sum(fm >> (13 * t + r) & 1 for t in range(4))
    if suits + nj >= 3:
        return True
    positions = [r + 1, 14] if r == 0 and not cfg.wrap else [r + 1]
    near_ranks = set()
    for p in positions:
        for d in (-2, -1, 1, 2):
            q = p + d
            if not cfg.wrap and not 1 <= q <= 14:
                continue
            near_ranks.add((q - 1) % 13)
    near = sum(fm >> (13 * s + rr) & 1 for rr in near_ranks)
    if near + nj >= 2:
        return True
    for meld in melds:
        if meld.kind == RUN:
            if meld.suit == s:
                return True
        elif meld.lo - 1 == r and len(meld.cards) < 4:
            return True
    return False


def completable(
    cfg: Config,
    seat: int,
    hand: int,
    melds: tuple[Meld, ...],
    obl: int,
    taken: int,
    nmelds: int,
    memo: dict[tuple[int, tuple[Meld, ...], int, int], bool] | None = None,
) -> bool:
    """R4.7: can the turn still be completed — an empty hand (unless mustDiscardToGoOut), or
    every obligation met and a card left that may be discarded?"""
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
    plays = gen_plays(cfg, seat, hand, melds, nmelds, obl)
    if obl:
        plays.sort(key=lambda p: not any(obl >> c & 1 for c in p[0].cards))
    for _, nh, nm, nn, oa in plays:
        if completable(cfg, seat, nh, nm, (obl & nh) | oa, taken, nn, memo):
            memo[key] = True
            return True
    return False


# -------------------------------------------------------------------- legal actions

Transition = tuple[
    RummyAction, int, tuple[Meld, ...], int, int, int, tuple[int, ...], tuple[int, ...]
]


def _take_result(
    cfg: Config, discard: tuple[int, ...], depth: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(cards taken, discard pile after, chosen card) for TAKE@depth."""
    n = len(discard)
    chosen = discard[n - 1 - depth]
    if depth == 0 or cfg.pickup == 1:
        return discard[n - 1 - depth :], discard[: n - 1 - depth], chosen
    return (chosen,), discard[: n - 1 - depth] + discard[n - depth :], chosen


DRAW_ACTION = RummyAction(DRAW)
"""The one DRAW_STOCK action (shared, so legal lists need not build it)."""
TAKE_ACTIONS = tuple(RummyAction(TAKE, (), (), k) for k in range(110))
"""TAKE@k actions by depth."""
DISCARD_ACTIONS = tuple(RummyAction(DISCARD, (c,)) for c in range(108))
"""DISCARD actions by physical card."""

_PACK2 = 1 << 52
_RANK_FACES = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
"""The four faces of each rank (index rank - 1)."""


@cache
def _discards(suit: int, pattern: int) -> tuple[RummyAction, ...]:
    """The DISCARD actions of the cards of one suit pattern (first pack)."""
    return tuple(DISCARD_ACTIONS[13 * suit + r] for r in range(13) if pattern >> r & 1)


Legal = tuple[list[RummyAction], dict[RummyAction, Play]]
"""The legal actions in canonical order, and the outcome of each MELD/LAYOFF/SWAP."""

_NO_PLAYS: dict[RummyAction, Play] = {}


def legal(state: RummyState, only: RummyAction | None = None) -> Legal:
    """Every legal action in canonical order, with the data ``apply`` needs for plays.

    With ``only``, the same generator skips the work that cannot produce that action (the
    no-dead-end search of other plays and depths, the discards or the plays): the list holds
    it if and only if it is legal, which is what ``apply`` checks.
    """
    cfg = state.cfg
    phase = state.phase
    if phase == Phase.OVER:
        return [], _NO_PLAYS
    seat = state.current
    hand = state.hands[seat]
    out: list[RummyAction] = []
    if phase == Phase.DRAW:
        out.append(DRAW_ACTION)
        discard = state.discard
        if discard:
            if cfg.must_use:
                c = discard[-1]
                if completable(cfg, seat, hand | 1 << c, state.melds, 1 << c, c, 0):
                    out.append(TAKE_ACTIONS[0])
            else:
                out.append(TAKE_ACTIONS[0])
            if cfg.pickup:
                for depth in range(1, len(discard)):
                    if only is not None and only.target != depth:
                        continue
                    cards, _, chosen = _take_result(cfg, discard, depth)
                    h = hand
                    for c in cards:
                        h |= 1 << c
                    if completable(cfg, seat, h, state.melds, 1 << chosen, -1, 0):
                        out.append(TAKE_ACTIONS[depth])
        return out, _NO_PLAYS
    obl = state.obligations
    taken = state.taken
    plays: dict[RummyAction, Play] = {}
    tmask = ~(1 << taken) if taken >= 0 else -1
    skip = only is not None and only.kind == DISCARD  # a discard's legality needs no plays
    for play in () if skip else gen_plays(cfg, seat, hand, state.melds, state.melds_this_turn, obl):
        if only is not None and play[0] != only:
            continue
        nh = play[1]
        o2 = (obl & nh) | play[4]
        if (not o2 and nh & tmask) or completable(cfg, seat, nh, play[2], o2, taken, play[3]):
            out.append(play[0])
            plays[play[0]] = play
    if not obl and (only is None or only.kind == DISCARD):
        allowed = hand & tmask
        if allowed < _PACK2:  # one pack, no jokers: discards by suit pattern
            for s in range(4):
                pat = allowed >> (13 * s) & 0x1FFF
                if pat:
                    out.extend(_discards(s, pat))
            return out, plays
        fm = (allowed | allowed >> 52) & F52
        while fm:
            low = fm & -fm
            f = low.bit_length() - 1
            fm ^= low
            out.append(DISCARD_ACTIONS[f if allowed & low else f + 52])
        js = allowed >> JOKER0
        if js:
            out.append(DISCARD_ACTIONS[JOKER0 + (js & -js).bit_length() - 1])
    return out, plays


# ---------------------------------------------------------------------------- apply


def _replace(state: RummyState, **changes: object) -> RummyState:
    return state._replace(**changes)  # type: ignore[arg-type]


def _end_round(
    state: RummyState, hands: tuple[int, ...], closer: int, events: list[Event], **changes: object
) -> RummyState:
    cfg = state.cfg
    n = cfg.players
    pens = tuple(hand_penalty(h) for h in hands)
    doubled = closer >= 0 and cfg.double and not state.placed[closer]
    rs = round_scores(pens, closer, doubled)
    factor = 2 if doubled else 1
    totals = tuple(a + b for a, b in zip(state.scores, rs, strict=True))
    closes = tuple(c + (1 if s == closer else 0) for s, c in enumerate(state.closes))
    charged = tuple(
        p + (0 if s == closer else pens[s] * factor) for s, p in enumerate(state.penalties)
    )
    round_no = state.round_no + 1
    events.append(
        RoundEnded(
            round_no,
            closer,
            doubled,
            tuple(" ".join(card_text(c) for c in _ids(h)) for h in hands),
            pens,
            rs,
            totals,
        )
    )
    if state.scope == "unit" or cfg.mode == "single":
        over = True
    elif cfg.mode == "rounds":
        over = round_no >= cfg.mode_n
    else:
        over = min(totals) < -cfg.mode_n
    if over:
        winners = rank_winners(totals, closes, charged)
        events.append(GameEnded(totals, winners))
        return _replace(
            state,
            hands=hands,
            phase=Phase.OVER,
            round_no=round_no,
            scores=totals,
            closes=closes,
            penalties=charged,
            last_closer=closer,
            last_scores=rs,
            **changes,
        )
    new, ev = deal(
        cfg,
        state.seed,
        state.scope,
        round_no,
        (state.dealer + 1) % n,
        totals,
        closes,
        charged,
        closer,
        rs,
    )
    events.append(ev)
    return new


def _ids(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def apply_action(
    state: RummyState, action: RummyAction, data: object
) -> tuple[RummyState, tuple[Event, ...]]:
    """Apply a legal action (``data`` from :func:`legal`); decisions-free steps follow."""
    cfg = state.cfg
    seat = state.current
    kind = action.kind
    events: list[Event] = []
    hands = state.hands
    if kind == DRAW:
        stock = state.stock
        discard = state.discard
        turnovers = state.turnovers
        public = state.stock_public
        if not stock:
            if not discard or turnovers == cfg.max_turnovers:
                return _end_round(state, hands, -1, events), tuple(events)  # R7.3-R7.5
            stock, discard = discard, ()
            turnovers += 1
            public = True
            events.append(StockTurnedOver(seat, turnovers, len(stock)))
        card = stock[0]
        events.append(DrewStock(seat, card_text(card), public))
        hl = list(hands)
        hl[seat] |= 1 << card
        known = state.known
        if public:  # everyone knows the order of a turned-over stock (R4.9, R7.1)
            known |= 1 << card
        return RummyState(
            cfg,
            state.seed,
            state.scope,
            state.round_no,
            state.dealer,
            Phase.PLAY,
            seat,
            tuple(hl),
            known,
            stock[1:],
            discard,
            state.melds,
            -1,
            0,
            0,
            False,
            state.placed,
            state.turn_no,
            turnovers,
            public,
            state.scores,
            state.closes,
            state.penalties,
            state.last_closer,
            state.last_scores,
            state.out,
        ), tuple(events)
    if kind == TAKE:
        depth = action.target
        cards, discard, chosen = _take_result(cfg, state.discard, depth)
        bits = 0
        for c in cards:
            bits |= 1 << c
        hl = list(hands)
        hl[seat] |= bits
        taken = chosen if depth == 0 else -1
        obl = 1 << chosen if depth > 0 or cfg.must_use else 0
        events.append(
            TookDiscard(seat, depth, tuple(card_text(c) for c in cards), card_text(chosen))
        )
        return RummyState(
            cfg,
            state.seed,
            state.scope,
            state.round_no,
            state.dealer,
            Phase.PLAY,
            seat,
            tuple(hl),
            state.known | bits,  # taken face up: known to all (R4.9)
            state.stock,
            discard,
            state.melds,
            taken,
            obl,
            0,
            False,
            state.placed,
            state.turn_no,
            state.turnovers,
            state.stock_public,
            state.scores,
            state.closes,
            state.penalties,
            state.last_closer,
            state.last_scores,
            state.out,
        ), tuple(events)
    if kind == DISCARD:
        card = action.cards[0]
        bit = 1 << card
        hl = list(hands)
        hl[seat] ^= bit  # the card is in the hand
        hands = tuple(hl)
        known = state.known
        if known & bit:
            known ^= bit
        events.append(Discarded(seat, card_text(card)))
        discard = (*state.discard, card)
        placed = state.placed
        if state.placed_this_turn and not placed[seat]:
            placed = (*placed[:seat], True, *placed[seat + 1 :])
        if not hands[seat]:
            return _end_round(
                state, hands, seat, events, known=known, discard=discard, taken=-1
            ), tuple(events)
        turn_no = state.turn_no + 1
        if turn_no >= cfg.max_turns:
            return _end_round(
                state, hands, -1, events, known=known, discard=discard, turn_no=turn_no, taken=-1
            ), tuple(events)
        return RummyState(
            cfg,
            state.seed,
            state.scope,
            state.round_no,
            state.dealer,
            Phase.DRAW,
            (seat + 1) % cfg.players,
            hands,
            known,
            state.stock,
            discard,
            state.melds,
            -1,
            0,
            0,
            False,
            placed,
            turn_no,
            state.turnovers,
            state.stock_public,
            state.scores,
            state.closes,
            state.penalties,
            state.last_closer,
            state.last_scores,
            state.out,
        ), tuple(events)
    # MELD, LAYOFF, SWAP
    assert isinstance(data, tuple)
    _, nh, nmelds_t, nmade, oadd = data
    melds: tuple[Meld, ...] = nmelds_t
    hl = list(hands)
    hl[seat] = nh
    hands = tuple(hl)
    known = state.known
    if known:  # the cards played leave it
        known &= ~(state.hands[seat] ^ nh)
    if oadd:  # a joker freed by a swap goes to the hand face up (R8.7)
        known |= oadd
    obl = (state.obligations & nh) | oadd
    if kind == MELD:
        events.append(Melded(seat, len(melds) - 1, meld_text(melds[-1])))
    elif kind == LAYOFF:
        events.append(LaidOff(seat, action.target, slot_text(action.cards[0], action.meanings[0])))
    else:
        events.append(
            SwappedJoker(
                seat, action.target, card_text(action.cards[0]), card_text(action.cards[1])
            )
        )
    if not nh:
        return _end_round(
            state,
            hands,
            seat,
            events,
            known=known,
            melds=melds,
            taken=-1,
            obligations=0,
            melds_this_turn=nmade,
            placed_this_turn=True,
        ), tuple(events)
    taken = state.taken if state.taken >= 0 and nh >> state.taken & 1 else -1
    return RummyState(
        cfg,
        state.seed,
        state.scope,
        state.round_no,
        state.dealer,
        Phase.PLAY,
        seat,
        hands,
        known,
        state.stock,
        state.discard,
        melds,
        taken,
        obl,
        nmade,
        True,
        state.placed,
        state.turn_no,
        state.turnovers,
        state.stock_public,
        state.scores,
        state.closes,
        state.penalties,
        state.last_closer,
        state.last_scores,
        state.out,
    ), tuple(events)


# ---------------------------------------------------------------------- explanations


def explain_illegal(state: RummyState, action: RummyAction) -> IllegalActionError:
    """Why ``action`` is not legal in ``state``: a rule id and a one-line reason."""
    from cardtable.games.rummy.analysis import explain_action

    return explain_action(state, action)
