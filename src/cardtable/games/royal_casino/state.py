"""Royal Casino state: immutable values, card tables and the option schema.

Cards are indices ``0..51`` and sets of cards are int masks (see :mod:`cardtable.cards`).
Seats are numbered in playing order (rule C1.3); with four players seats {0, 2} and
{1, 3} are the partnerships (C1.2).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from cardtable.core.game import Scope
from cardtable.core.options import Options, OptionSchema, OptionSpec

__all__ = [
    "ACE_BITS",
    "CAPV",
    "CAPVAL_BIT",
    "OPTIONS",
    "RANK_MASK",
    "SPADES",
    "VAL",
    "Build",
    "Kind",
    "Phase",
    "RoyalCasinoAction",
    "RoyalCasinoState",
    "guard_bits",
    "side_of",
]

# -- card tables ---------------------------------------------------------------------------
VAL: Final[tuple[int, ...]] = tuple(i % 13 + 1 for i in range(52))
"""The value of a card in sums and builds: A=1 … K=13 (C2.1, C2.2b)."""
CAPV: Final[tuple[int, ...]] = tuple(14 if v == 1 else v for v in VAL)
"""The capture value of a card played from hand: an ace captures 14 (C2.2a)."""
CAPVAL_BIT: Final[tuple[int, ...]] = tuple(1 << v for v in CAPV)
"""Bit ``capture value`` of each card: the build value it guards (C2.3)."""
RANK_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)
)
"""The mask of the four cards of each rank, indexed by ``rank - 1``."""
ACE_BITS: Final = RANK_MASK[0]
"""The mask of the four aces."""
SPADES = (1 << 13) - 1
"""The mask of the thirteen spades."""
TEN_OF_DIAMONDS = 1 << (2 * 13 + 9)
"""Big Casino, 10♦."""
TWO_OF_SPADES = 1 << 1
"""Little Casino, 2♠."""


def guard_bits(hand: int) -> int:
    """The build values a hand guards, as bits (bit V set: the hand holds a card capturing V)."""
    bits = 0
    while hand:
        low = hand & -hand
        bits |= CAPVAL_BIT[low.bit_length() - 1]
        hand ^= low
    return bits


def side_of(seat: int, players: int) -> int:
    """The side of a seat: the seat itself, or its partnership (0 or 1) with four players."""
    return seat % 2 if players == 4 else seat


# -- options (§1.12) -----------------------------------------------------------------------
OPTIONS = OptionSchema(
    (
        OptionSpec(
            "direction", "choice", "CCW", ("CCW", "CW"), "direction of deal and play (C1.3)"
        ),
        OptionSpec(
            "rule20",
            "choice",
            "LITTLE_CASINO",
            ("LITTLE_CASINO", "MOST_SPADES"),
            "what a side at 20 must take to win (C10.2, SC8)",
        ),
        OptionSpec(
            "nearTargetMiss",
            "choice",
            "FREEZE",
            ("FREEZE", "CAP_AT_20"),
            "what a side at 18-20 scores when it misses its requirement (C10.3)",
        ),
        OptionSpec("sweeps", "choice", "ON", ("ON", "OFF"), "sweeps score a point each (C7.2)"),
        OptionSpec(
            "lastPlaySweepCounts",
            "bool",
            True,
            help="a capture on the last play that clears the table is a sweep (C7.5)",
        ),
        OptionSpec(
            "threePlayerSweepNetting",
            "choice",
            "TOP_MINUS_SECOND",
            ("TOP_MINUS_SECOND",),
            "how sweeps cancel among three players (C7.3)",
        ),
        OptionSpec(
            "partnerBuildInteraction",
            "choice",
            "ALLOWED",
            ("ALLOWED", "FORBIDDEN"),
            "may a player raise or add to the partner's build (C6.4, SC4)",
        ),
        OptionSpec(
            "raiseAbsorbsLoose",
            "bool",
            True,
            help="a raise may also take loose groups of the new value (C5.5)",
        ),
        OptionSpec(
            "sameValueBuildsCoexist",
            "bool",
            True,
            help="a new build may have the value of a build already on the table (C5.3)",
        ),
    )
)


class Phase(IntEnum):
    """Where the game is: a player must play a card, or the game is over."""

    PLAY = 0
    OVER = 1


class Kind(IntEnum):
    """The five kinds of move (C4.0)."""

    TRAIL = 0
    CAPTURE = 1
    BUILD = 2
    ADD = 3
    RAISE = 4


class Build(NamedTuple):
    """A build on the table: value 2–14, single or multiple, its owner and its cards.

    ``comps`` holds the components (one mask each); they have no effect on the rules and
    are kept for display (C5.3–C5.5 "move identity").
    """

    value: int
    multi: bool
    owner: int
    mask: int
    comps: tuple[int, ...]


class RoyalCasinoAction(NamedTuple):
    """One move. ``builds`` is a bit set of build indices (bit i: ``b{i+1}``); ``loose`` a
    card mask of the loose cards used.  ``value`` is the capture value (CAPTURE), the build
    value (BUILD, ADD) or the new value (RAISE); ``multi`` the kind of a new build (BUILD)."""

    kind: Kind
    card: int
    value: int = 0
    multi: bool = False
    builds: int = 0
    loose: int = 0


class RoyalCasinoState(NamedTuple):
    """A Royal Casino position (an immutable named tuple: cheap to create on every move).

    ``scores`` are the match scores of the sides at the start of the current hand;
    ``piles`` and ``sweeps`` belong to sides; ``hands`` to seats.  ``stock`` is the
    undealt cards in dealing order.  ``turn`` is ``-1`` once the game is over.

    Positions in play are built in one place, the engine's ``_position`` (as
    ``tuple.__new__(RoyalCasinoState, (...))`` with every field: the same value, without
    the Python frame of the generated ``__new__``); other code uses ``_replace``.
    """

    players: int
    options: Options
    scope: Scope
    seed: int
    hand_no: int
    dealer: int
    turn: int
    phase: Phase
    hands: tuple[int, ...]
    stock: tuple[int, ...]
    loose: int
    builds: tuple[Build, ...]
    piles: tuple[int, ...]
    sweeps: tuple[int, ...]
    last_capturer: int
    scores: tuple[int, ...]
    playoff: bool
    winners: tuple[int, ...] = ()
    last_hand_points: tuple[int, ...] = ()

    @property
    def sides(self) -> int:
        """The number of sides (2 with four players)."""
        return 2 if self.players == 4 else self.players

    @property
    def step(self) -> int:
        """+1 when play goes counter-clockwise (the default), -1 clockwise."""
        return 1 if self.options["direction"] == "CCW" else -1
