"""Royal Mastheads rules: dealing, legal actions and applying them (M-4 … M-11, M-17).

Actions are ints: ``0..51`` play that card, ``POT_BASE + card`` puts it into the pot.
:func:`legal_actions` is the single source of truth; :func:`apply_legal` assumes its
action is legal (the :class:`~cardtable.games.royal_mastheads.game.RoyalMastheadsGame` checks).
Automatic steps (collecting a trick, scoring the deal, dealing the next one) happen inside
:func:`apply_legal` and are reported as events.

>>> from cardtable.games.royal_mastheads.state import OPTIONS
>>> s, events = new_match(OPTIONS.defaults(), seed=1)
>>> s.phase.name, len(legal_actions(s)), [e.kind for e in events]
('POT', 13, ['dealt', 'card_turned'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardtable.cards import format_card
from cardtable.core.errors import IllegalActionError
from cardtable.core.game import Event, Scope
from cardtable.core.options import Options
from cardtable.core.rng import derive_rng, randbelow, shuffle
from cardtable.games.royal_mastheads.events import (
    CARD_TEXT,
    CardPlayed,
    CardTurned,
    DealScored,
    Dealt,
    PotAwarded,
    PotCardChosen,
    SetOver,
    TrickWon,
)
from cardtable.games.royal_mastheads.scoring import (
    card_point_items,
    deal_scores,
    is_doubled,
    score_deal,
)
from cardtable.games.royal_mastheads.state import (
    BIT,
    POT_BASE,
    RANK,
    SUIT,
    SUIT_MASK,
    Config,
    DealInfo,
    Phase,
    RoyalMastheadsState,
    Trick,
    config_of,
    totals_of,
)

__all__ = [
    "apply_checked",
    "apply_legal",
    "beats",
    "cards_of",
    "deal_from_hands",
    "explain_illegal",
    "finish_deal",
    "first_dealer",
    "is_legal",
    "is_over_after",
    "legal_actions",
    "new_deal",
    "new_match",
    "new_match_state",
    "strength_table",
    "trick_winner",
    "winners_of",
]

_POT: Final = Phase.POT
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_STATE: Final = RoyalMastheadsState
"""The state class, as a compiled module's constant (hot paths build states with it)."""
_RANK_NAMES = ("", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
_SUIT_ONE = ("a spade", "a heart", "a diamond", "a club")


# -- trick taking (M-2, M-11) -------------------------------------------------------------
def _strength(ace_high: bool, trumps: int, led: int) -> tuple[int, ...]:
    out = []
    for c in range(52):
        r = RANK[c]
        key = 14 if (r == 1 and ace_high) else r
        s = SUIT[c]
        out.append(100 + key if s == trumps else key if s == led else 0)
    return tuple(out)


_STRENGTH: Final[tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]] = tuple(
    tuple(tuple(_strength(ah, t, led) for led in range(4)) for t in range(4))
    for ah in (False, True)
)


def strength_table(ace_high: bool, trumps: int, led: int) -> tuple[int, ...]:
    """Per card, how strongly it bids for a trick (M-11): trumps above the suit led above
    the rest (0, never winning); within a suit by rank (M-2)."""
    return _STRENGTH[ace_high][trumps][led]


def trick_winner(cards: Sequence[int], leader: int, trumps: int, ace_high: bool) -> int:
    """The seat that wins a trick of cards played from ``leader`` (M-11).

    >>> from cardtable.cards import parse_cards
    >>> trick_winner(parse_cards("KH AH 3H 7C"), 0, 1, False)  # pagat: the ace is low
    0
    >>> trick_winner(parse_cards("KH AH 3H 7C"), 0, 1, True)  # russian: aces high
    1
    """
    table = _STRENGTH[ace_high][trumps][SUIT[cards[0]]]
    best, w = table[cards[0]], 0
    for i in range(1, len(cards)):
        v = table[cards[i]]
        if v > best:
            best, w = v, i
    return (leader + w) & 3


def beats(card: int, trick: Sequence[int], trumps: int, ace_high: bool) -> bool:
    """True when ``card`` played now would beat every card of the unfinished ``trick``."""
    if not trick:
        return True
    table = _STRENGTH[ace_high][trumps][SUIT[trick[0]]]
    return table[card] > max(table[c] for c in trick)


# -- legal actions ------------------------------------------------------------------------
# Lazily filled tables: entry ``suit << 13 | m`` is the tuple of actions for the cards of
# ``suit`` in the 13-bit mask ``m`` (plays: card indices; pot: ``POT_BASE + card``).
_PLAY_T: Final[list[tuple[int, ...] | None]] = [None] * (4 << 13)
_POT_T: Final[list[tuple[int, ...] | None]] = [None] * (4 << 13)


def _fill(table: list[tuple[int, ...] | None], base: int, key: int) -> tuple[int, ...]:
    s, m = key >> 13, key & 0x1FFF
    got = tuple(base + s * 13 + i for i in range(13) if m >> i & 1)
    table[key] = got
    return got


def _all_of(table: list[tuple[int, ...] | None], base: int, hand: int) -> tuple[int, ...]:
    k1 = 8192 | (hand >> 13 & 0x1FFF)
    k2 = 16384 | (hand >> 26 & 0x1FFF)
    k3 = 24576 | (hand >> 39)
    k0 = hand & 0x1FFF
    a, b, c, d = table[k0], table[k1], table[k2], table[k3]
    if a is None:
        a = _fill(table, base, k0)
    if b is None:
        b = _fill(table, base, k1)
    if c is None:
        c = _fill(table, base, k2)
    if d is None:
        d = _fill(table, base, k3)
    return a + b + c + d


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask in index order (from the lazily filled per-suit tables).

    >>> cards_of(0b101)
    (0, 2)
    """
    return _all_of(_PLAY_T, 0, mask)


def legal_actions(state: RoyalMastheadsState) -> tuple[int, ...]:
    """Every legal action in canonical order (card index order); empty when over.

    In the pot phase (M-7) the player to act may put any card of their hand into the pot;
    in play (M-10) a player must follow the suit led if able, else may play any card.
    """
    phase = state.phase
    if phase is _PLAY:
        trick = state.trick
        hand = state.hands[(state.leader + len(trick)) & 3]
        if trick:
            led = SUIT[trick[0]]
            m = hand >> (13 * led) & 0x1FFF
            if m:
                key = led << 13 | m
                got = _PLAY_T[key]
                return got if got is not None else _fill(_PLAY_T, 0, key)
        return _all_of(_PLAY_T, 0, hand)
    if phase is _POT:
        hand = state.hands[(state.info.dealer + 1 + (len(state.pot) >> 1)) & 3]
        return _all_of(_POT_T, POT_BASE, hand)
    return ()


def is_legal(state: RoyalMastheadsState, action: object) -> bool:
    """True when ``action`` is among :func:`legal_actions` (the same test on the hand's
    bits, without listing the actions): a card of the hand of the seat to act, into the
    pot in the pot phase (M-7); in play (M-10), of the suit led when that hand holds one.
    """
    return type(action) is int and _is_legal(state, action)


def _is_legal(state: RoyalMastheadsState, action: int) -> bool:
    phase = state.phase
    if phase is _PLAY:
        if not 0 <= action < POT_BASE:
            return False
        trick = state.trick
        hand = state.hands[(state.leader + len(trick)) & 3]
        if not hand >> action & 1:
            return False
        if not trick:
            return True
        led = SUIT[trick[0]]
        return SUIT[action] == led or not hand & SUIT_MASK[led]
    if phase is _POT:
        card = action - POT_BASE
        if not 0 <= card < POT_BASE:
            return False
        return bool(state.hands[(state.info.dealer + 1 + (len(state.pot) >> 1)) & 3] >> card & 1)
    return False


def apply_checked(
    state: RoyalMastheadsState, action: object
) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    """:func:`apply_legal` once ``action`` is known to be legal (:func:`is_legal`), else
    raise :func:`explain_illegal`'s error (nothing changes): the contract's ``apply`` in
    one call (the game object's ``apply`` is this function itself).
    """
    if type(action) is not int or not _is_legal(state, action):
        raise explain_illegal(state, action)
    return apply_legal(state, action)


def explain_illegal(state: RoyalMastheadsState, action: object) -> IllegalActionError:
    """Why ``action`` is not legal in ``state``: a rule id and a one-line reason."""
    if state.phase is _OVER:
        return IllegalActionError("M-17", "the game is over")
    if type(action) is not int or not 0 <= action < 2 * POT_BASE:
        return IllegalActionError("", f"{action!r} is not a Royal Mastheads action")
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    card = action % POT_BASE
    name = format_card(card)
    if state.phase is _POT:
        if action < POT_BASE:
            return IllegalActionError(
                "M-7",
                f"first each player puts two cards into the pot; write 'pot {name}'",
            )
        if not hand & BIT[card]:
            return IllegalActionError("M-7", f"you do not hold {name}")
        return IllegalActionError("M-7", f"pot {name} is not legal now")
    if action >= POT_BASE:
        return IllegalActionError("M-7", f"the pot is complete; play a card ('play {name}')")
    if not hand & BIT[card]:
        return IllegalActionError("M-10", f"you do not hold {name}")
    led = SUIT[state.trick[0]] if state.trick else -1
    if led >= 0 and SUIT[card] != led and hand & SUIT_MASK[led]:
        return IllegalActionError("M-10", f"you hold {_SUIT_ONE[led]}, so you must follow suit")
    return IllegalActionError("M-10", f"play {name} is not legal now")


_TEXT_OF = CARD_TEXT.__getitem__
"""A card index's notation, for ``map`` over the cards an event names."""


# -- dealing (M-4 … M-6) ------------------------------------------------------------------
def first_dealer(seed: int) -> int:
    """The first dealer, drawn by the match's random generator (M-4)."""
    return derive_rng(seed, "dealer").randrange(4)


def _turned_event(cfg: Config, turned: int) -> CardTurned:
    return CardTurned(
        CARD_TEXT[turned],
        _SUIT_NAMES[SUIT[turned]],
        _RANK_NAMES[RANK[turned]] if cfg.uses_masthead else None,
    )


def deal_from_hands(
    cfg: Config,
    seed: int,
    scope: Scope,
    number: int,
    dealer: int,
    turned: int,
    hands: Sequence[int],
    history: tuple[tuple[int, int, int, int], ...] = (),
) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    """A new deal from explicit hands (masks by seat) and turned card, in the pot phase."""
    info = DealInfo(cfg, seed, scope, number, dealer, turned, history, totals_of(history))
    state = tuple.__new__(
        RoyalMastheadsState,
        (info, _POT, (hands[0], hands[1], hands[2], hands[3]), (), (), (dealer + 1) & 3, ()),
    )
    dealt = Dealt(
        number,
        dealer,
        tuple(tuple(CARD_TEXT[c] for c in range(52) if h >> c & 1) for h in state.hands),
    )
    return state, (dealt, _turned_event(cfg, turned))


def new_deal(
    cfg: Config,
    seed: int,
    scope: Scope,
    number: int,
    dealer: int,
    history: tuple[tuple[int, int, int, int], ...] = (),
    totals: tuple[int, int, int, int] | None = None,
    with_events: bool = True,
) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    """Shuffle and deal deal ``number`` (M-5, M-6); its events (none unless
    ``with_events``).

    The top card of the shuffled pack is turned; it is then put back at a uniformly random
    position of the pack (M-5) and 13 cards go to each player, one at a time clockwise
    from the dealer's left.
    """
    rng = derive_rng(seed, "deal", number)
    deck = list(range(52))
    shuffle(rng, deck)
    turned = deck.pop(0)
    deck.insert(randbelow(rng, 52), turned)
    hands = [0, 0, 0, 0]
    for i in range(52):
        hands[(dealer + 1 + i) & 3] |= BIT[deck[i]]
    if totals is None:
        totals = totals_of(history)
    info = DealInfo(cfg, seed, scope, number, dealer, turned, history, totals)
    state = tuple.__new__(
        RoyalMastheadsState,
        (info, _POT, (hands[0], hands[1], hands[2], hands[3]), (), (), (dealer + 1) & 3, ()),
    )
    if not with_events:
        return state, ()
    lists = tuple(tuple(_TEXT_OF(c) for c in cards_of(h)) for h in hands)
    return state, (Dealt(number, dealer, lists), _turned_event(cfg, turned))


def new_match(
    options: Options, seed: int, scope: Scope = "match"
) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    """The first deal of a new set (or the only deal, scope ``unit``)."""
    return new_deal(config_of(options), seed, scope, 1, first_dealer(seed))


def new_match_state(options: Options, seed: int, scope: Scope = "match") -> RoyalMastheadsState:
    """:func:`new_match`'s state, without making its events."""
    return new_deal(config_of(options), seed, scope, 1, first_dealer(seed), (), None, False)[0]


# -- the end of a deal and of the set (M-16, M-17) ---------------------------------------
def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest total (several: co-winners)."""
    best = max(totals)
    return tuple(i for i, t in enumerate(totals) if t == best)


def is_over_after(cfg: Config, scope: Scope, number: int, totals: Sequence[int]) -> bool:
    """True when the game ends once deal ``number`` is scored with these totals."""
    if scope == "unit":
        return True
    if number < cfg.deals:
        return False
    return not cfg.extra_deals or len(winners_of(totals)) == 1


def _finish_deal(
    state: RoyalMastheadsState, tricks: tuple[Trick, ...]
) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    info = state.info
    cfg = info.cfg
    score = score_deal(cfg, info.turned, tricks, state.pot)
    nxt, dealt = _after_deal(state, tricks, score.scores, True)
    totals = nxt.info.totals
    events: list[Event] = [
        PotAwarded(score.pot_seat, tuple(map(_TEXT_OF, state.pot))),
        DealScored(
            info.number,
            score.tricks,
            score.card_points,
            score.count_bonus,
            score.tricks_bonus,
            score.royals_bonus,
            score.trumps_bonus,
            score.scores,
            totals,
            tuple(tuple(map(_TEXT_OF, cards)) for cards in score.captured),
            tuple(p for cards in score.captured for p in card_point_items(cfg, info.turned, cards)),
            score.pot_seat,
            tuple(
                tuple(_TEXT_OF(c) for c in cards if is_doubled(cfg, info.turned, c))
                for cards in score.captured
            ),
        ),
    ]
    if nxt.phase is _OVER:
        events.append(SetOver(totals, winners_of(totals)))
        return nxt, tuple(events)
    return nxt, (*events, *dealt)


def finish_deal(state: RoyalMastheadsState, tricks: tuple[Trick, ...]) -> RoyalMastheadsState:
    """The state after the deal's last trick (``tricks``, all 11): the deal scored, and the
    next deal dealt or the set over.  :func:`apply_legal` reaches the same state and also
    reports the events; fast playouts, which need no events, call this."""
    scores = deal_scores(state.info.cfg, state.info.turned, tricks, state.pot)
    return _after_deal(state, tricks, scores, False)[0]


def _after_deal(
    state: RoyalMastheadsState,
    tricks: tuple[Trick, ...],
    new: tuple[int, int, int, int],
    with_events: bool,
) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    """The state after a deal scored ``new``: the set over, or the next deal (whose deal
    events come along when ``with_events``)."""
    info = state.info
    cfg = info.cfg
    history = (*info.history, new)
    old = info.totals
    totals = (old[0] + new[0], old[1] + new[1], old[2] + new[2], old[3] + new[3])
    if is_over_after(cfg, info.scope, info.number, totals):
        over_info = DealInfo(
            cfg, info.seed, info.scope, info.number, info.dealer, info.turned, history, totals
        )
        final = tuple.__new__(
            RoyalMastheadsState,
            (over_info, _OVER, (0, 0, 0, 0), state.pot, (), tricks[-1].winner, tricks),
        )
        return final, ()
    return new_deal(
        cfg,
        info.seed,
        info.scope,
        info.number + 1,
        (info.dealer + 1) & 3,
        history,
        totals,
        with_events,
    )


# -- applying ---------------------------------------------------------------------------
# Events are immutable values, so the 208 possible CardPlayed and PotCardChosen events are
# made once and shared (no allocation per action).
_PLAYED: Final = tuple(CardPlayed(seat, CARD_TEXT[card]) for seat in range(4) for card in range(52))
_CHOSEN: Final = tuple(
    PotCardChosen(seat, CARD_TEXT[card]) for seat in range(4) for card in range(52)
)


def apply_legal(
    state: RoyalMastheadsState, action: int
) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    """Apply an action already known to be legal; returns the new state and its events."""
    hands = state.hands
    if action >= POT_BASE:
        card = action - POT_BASE
        pot = state.pot
        info = state.info
        seat = (info.dealer + 1 + (len(pot) >> 1)) & 3
        h = list(hands)
        h[seat] ^= BIT[card]
        pot = (*pot, card)
        return (
            tuple.__new__(
                _STATE,
                (info, _PLAY if len(pot) == 8 else _POT, tuple(h), pot, (), state.leader, ()),
            ),
            (_CHOSEN[seat * 52 + card],),
        )
    trick = state.trick
    leader = state.leader
    seat = (leader + len(trick)) & 3
    h = list(hands)
    h[seat] ^= BIT[action]
    new_hands = tuple(h)
    played = _PLAYED[seat * 52 + action]
    n = len(trick)
    if n < 3:
        if n == 0:
            cards_so_far: tuple[int, ...] = (action,)
        elif n == 1:
            cards_so_far = (trick[0], action)
        else:
            cards_so_far = (trick[0], trick[1], action)
        return (
            tuple.__new__(
                _STATE,
                (state.info, _PLAY, new_hands, state.pot, cards_so_far, leader, state.tricks),
            ),
            (played,),
        )
    a, b, c = trick
    info = state.info
    table = _STRENGTH[info.cfg.ace_high][info.turned // 13][SUIT[a]]
    best, w = table[a], 0
    v = table[b]
    if v > best:
        best, w = v, 1
    v = table[c]
    if v > best:
        best, w = v, 2
    if table[action] > best:
        w = 3
    winner = (leader + w) & 3
    cards = (a, b, c, action)
    tricks = (*state.tricks, Trick(leader, winner, cards))
    won = TrickWon(
        len(tricks), winner, (CARD_TEXT[a], CARD_TEXT[b], CARD_TEXT[c], CARD_TEXT[action])
    )
    if len(tricks) < 11:
        return (
            tuple.__new__(_STATE, (info, _PLAY, new_hands, state.pot, (), winner, tricks)),
            (played, won),
        )
    nxt, events = _finish_deal(state, tricks)
    return nxt, (played, won, *events)
