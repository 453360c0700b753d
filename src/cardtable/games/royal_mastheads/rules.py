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
from cardtable.games.royal_mastheads.engine import (
    Deal,
    beats,
    cards_of,
    legal_cards,
    playable,
    strength_table,
    strength_tables,
    trick_winner,
    winner_of,
)
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
    is_doubled,
    score_deal,
)
from cardtable.games.royal_mastheads.state import (
    BIT,
    POT_BASE,
    RANK,
    SUIT,
    Config,
    DealInfo,
    Phase,
    RoyalMastheadsState,
    Trick,
    config_of,
    pot_owner,
    totals_of,
)

__all__ = [
    "apply_checked",
    "apply_legal",
    "apply_quietly",
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


def legal_actions(state: RoyalMastheadsState) -> tuple[int, ...]:
    """Every legal action in canonical order (card index order); empty when over.

    In the pot phase (M-7) the player to act may put any card of their hand into the pot;
    in play (M-10) a player must follow the suit led if able, else may play any card
    (:func:`~cardtable.games.royal_mastheads.engine.legal_cards`).
    """
    phase = state.phase
    if phase is _PLAY:
        trick = state.trick
        hand = state.hands[(state.leader + len(trick)) & 3]
        return legal_cards(hand, SUIT[trick[0]] if trick else -1)
    if phase is _POT:
        hand = state.hands[pot_owner(state.info.dealer, len(state.pot))]
        return cards_of(hand, 1)
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
        return bool(playable(hand, SUIT[trick[0]] if trick else -1) >> action & 1)
    if phase is _POT:
        card = action - POT_BASE
        if not 0 <= card < POT_BASE:
            return False
        return bool(state.hands[pot_owner(state.info.dealer, len(state.pot))] >> card & 1)
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
    if not playable(hand, led) >> card & 1:
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
    nxt, dealt = _after_deal(info, state.pot, tricks, score.scores, True)
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


def finish_deal(deal: Deal) -> RoyalMastheadsState:
    """The state after a :class:`~cardtable.games.royal_mastheads.engine.Deal` played to
    its end: the deal scored, and the next deal dealt or the set over.
    :func:`apply_legal` reaches the same state and also reports the events; playouts,
    which need no events, call this."""
    return _after_deal(deal.info, tuple(deal.pot), deal.tricks(), deal.scores(), False)[0]


def _after_deal(
    info: DealInfo,
    pot: tuple[int, ...],
    tricks: tuple[Trick, ...],
    new: tuple[int, int, int, int],
    with_events: bool,
) -> tuple[RoyalMastheadsState, tuple[Event, ...]]:
    """The state after a deal scored ``new``: the set over, or the next deal (whose deal
    events come along when ``with_events``)."""
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
            (over_info, _OVER, (0, 0, 0, 0), pot, (), tricks[-1].winner, tricks),
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
        seat = pot_owner(info.dealer, len(pot))
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
    winner = winner_of(strength_tables(info)[SUIT[a]], leader, a, b, c, action)
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


def apply_quietly(state: RoyalMastheadsState, action: int) -> RoyalMastheadsState:
    """:func:`apply_legal`'s state alone (the search's ``apply``, compiled with it)."""
    return apply_legal(state, action)[0]
