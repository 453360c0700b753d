"""Rummy state: physical cards, resolved options, melds, actions, phases and the state value.

Physical cards (R1.5): a natural card of face ``f`` (``0..51`` = ``suit*13 + rank-1``, as in
:mod:`cardtable.cards`) from pack ``c`` (0 or 1) has the id ``f + 52*c``; jokers are
``104..107``.  A set of physical cards is an int bit mask over these 108 ids.

>>> card_text(phys(parse_face("7H"), 1)), card_text(JOKER0 + 1)
("7H'", "JK'")
>>> parse_phys("7h'"), parse_phys("JK''")
(71, 106)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from enum import IntEnum
from typing import Any, Final, NamedTuple

from cardtable.cards import format_card, parse_card
from cardtable.core.errors import InvalidOptionError
from cardtable.core.options import Options, OptionSchema, OptionSpec

__all__ = [
    "DISCARD",
    "DRAW",
    "F52",
    "JOKER0",
    "JOKER_MASK",
    "LAYOFF",
    "MELD",
    "RUN",
    "SET",
    "SETJ",
    "SWAP",
    "TAKE",
    "Config",
    "Meld",
    "Phase",
    "RummyAction",
    "RummyState",
    "card_text",
    "face_of",
    "hand_faces",
    "lowest_copy",
    "make_config",
    "parse_face",
    "parse_phys",
    "phys",
]

F52: Final = (1 << 52) - 1
"""Mask of the 52 faces (or of the first pack's physical cards)."""
JOKER0: Final = 104
"""Physical id of the first joker; jokers are ``104..107``."""
JOKER_MASK: Final = 0xF << JOKER0
"""Mask of the four joker ids."""
SETJ: Final = 64
"""Meaning code of a joker in a set: ``SETJ + rank - 1`` ("this rank, a suit not present")."""

RUN: Final = 0
SET: Final = 1

# action kinds
DRAW: Final = 0
TAKE: Final = 1
MELD: Final = 2
LAYOFF: Final = 3
SWAP: Final = 4
DISCARD: Final = 5


def phys(face: int, copy: int) -> int:
    """The physical id of a natural face from pack ``copy`` (0 or 1)."""
    return face + 52 * copy


def face_of(card: int) -> int:
    """The face (0..51) of a natural physical card, or 52 for a joker."""
    return 52 if card >= JOKER0 else card % 52


def hand_faces(mask: int) -> int:
    """The 52-bit mask of faces present among the natural cards of ``mask``."""
    return (mask | mask >> 52) & F52


def lowest_copy(mask: int, face: int) -> int:
    """The lowest physical copy of ``face`` in ``mask`` (-1 if none); face 52 = a joker."""
    if face == 52:
        j = mask >> JOKER0
        return -1 if not j else JOKER0 + ((j & -j).bit_length() - 1)
    if mask >> face & 1:
        return face
    if mask >> (face + 52) & 1:
        return face + 52
    return -1


def card_text(card: int) -> str:
    """Canonical text of a physical card: ``7H``, ``7H'`` (second pack), ``JK``, ``JK'``…"""
    if card >= JOKER0:
        return "JK" + "'" * (card - JOKER0)
    return format_card(card % 52) + "'" * (card // 52)


def parse_face(text: str) -> int:
    """A face index from card text (``JK`` gives 52); raises ``ValueError``."""
    return parse_card(text)


_PHYS_RE = re.compile(r"^(.*?)('*)$")


def parse_phys(text: str) -> int:
    """A physical card id from ``7H``, ``7H'``, ``JK''``; raises ``ValueError``."""
    m = _PHYS_RE.match(text.strip())
    assert m is not None
    base, primes = m.group(1), len(m.group(2))
    face = parse_card(base)
    if face == 52:
        if primes > 3:
            raise ValueError(f"not a card: {text!r} (jokers are JK JK' JK'' JK''')")
        return JOKER0 + primes
    if primes > 1:
        raise ValueError(f"not a card: {text!r} (there are at most two packs)")
    return face + 52 * primes


class Phase(IntEnum):
    """Turn phase: DRAW (nothing drawn yet), PLAY (drawn), OVER (the game has ended)."""

    DRAW = 0
    PLAY = 1
    OVER = 2


class Meld(NamedTuple):
    """A meld on the table.

    ``cards`` are physical ids in meld order (runs low→high; sets naturals by suit, then
    jokers).  For a run ``suit`` is its suit and ``lo`` the position of its first card
    (position ``p`` has rank ``(p-1) % 13 + 1``; without wrap, positions are ``1..14`` and
    14 is the high ace).  For a set ``suit`` is -1 and ``lo`` is the rank.  A joker's meaning
    is fixed by its slot (R8.2).
    """

    kind: int
    suit: int
    lo: int
    cards: tuple[int, ...]
    owner: int


class RummyAction(NamedTuple):
    """One atomic action.

    * ``DRAW``: draw the top stock card.  ``TAKE``: take from the discard pile at depth
      ``target`` (0 = top).
    * ``MELD``: ``cards`` in meld order, ``meanings`` the face each slot stands for (a set
      joker is ``SETJ + rank - 1``), ``target`` the run's first position or, for a set, 0.
    * ``LAYOFF``: ``cards[0]`` onto meld index ``target``, standing for ``meanings[0]``.
    * ``SWAP``: natural ``cards[0]`` replaces table joker ``cards[1]`` in meld ``target``.
    * ``DISCARD``: ``cards[0]``.
    """

    kind: int
    cards: tuple[int, ...] = ()
    meanings: tuple[int, ...] = ()
    target: int = -1


OPTIONS = OptionSchema(
    (
        OptionSpec(
            "decks", "int", 0, help="packs: 0 = auto (1, or 2 from 7 players)", minimum=0, maximum=2
        ),
        OptionSpec("handSize", "int", 0, help="cards per hand: 0 = per R3.2", minimum=0),
        OptionSpec("jokers", "bool", False, help="2 jokers per pack (R1.4, R8)"),
        OptionSpec("wrapKA2", "bool", False, help="runs may pass through the ace (R2.3)"),
        OptionSpec("doubleFromHand", "bool", False, help="going out from the hand doubles (R9.5)"),
        OptionSpec(
            "discardPickup",
            "choice",
            "top",
            ("top", "anyWithAbove", "anySingle"),
            help="which discards may be taken (R11)",
        ),
        OptionSpec(
            "pickupMustBeUsed",
            "bool",
            False,
            help="a taken top discard must be melded or laid off this turn (R4.8)",
        ),
        OptionSpec(
            "mustDiscardToGoOut", "bool", False, help="going out needs a final discard (R4.6)"
        ),
        OptionSpec("maxOneMeldPerTurn", "bool", False, help="at most one MELD per turn (R5.4)"),
        OptionSpec(
            "jokerLimit",
            "choice",
            "half",
            ("half", "strict", "one-natural"),
            help="jokers per meld: <= naturals, < naturals, or any (R8.3)",
        ),
        OptionSpec("jokersMayTouch", "bool", False, help="two jokers may be adjacent in a run"),
        OptionSpec("jokerSwap", "bool", False, help="a table joker may be exchanged (R8.7)"),
        OptionSpec(
            "maxTurnovers",
            "int",
            3,
            help="stock turnovers per round, -1 = no limit (R7.3)",
            minimum=-1,
        ),
        OptionSpec(
            "maxTurnsPerRound", "int", 500, help="turns before a round is blocked (R7.3)", minimum=1
        ),
        OptionSpec(
            "gameMode", "str", "rounds", help="single | rounds | rounds(k) | limit | limit(L) (R10)"
        ),
    )
)
"""Every §R12 setting, with the spec's names."""

_MODE_RE = re.compile(r"^\s*(single|rounds|limit)\s*(?:\(\s*(\d+)\s*\))?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Config:
    """Options resolved for a number of players (R1.3, R3.2, R10.3)."""

    players: int
    decks: int
    hand_size: int
    jokers: bool
    wrap: bool
    double: bool
    pickup: int
    """0 top, 1 anyWithAbove, 2 anySingle."""
    must_use: bool
    must_discard: bool
    one_meld: bool
    joker_limit: int
    """0 half (J ≤ N), 1 strict (J < N), 2 one-natural."""
    touch: bool
    swap: bool
    max_turnovers: int
    max_turns: int
    mode: str
    """single, rounds or limit."""
    mode_n: int
    """Number of rounds (rounds) or the negative limit (limit)."""
    options: Options

    @property
    def pack_size(self) -> int:
        """Number of physical cards in play."""
        return self.decks * (54 if self.jokers else 52)

    @property
    def all_cards(self) -> int:
        """Mask of every physical card in play."""
        m = F52 if self.decks == 1 else (1 << 104) - 1
        if self.jokers:
            m |= ((1 << (2 * self.decks)) - 1) << JOKER0
        return m

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


def make_config(players: int, options: Options) -> Config:
    """Resolve and check options for ``players`` seats; raises ``InvalidOptionError``.

    >>> c = make_config(7, OPTIONS.defaults())
    >>> c.decks, c.hand_size, c.mode_n
    (2, 10, 7)
    >>> make_config(7, OPTIONS.validate({"decks": 1}))
    Traceback (most recent call last):
    ...
    cardtable.core.errors.InvalidOptionError: R1.3: 7 players need two packs (decks=2)
    """
    if not 2 <= players <= 12:
        raise InvalidOptionError(f"R1.2: Rummy is for 2 to 12 players; got {players}")
    decks = int(options["decks"])
    if decks == 0:
        decks = 2 if players >= 7 else 1
    elif decks == 1 and players >= 7:
        raise InvalidOptionError(f"R1.3: {players} players need two packs (decks=2)")
    jokers = bool(options["jokers"])
    size = decks * (54 if jokers else 52)
    hand = int(options["handSize"])
    if hand == 0:
        hand = 10 if players / decks <= 4 else 7
    if hand < 1 or players * hand + 2 > size:
        raise InvalidOptionError(
            f"R3.2: {players} hands of {hand} need {players * hand + 2} cards; the pack has {size}"
        )
    mode_text = str(options["gameMode"])
    m = _MODE_RE.match(mode_text)
    if m is None:
        raise InvalidOptionError(
            f"option 'gameMode' must be single, rounds, rounds(k), limit or limit(L); "
            f"got {mode_text!r}"
        )
    mode = m.group(1).lower()
    n = int(m.group(2)) if m.group(2) else 0
    if mode == "single":
        if m.group(2):
            raise InvalidOptionError("option 'gameMode': single takes no number")
        n = 1
    elif mode == "rounds":
        n = n or players
    else:
        n = n or 500
    if n < 1:
        raise InvalidOptionError("option 'gameMode': the number must be at least 1")
    pickup = ("top", "anyWithAbove", "anySingle").index(str(options["discardPickup"]))
    limit = ("half", "strict", "one-natural").index(str(options["jokerLimit"]))
    return Config(
        players=players,
        decks=decks,
        hand_size=hand,
        jokers=jokers,
        wrap=bool(options["wrapKA2"]),
        double=bool(options["doubleFromHand"]),
        pickup=pickup,
        must_use=bool(options["pickupMustBeUsed"]),
        must_discard=bool(options["mustDiscardToGoOut"]),
        one_meld=bool(options["maxOneMeldPerTurn"]),
        joker_limit=limit,
        touch=bool(options["jokersMayTouch"]),
        swap=bool(options["jokerSwap"]),
        max_turnovers=int(options["maxTurnovers"]),
        max_turns=int(options["maxTurnsPerRound"]),
        mode=mode,
        mode_n=n,
        options=options,
    )


class RummyState(NamedTuple):
    """A Rummy position: immutable, complete, and serialisable by the position notation.

    A ``NamedTuple`` (immutable, no ``__dict__``) rather than a frozen dataclass: ``apply``
    builds one per action, and a frozen dataclass of 25 fields costs about 3 µs to build
    against 0.5 µs for a named tuple (measured), most of ``apply``'s time.

    Per-seat tuples are indexed by seat (P1 = 0).  ``taken`` is the card taken from the top of
    the discard pile this turn (R4.5, -1 if none); ``obligations`` the mask of cards that must
    be melded or laid off before the turn may end (R4.8, R8.7, R11.2).  ``placed`` says who
    had put a card on the table in an earlier turn of this round (R9.5).

    ``known`` is the mask of the cards in hands that everyone saw enter them this round
    (R4.9): cards taken from the discard pile (any depth, R11), cards drawn from a stock whose
    order is public after a turnover (R7.1), and a joker freed by a swap (R8.7).  Seat ``i``'s
    publicly known cards are ``hands[i] & known`` (one mask, as the hands are disjoint: no
    tuple to rebuild when it changes).  A card leaves it when it leaves the hand (meld,
    lay-off, swap, discard); a new deal empties it.  The taken card and the obligations are
    always in it.

    Hot paths build it as ``tuple.__new__(RummyState, (...))`` with every field:
    the same value, without the Python frame of the generated ``__new__``.
    """

    cfg: Config
    seed: int
    scope: str
    round_no: int
    """Rounds completed before the current one."""
    dealer: int
    phase: Phase
    current: int
    hands: tuple[int, ...]
    known: int
    """The cards publicly known to be in hands; seat ``i``'s are ``hands[i] & known``."""
    stock: tuple[int, ...]
    """Index 0 is the top card."""
    discard: tuple[int, ...]
    """Bottom → top."""
    melds: tuple[Meld, ...]
    taken: int
    obligations: int
    melds_this_turn: int
    placed_this_turn: bool
    placed: tuple[bool, ...]
    turn_no: int
    """Completed turns this round (R7.3)."""
    turnovers: int
    stock_public: bool
    """True after a turnover: the new stock's order is known to all (R4.9)."""
    scores: tuple[int, ...]
    closes: tuple[int, ...]
    penalties: tuple[int, ...]
    last_closer: int
    """Closer of the last finished round (-1: blocked or none yet)."""
    last_scores: tuple[int, ...]
    """Round scores of the last finished round (empty before the first)."""
    out: int
    """Cards set aside, out of play (only in positions built for tests; 0 in real play)."""
    passed: tuple[int, ...]
    """Per seat, the mask of the cards this seat passed up this round: the top of the discard
    pile when it drew from the stock instead (public: everyone saw the pile and the draw)."""
