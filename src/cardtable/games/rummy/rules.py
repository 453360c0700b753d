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
from cardtable.games.rummy.board import CONTINUES, Board, take_result
from cardtable.games.rummy.events import GameEnded, RoundDealt, RoundEnded
from cardtable.games.rummy.melds import meld_text, slot_text
from cardtable.games.rummy.plays import Memo, Play, completable, gen_plays
from cardtable.games.rummy.scoring import hand_penalty, rank_winners, round_scores
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    F52,
    JOKER0,
    MELD,
    SWAP,
    TAKE,
    Config,
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
    "end_round",
    "explain_illegal",
    "gen_plays",
    "is_legal",
    "legal",
    "legal_actions",
    "meld_text",
    "slot_text",
]


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
                    cards, _, chosen = take_result(cfg, discard, depth)
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


def end_round(state: RummyState, closer: int, events: list[Event] | None) -> RummyState:
    """Score the round that ``state`` ends (R9; ``closer`` -1 when blocked), then deal the
    next round or end the game (R10); events go to ``events`` unless it is ``None``."""
    cfg = state.cfg
    hands = state.hands
    pens = tuple([hand_penalty(h) for h in hands])
    doubled = closer >= 0 and cfg.double and not state.placed[closer]
    rs = round_scores(pens, closer, doubled)
    factor = 2 if doubled else 1
    totals = tuple([a + b for a, b in zip(state.scores, rs, strict=True)])
    closes = tuple([c + (1 if s == closer else 0) for s, c in enumerate(state.closes)])
    charged = tuple(
        [p + (0 if s == closer else pens[s] * factor) for s, p in enumerate(state.penalties)]
    )
    round_no = state.round_no + 1
    if events is not None:
        shown = tuple([" ".join([card_text(c) for c in _ids(h)]) for h in hands])
        events.append(RoundEnded(round_no, closer, doubled, shown, pens, rs, totals))
    if state.scope == "unit" or cfg.mode == "single":
        over = True
    elif cfg.mode == "rounds":
        over = round_no >= cfg.mode_n
    else:
        over = min(totals) < -cfg.mode_n
    if over:
        if events is not None:
            events.append(GameEnded(totals, rank_winners(totals, closes, charged)))
        return state._replace(
            phase=Phase.OVER,
            round_no=round_no,
            scores=totals,
            closes=closes,
            penalties=charged,
            last_closer=closer,
            last_scores=rs,
        )
    dealer = (state.dealer + 1) % cfg.players
    new, ev = deal(
        cfg, state.seed, state.scope, round_no, dealer, totals, closes, charged, closer, rs
    )
    if events is not None:
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
    """Apply a legal action (``data``: a play's outcome from :func:`legal`) on a
    :class:`~cardtable.games.rummy.board.Board`; decision-free steps follow."""
    events: list[Event] = []
    board = Board(state)
    kind = action.kind
    if kind == DRAW:
        end = board.draw_stock(events)
    elif kind == TAKE:
        end = board.take(action.target, events)
    elif kind == DISCARD:
        end = board.discard_card(action.cards[0], events)
    else:
        assert isinstance(data, tuple)
        end = board.play(data, events)
    if end == CONTINUES:
        return board.freeze(), tuple(events)
    return end_round(board.freeze(), end, events), tuple(events)


# ---------------------------------------------------------------------- explanations


def explain_illegal(state: RummyState, action: object) -> IllegalActionError:
    """Why ``action`` is not legal in ``state``: a rule id and a one-line reason."""
    if not isinstance(action, RummyAction):
        return IllegalActionError("", f"{action!r} is not a Rummy action")
    return explain_action(state, action, legal(state)[0])
