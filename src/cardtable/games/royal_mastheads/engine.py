"""Royal Mastheads' one engine: the rules of play written once, and a mutable deal that runs them.

The rules of a deal in play live here and nowhere else: whose turn it is in the pot phase
(M-7, :func:`~cardtable.games.royal_mastheads.state.pot_owner`), which cards a hand may
play (M-10, :func:`playable`), who wins a trick (M-11, :func:`winner_of` over the strength
tables of :func:`strength_table`), and applying a move (:meth:`Deal.push`, undone by
:meth:`Deal.pop`).  Everything that plays the game runs them:

* the contract's pure ``apply`` (:func:`~cardtable.games.royal_mastheads.rules.apply_legal`)
  and ``legal_actions``, which build frozen states and events around :func:`playable`,
  :func:`legal_cards` and :func:`winner_of`;
* the random playouts of the benchmark (``GAME.playout``) and of the search's rollouts,
  which load a :class:`Deal` from a frozen state and :meth:`Deal.finish` it;
* the double-dummy solver, which walks a :class:`Deal` with :meth:`Deal.push` and
  :meth:`Deal.pop`.

A :class:`Deal` keeps plain ints and lists (compiled by mypyc, a native class): no state or
event object per card.  A random choice is always "the ``int(r * n)``-th legal card in card
order" for ``r = rng.random()``: the same choice the contract loop
``legal[int(rng.random() * len(legal))]`` makes, so a playout reaches exactly the state the
contract reaches with the same generator (the tests check it).

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> deal = Deal(GAME.new_game(4, seed=1, scope="unit"))
>>> deal.finish(random.Random(2)), len(deal.played), deal.is_done()
(52, 44, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from cardtable.games.royal_mastheads.scoring import seat_scores
from cardtable.games.royal_mastheads.state import (
    BIT,
    POT_BASE,
    RANK,
    SUIT,
    SUIT_MASK,
    DealInfo,
    RoyalMastheadsState,
    Trick,
    pot_owner,
)

__all__ = [
    "POT_CARDS",
    "TRICKS",
    "Deal",
    "beats",
    "card_list",
    "cards_of",
    "legal_cards",
    "playable",
    "random_card",
    "strength_table",
    "trick_winner",
    "winner_of",
]

POT_CARDS: Final = 8
"""Cards in the pot once every player has put in two (M-7)."""
TRICKS: Final = 11
"""Tricks in a deal (M-9)."""


# -- cards of a mask ----------------------------------------------------------------------
# Lazily filled: entry ``pot << 15 | suit << 13 | m`` is the tuple of the cards of ``suit``
# in the 13-bit mask ``m``, in card order, as plays (``pot`` 0) or pot actions (1).
_SUIT_CARDS: Final[list[tuple[int, ...] | None]] = [None] * (2 << 15)
_POP13: Final[tuple[int, ...]] = tuple(m.bit_count() for m in range(1 << 13))
"""The number of cards in each 13-bit suit mask."""


def _fill(key: int) -> tuple[int, ...]:
    """Fill the table entry ``key`` (see :data:`_SUIT_CARDS`) and return it."""
    base = (key >> 15) * POT_BASE + (key >> 13 & 3) * 13
    m = key & 0x1FFF
    got = tuple(base + i for i in range(13) if m >> i & 1)
    _SUIT_CARDS[key] = got
    return got


def _suit_cards(suit: int, m: int) -> tuple[int, ...]:
    """The cards of ``suit`` in its 13-bit mask ``m``, in card order (cached)."""
    key = suit << 13 | m
    got = _SUIT_CARDS[key]
    return got if got is not None else _fill(key)


def cards_of(mask: int, pot: int = 0) -> tuple[int, ...]:
    """The cards of a mask in card order (as pot actions when ``pot`` is 1).

    >>> cards_of(0b101), cards_of(0b101, 1)
    ((0, 2), (52, 54))
    """
    base = pot << 15
    k0 = base | mask & 0x1FFF
    k1 = base | 8192 | (mask >> 13 & 0x1FFF)
    k2 = base | 16384 | (mask >> 26 & 0x1FFF)
    k3 = base | 24576 | mask >> 39
    table = _SUIT_CARDS
    a, b, c, d = table[k0], table[k1], table[k2], table[k3]
    if a is None:
        a = _fill(k0)
    if b is None:
        b = _fill(k1)
    if c is None:
        c = _fill(k2)
    if d is None:
        d = _fill(k3)
    return a + b + c + d


def card_list(mask: int) -> list[int]:
    """The cards of a mask, lowest first, as a new list.

    >>> card_list(0b1011)
    [0, 1, 3]
    """
    return list(cards_of(mask))


def random_card(mask: int, r: float) -> int:
    """The ``int(r * n)``-th of the ``n`` cards of a mask (card order), for ``r`` in
    [0, 1): a uniformly random card when ``r`` is ``rng.random()``.

    >>> random_card(0b1011, 0.5)
    1
    """
    m0 = mask & 0x1FFF
    m1 = mask >> 13 & 0x1FFF
    m2 = mask >> 26 & 0x1FFF
    m3 = mask >> 39
    n0 = _POP13[m0]
    n1 = _POP13[m1]
    n2 = _POP13[m2]
    k = int(r * (n0 + n1 + n2 + _POP13[m3]))
    if k < n0:
        return _suit_cards(0, m0)[k]
    k -= n0
    if k < n1:
        return _suit_cards(1, m1)[k]
    k -= n1
    if k < n2:
        return _suit_cards(2, m2)[k]
    return _suit_cards(3, m3)[k - n2]


# -- following suit (M-10) ----------------------------------------------------------------
def playable(hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played to a trick whose suit led is ``led``
    (``-1``: the trick is empty, any card leads): the cards of the suit led if the hand
    holds one, else any card (M-10).

    >>> bin(playable(0b11 | 1 << 13, 1)), bin(playable(0b11, 1)), bin(playable(0b11, -1))
    ('0b10000000000000', '0b11', '0b11')
    """
    if led >= 0:
        m = hand & SUIT_MASK[led]
        if m:
            return m
    return hand


def legal_cards(hand: int, led: int) -> tuple[int, ...]:
    """The cards :func:`playable` allows, in card order."""
    if led >= 0:
        m = hand >> (13 * led) & 0x1FFF
        if m:
            key = led << 13 | m
            got = _SUIT_CARDS[key]
            return got if got is not None else _fill(key)
    return cards_of(hand)


# -- winning a trick (M-2, M-11) ----------------------------------------------------------
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


def strength_tables(info: DealInfo) -> tuple[tuple[int, ...], ...]:
    """The deal's four strength tables, by suit led."""
    return _STRENGTH[info.cfg.ace_high][info.turned // 13]


def winner_of(table: tuple[int, ...], leader: int, a: int, b: int, c: int, d: int) -> int:
    """The seat that wins the trick ``a b c d`` played from ``leader``, by the strength
    ``table`` of its suit led (M-11; the first of equals, which only cards that cannot
    win share)."""
    best, w = table[a], 0
    v = table[b]
    if v > best:
        best, w = v, 1
    v = table[c]
    if v > best:
        best, w = v, 2
    if table[d] > best:
        w = 3
    return (leader + w) & 3


def trick_winner(cards: Sequence[int], leader: int, trumps: int, ace_high: bool) -> int:
    """The seat that wins a trick of four cards played from ``leader`` (M-11).

    >>> from cardtable.cards import parse_cards
    >>> trick_winner(parse_cards("KH AH 3H 7C"), 0, 1, False)  # pagat: the ace is low
    0
    >>> trick_winner(parse_cards("KH AH 3H 7C"), 0, 1, True)  # russian: aces high
    1
    """
    table = _STRENGTH[ace_high][trumps][SUIT[cards[0]]]
    return winner_of(table, leader, cards[0], cards[1], cards[2], cards[3])


def beats(card: int, trick: Sequence[int], trumps: int, ace_high: bool) -> bool:
    """True when ``card`` played now would beat every card of the unfinished ``trick``."""
    if not trick:
        return True
    table = _STRENGTH[ace_high][trumps][SUIT[trick[0]]]
    return table[card] > max(table[c] for c in trick)


# -- the mutable deal ---------------------------------------------------------------------
class Deal:
    """One deal as mutable ints and lists, loaded from a frozen state: apply moves with
    :meth:`push`, take them back with :meth:`pop`, play the rest at random with
    :meth:`finish`, and score it with :meth:`scores`.

    ``played`` holds every card played to a trick, in order: the completed tricks are
    ``played[4 * i : 4 * i + 4]``, the trick on the table the cards after them;
    ``winners`` the winner of each completed trick.
    """

    info: DealInfo
    hands: list[int]
    pot: list[int]
    played: list[int]
    winners: list[int]
    first_leader: int
    leader: int
    tables: tuple[tuple[int, ...], ...]

    def __init__(self, state: RoyalMastheadsState) -> None:
        info = state.info
        self.info = info
        self.hands = list(state.hands)
        self.pot = list(state.pot)
        played: list[int] = []
        winners: list[int] = []
        for t in state.tricks:
            played.extend(t.cards)
            winners.append(t.winner)
        played.extend(state.trick)
        self.played = played
        self.winners = winners
        tricks = state.tricks
        self.first_leader = tricks[0].leader if tricks else state.leader
        self.leader = state.leader
        self.tables = strength_tables(info)

    def in_pot_phase(self) -> bool:
        """True while cards still go into the pot."""
        return len(self.pot) < POT_CARDS

    def is_done(self) -> bool:
        """True once the deal's last trick is complete."""
        return len(self.winners) == TRICKS

    def to_act(self) -> int:
        """The seat to act (the deal must not be done)."""
        if len(self.pot) < POT_CARDS:
            return pot_owner(self.info.dealer, len(self.pot))
        return (self.leader + len(self.played)) & 3

    def led(self) -> int:
        """The suit led to the trick on the table, or ``-1`` when it is empty."""
        n = len(self.played) & 3
        return SUIT[self.played[-n]] if n else -1

    def legal_mask(self) -> int:
        """The cards the seat to act may put into the pot (M-7) or play (M-10)."""
        hand = self.hands[self.to_act()]
        if len(self.pot) < POT_CARDS:
            return hand
        return playable(hand, self.led())

    def push(self, card: int) -> int:
        """Put ``card`` (legal) into the pot or play it to the trick; the trick's winner
        when it completes the trick, else ``-1``."""
        pot = self.pot
        if len(pot) < POT_CARDS:
            self.hands[pot_owner(self.info.dealer, len(pot))] ^= BIT[card]
            pot.append(card)
            return -1
        played = self.played
        leader = self.leader
        n = len(played)
        self.hands[(leader + n) & 3] ^= BIT[card]
        played.append(card)
        if (n + 1) & 3:
            return -1
        first = played[n - 3]
        winner = winner_of(
            self.tables[SUIT[first]], leader, first, played[n - 2], played[n - 1], card
        )
        self.winners.append(winner)
        self.leader = winner
        return winner

    def pop(self) -> int:
        """Take back the last card played to a trick (not a pot card); returns it."""
        played = self.played
        if not len(played) & 3:
            self.winners.pop()
            winners = self.winners
            self.leader = winners[-1] if winners else self.first_leader
        card = played.pop()
        self.hands[(self.leader + len(played)) & 3] |= BIT[card]
        return card

    def finish(self, rng: random.Random, record: list[int] | None = None) -> int:
        """Play uniformly random legal moves to the end of the deal; the number of moves
        made.  Each is :func:`random_card` of the legal cards for ``r = rng.random()``: the
        contract loop's ``legal[int(r * len(legal))]``.  ``record``, when given, receives
        the moves as actions."""
        moves = 0
        random_ = rng.random
        while len(self.pot) < POT_CARDS:
            card = random_card(self.hands[self.to_act()], random_())
            self.push(card)
            moves += 1
            if record is not None:
                record.append(POT_BASE + card)
        winners = self.winners
        while len(winners) < TRICKS:
            card = random_card(self.legal_mask(), random_())
            self.push(card)
            moves += 1
            if record is not None:
                record.append(card)
        return moves

    def captures(self) -> tuple[list[list[int]], list[int]]:
        """Each seat's captured trick cards in capture order, and its tricks won."""
        captured: list[list[int]] = [[], [], [], []]
        counts = [0, 0, 0, 0]
        played = self.played
        for i, w in enumerate(self.winners):
            captured[w].extend(played[4 * i : 4 * i + 4])
            counts[w] += 1
        return captured, counts

    def scores(self) -> tuple[int, int, int, int]:
        """Each seat's score for the deal (done) so far: card points, the pot and bonuses."""
        captured, counts = self.captures()
        info = self.info
        return seat_scores(info.cfg, info.turned, captured, counts, self.pot)

    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks as the frozen state records them."""
        out = []
        leader = self.first_leader
        played = self.played
        for i, w in enumerate(self.winners):
            cards = (played[4 * i], played[4 * i + 1], played[4 * i + 2], played[4 * i + 3])
            out.append(Trick(leader, w, cards))
            leader = w
        return tuple(out)
