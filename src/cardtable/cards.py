"""Playing cards: ranks, suits, dense card indices and 52-bit card sets.

A card is a dense index ``0..51`` (``suit * 13 + rank - 1``), and a set of cards is a
Python ``int`` whose bit ``i`` is set when card ``i`` is in the set (a mask: ``|``, ``&``,
``bit_count()``, and :func:`iter_mask`, :func:`mask_cards`, :func:`mask_of`,
:func:`format_mask`, :func:`parse_mask` are its set API).  :class:`Card` is an ``int``
subclass, so engines use plain ints on their hot paths and hand out :class:`Card` values
to people (:data:`CARDS`, :func:`parse_cards`, ``Card.pretty()`` in the terminal views).

Notation: rank then suit, ``AS 10D QH``.  Input also accepts ``T`` for ten, suit symbols
(``10♦``) and lower case; ``??`` is an unknown card and ``JK`` a joker (index 52).

>>> parse_cards("AS 10d Qh ts 9♣")
(Card('AS'), Card('10D'), Card('QH'), Card('10S'), Card('9C'))
>>> m = parse_mask("AS 10D QH")
>>> m.bit_count(), bool(m >> Card.parse("QH") & 1), format_mask(m)
(3, True, 'AS QH 10D')
>>> format_cards([Card.parse("KC"), None])
'KC ??'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

__all__ = [
    "CARDS",
    "FULL_DECK",
    "JOKER",
    "UNKNOWN_TEXT",
    "Card",
    "Rank",
    "Suit",
    "card_of",
    "format_card",
    "format_cards",
    "format_mask",
    "iter_mask",
    "mask_cards",
    "mask_of",
    "parse_card",
    "parse_cards",
    "parse_mask",
]


class Suit(IntEnum):
    """The four suits, in the order spades, hearts, diamonds, clubs."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The one-letter code used in notation (``S``, ``H``, ``D``, ``C``)."""
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """The unicode suit symbol (``♠``, ``♥``, ``♦``, ``♣``)."""
        return "♠♥♦♣"[self]


class Rank(IntEnum):
    """Ranks with their face numbers: ace 1 … king 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def text(self) -> str:
        """The rank as written in notation (``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``)."""
        return _RANK_TEXT[self]


_RANK_WORDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_RANK_TEXT = dict(zip(Rank, _RANK_WORDS, strict=True))
_RANK_PARSE: dict[str, Rank] = {t: r for r, t in _RANK_TEXT.items()}
_RANK_PARSE.update({"T": Rank.TEN, "1": Rank.ACE, "14": Rank.ACE})
_SUIT_PARSE: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_PARSE[_s.letter] = _s
    _SUIT_PARSE[_s.symbol] = _s
_SUIT_PARSE.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})

JOKER = 52
"""The index used for a joker (games with jokers only)."""
UNKNOWN_TEXT = "??"
"""How a card hidden from the reader is written."""
FULL_DECK = (1 << 52) - 1
"""The mask of all 52 standard cards."""


class Card(int):
    """One of the 52 standard cards (or the joker, index 52), as a dense int index.

    >>> c = Card.parse("10D")
    >>> int(c), c.rank, c.suit, str(c), c.pretty()
    (35, <Rank.TEN: 10>, <Suit.DIAMONDS: 2>, '10D', '10♦')
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        """The card of an index 0..52; ``ValueError`` outside that range."""
        if not 0 <= index <= JOKER:
            raise ValueError(f"card index out of range: {index}")
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of a rank and a suit."""
        return CARDS[suit * 13 + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``AS``, ``10d``, ``Ts``, ``10♦`` or ``JK``; raise ``ValueError`` otherwise."""
        return CARDS[parse_card(text)]

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return int(self) == JOKER

    @property
    def rank(self) -> Rank:
        """The rank (not defined for the joker)."""
        if self.is_joker:
            raise ValueError("the joker has no rank")
        return Rank(int(self) % 13 + 1)

    @property
    def suit(self) -> Suit:
        """The suit (not defined for the joker)."""
        if self.is_joker:
            raise ValueError("the joker has no suit")
        return Suit(int(self) // 13)

    @property
    def bit(self) -> int:
        """The card's bit in a card mask."""
        return 1 << int(self)

    def __str__(self) -> str:
        return format_card(int(self))

    def __repr__(self) -> str:
        return f"Card({format_card(int(self))!r})"

    def pretty(self) -> str:
        """The card with a unicode suit symbol, e.g. ``10♦``."""
        if self.is_joker:
            return "🃏"
        return self.rank.text + self.suit.symbol


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(JOKER + 1))
"""All card objects by index (``CARDS[52]`` is the joker)."""

_FORMAT = (*(Rank(i % 13 + 1).text + Suit(i // 13).letter for i in range(52)), "JK")


def format_card(index: int | None) -> str:
    """Canonical text of a card index; ``None`` (a hidden card) is ``??``.

    >>> format_card(0), format_card(51), format_card(None)
    ('AS', 'KC', '??')
    """
    if index is None:
        return UNKNOWN_TEXT
    return _FORMAT[index]


def format_cards(cards: Iterable[int | None]) -> str:
    """Space-separated canonical text of a sequence of cards (``None`` is ``??``)."""
    return " ".join(format_card(c) for c in cards)


def card_of(rank: int, suit: int) -> int:
    """The index of a card from its rank (1–13) and suit (0–3)."""
    return suit * 13 + rank - 1


def parse_card(text: str) -> int:
    """Parse one card to its index.  ``??`` is not a card here: see :func:`parse_cards`.

    >>> parse_card("ah"), parse_card("T♥"), parse_card("jk")
    (13, 22, 52)
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    ValueError: not a card: '1X' (write rank then suit, e.g. AS 10D QH)
    """
    t = text.strip().upper()
    if t in ("JK", "JOKER", "🃏"):
        return JOKER
    if len(t) >= 2:
        rank = _RANK_PARSE.get(t[:-1])
        suit = _SUIT_PARSE.get(t[-1])
        if rank is not None and suit is not None:
            return suit * 13 + rank - 1
    raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. AS 10D QH)")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse space- or comma-separated cards, keeping their order."""
    return tuple(CARDS[parse_card(t)] for t in text.replace(",", " ").split())


def mask_of(cards: Iterable[int]) -> int:
    """The mask of some card indices."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def iter_mask(mask: int) -> Iterator[int]:
    """The card indices of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _suit_table(offset: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(13) if bits >> i & 1) for bits in range(1 << 13))


_SUIT_CARDS = tuple(_suit_table(13 * s) for s in range(4))


def mask_cards(mask: int) -> tuple[int, ...]:
    """The card indices of a mask of standard cards as a tuple, lowest first.

    A table lookup per suit, so it is cheap on the hot paths of the engines.

    >>> mask_cards(0b1010), mask_cards(1 << 51 | 1)
    ((1, 3), (0, 51))
    """
    s0, s1, s2, s3 = _SUIT_CARDS
    return (
        s0[mask & 0x1FFF]
        + s1[mask >> 13 & 0x1FFF]
        + s2[mask >> 26 & 0x1FFF]
        + s3[mask >> 39 & 0x1FFF]
    )


def format_mask(mask: int) -> str:
    """Canonical text of a card mask, in index order (suit, then rank)."""
    return " ".join(_FORMAT[i] for i in iter_mask(mask))


def parse_mask(text: str) -> int:
    """Parse cards to a mask; a repeated card is an error."""
    m = 0
    for c in parse_cards(text):
        if m >> c & 1:
            raise ValueError(f"card {format_card(c)} is listed twice")
        m |= 1 << c
    return m
