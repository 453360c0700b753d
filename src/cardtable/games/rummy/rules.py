"""Rummy rules: dealing, legal actions and ``apply``.

The legal-action generator is the single source of truth: :func:`legal` lists every legal
action, with the outcome of each play (from :mod:`cardtable.games.rummy.plays`, which also
holds the no-dead-end search), and ``apply`` only looks plays up there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from cardtable.core.errors import IllegalActionError
from cardtable.core.game import Event
from cardtable.core.rng import derive_rng, shuffle
from cardtable.games.rummy.analysis import explain_action
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
from cardtable.games.rummy.melds import meld_meanings
from cardtable.games.rummy.plays import Memo, Play, completable, gen_plays
from cardtable.games.rummy.scoring import hand_penalty, rank_winners, round_scores
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    F52,
    JOKER0,
    LAYOFF,
    MELD,
    SETJ,
    SWAP,
    TAKE,
    Config,
    Meld,
    Phase,
    RummyAction,
    RummyState,
    card_text,
)

__all__ = [
    "Play",
    "apply_action",
    "apply_checked",
    "completable",
    "deal",
    "explain_illegal",
    "gen_plays",
    "is_legal",
    "legal",
    "legal_actions",
    "meld_text",
    "slot_text",
]


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
    shuffle(derive_rng(seed, "deal", round_no), deck)
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
        passed=(0,) * n,
    )
    event = RoundDealt(round_no + 1, dealer, first, h, card_text(deck[n * h]), len(state.stock))
    return state, event


# -------------------------------------------------------------------- legal actions


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

_PACK2: Final = 1 << 52
_DISCARD_T: Final[list[tuple[RummyAction, ...] | None]] = [None] * (4 << 13)
"""Lazily filled: entry ``suit << 13 | pattern`` holds the DISCARD actions of the cards of
one suit pattern (first pack)."""


def _discards(suit: int, pattern: int) -> tuple[RummyAction, ...]:
    """The DISCARD actions of the cards of one suit pattern (first pack)."""
    key = suit << 13 | pattern
    found = _DISCARD_T[key]
    if found is None:
        found = tuple(DISCARD_ACTIONS[13 * suit + r] for r in range(13) if pattern >> r & 1)
        _DISCARD_T[key] = found
    return found


Legal = tuple[list[RummyAction], dict[RummyAction, Play]]
"""The legal actions in canonical order, and the outcome of each MELD/LAYOFF/SWAP."""

_NO_PLAYS: Final[dict[RummyAction, Play]] = {}
_OVER: Final = Phase.OVER
_DRAW_PHASE: Final = Phase.DRAW
_PLAY_PHASE: Final = Phase.PLAY
_STATE: Final = RummyState
"""The state class, as a compiled module's constant (apply builds states with it)."""


def legal(state: RummyState, only: RummyAction | None = None) -> Legal:
    """Every legal action in canonical order, with the data ``apply`` needs for plays.

    With ``only``, the same generator skips the work that cannot produce that action (the
    no-dead-end search of other plays and depths, the discards or the plays): the list holds
    it if and only if it is legal, which is what ``apply`` checks.
    """
    cfg = state.cfg
    phase = state.phase
    if phase == _OVER:
        return [], _NO_PLAYS
    seat = state.current
    hand = state.hands[seat]
    out: list[RummyAction] = []
    if phase == _DRAW_PHASE:
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
    memo: Memo | None = None  # shared by the completion searches, made when one is needed
    skip = only is not None and only.kind == DISCARD  # a discard's legality needs no plays
    melds = state.melds
    for play in (
        () if skip else gen_plays(cfg, seat, hand, melds, state.melds_this_turn, obl, taken)
    ):
        if only is not None and play[0] != only:
            continue
        nh = play[1]
        o2 = (obl & nh) | play[4]
        if not o2 and nh & tmask:  # a card other than the taken one is left to discard
            out.append(play[0])
            plays[play[0]] = play
            continue
        if memo is None:
            memo = {}
        if completable(cfg, seat, nh, play[2], o2, taken, play[3], memo):  # R4.7
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


def legal_actions(state: RummyState) -> list[RummyAction]:
    """Every legal action in canonical order (draws, melds, lay-offs, swaps, discards)."""
    return legal(state)[0]


def is_legal(state: RummyState, action: object) -> bool:
    """True when ``action`` is legal in ``state`` (the generator asked about it alone)."""
    return isinstance(action, RummyAction) and action in legal(state, action)[0]


def apply_checked(state: RummyState, action: object) -> tuple[RummyState, tuple[Event, ...]]:
    """The next state and its events, or :func:`explain_illegal`'s error if ``action`` is
    not legal (nothing changes): the contract's ``apply`` in one call (the game object's
    ``apply`` is this function itself).

    The check asks the generator about this one action only (the no-dead-end search of
    other plays is skipped); nothing is cached, as the game object is shared by every table
    and thread."""
    if not isinstance(action, RummyAction):
        raise explain_illegal(state, action)
    found, plays = legal(state, action)
    kind = action.kind
    if kind >= MELD and kind <= SWAP:
        play = plays.get(action)
        if play is None:
            raise explain_illegal(state, action)
        return apply_action(state, action, play)
    if action not in found:
        raise explain_illegal(state, action)
    return apply_action(state, action, None)


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


# Events are immutable values: the DrewStock and Discarded events of each seat and card are
# made the first time they happen and shared after (no event built on most actions).
_SEATS: Final = 12
_CARDS: Final = 108
_DREW: Final[list[DrewStock | None]] = [None] * (2 * _SEATS * _CARDS)
_DISCARDED: Final[list[Discarded | None]] = [None] * (_SEATS * _CARDS)


def _drew(seat: int, card: int, public: bool) -> DrewStock:
    """``DrewStock(seat, card_text(card), public)``, shared."""
    key = (seat * _CARDS + card) * 2 + (1 if public else 0)
    found = _DREW[key]
    if found is None:
        found = _DREW[key] = DrewStock(seat, card_text(card), public)
    return found


def _discarded(seat: int, card: int) -> Discarded:
    """``Discarded(seat, card_text(card))``, shared."""
    key = seat * _CARDS + card
    found = _DISCARDED[key]
    if found is None:
        found = _DISCARDED[key] = Discarded(seat, card_text(card))
    return found


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
        events.append(_drew(seat, card, public))
        hl = list(hands)
        hl[seat] |= 1 << card
        known = state.known
        if public:  # everyone knows the order of a turned-over stock (R4.9, R7.1)
            known |= 1 << card
        passed = state.passed
        if discard:  # the top of the pile, passed up for the stock (public)
            pl = list(passed)
            pl[seat] |= 1 << discard[-1]
            passed = tuple(pl)
        return tuple.__new__(
            _STATE,
            (
                cfg,
                state.seed,
                state.scope,
                state.round_no,
                state.dealer,
                _PLAY_PHASE,
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
                passed,
            ),
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
        return tuple.__new__(
            _STATE,
            (
                cfg,
                state.seed,
                state.scope,
                state.round_no,
                state.dealer,
                _PLAY_PHASE,
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
                state.passed,
            ),
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
        events.append(_discarded(seat, card))
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
        return tuple.__new__(
            _STATE,
            (
                cfg,
                state.seed,
                state.scope,
                state.round_no,
                state.dealer,
                _DRAW_PHASE,
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
                state.passed,
            ),
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
    return tuple.__new__(
        _STATE,
        (
            cfg,
            state.seed,
            state.scope,
            state.round_no,
            state.dealer,
            _PLAY_PHASE,
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
            state.passed,
        ),
    ), tuple(events)


# ---------------------------------------------------------------------- explanations


def explain_illegal(state: RummyState, action: object) -> IllegalActionError:
    """Why ``action`` is not legal in ``state``: a rule id and a one-line reason."""
    if not isinstance(action, RummyAction):
        return IllegalActionError("", f"{action!r} is not a Rummy action")
    return explain_action(state, action, legal(state)[0])
