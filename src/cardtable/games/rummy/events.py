"""Frozen events emitted by Rummy's ``apply``: what happened, for UIs and logs.

Cards are written in notation (``7H'``, ``JK=6H``); a card hidden from the reader is ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.core.game import Event

__all__ = [
    "Discarded",
    "DrewStock",
    "GameEnded",
    "LaidOff",
    "Melded",
    "RoundDealt",
    "RoundEnded",
    "StockTurnedOver",
    "SwappedJoker",
    "TookDiscard",
]


@dataclass(frozen=True, slots=True)
class RoundDealt(Event):
    """A round was dealt (R3): hands face down, the upcard turned."""

    kind: ClassVar[str] = "round_dealt"
    round: int
    dealer: int
    first: int
    hand_size: int
    upcard: str
    stock_size: int

    def describe(self) -> str:
        """One line for a log."""
        return (
            f"round {self.round}: P{self.dealer + 1} deals {self.hand_size} each, "
            f"upcard {self.upcard}; P{self.first + 1} starts"
        )


@dataclass(frozen=True, slots=True)
class StockTurnedOver(Event):
    """The discard pile was turned over to form a new stock (R7.1)."""

    kind: ClassVar[str] = "stock_turned_over"
    seat: int
    turnovers: int
    stock_size: int

    def describe(self) -> str:
        """One line for a log."""
        return f"the discard pile is turned over (turnover {self.turnovers})"


@dataclass(frozen=True, slots=True)
class DrewStock(Event):
    """A seat drew the top stock card; only the drawer sees it unless the stock is public."""

    kind: ClassVar[str] = "drew_stock"
    seat: int
    card: str | None
    public: bool

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} draws {self.card or 'a card'} from the stock"


@dataclass(frozen=True, slots=True)
class TookDiscard(Event):
    """A seat took from the discard pile (``depth`` 0 = the top card)."""

    kind: ClassVar[str] = "took_discard"
    seat: int
    depth: int
    cards: tuple[str, ...]
    chosen: str

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} takes {' '.join(self.cards)} from the discard pile"


@dataclass(frozen=True, slots=True)
class Melded(Event):
    """A seat laid a new meld on the table."""

    kind: ClassVar[str] = "melded"
    seat: int
    meld: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} melds M{self.meld + 1}: {' '.join(self.cards)}"


@dataclass(frozen=True, slots=True)
class LaidOff(Event):
    """A seat laid a card off onto a meld."""

    kind: ClassVar[str] = "laid_off"
    seat: int
    meld: int
    card: str

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} lays {self.card} off onto M{self.meld + 1}"


@dataclass(frozen=True, slots=True)
class SwappedJoker(Event):
    """A seat exchanged a natural card for a table joker (R8.7)."""

    kind: ClassVar[str] = "swapped_joker"
    seat: int
    meld: int
    card: str
    joker: str

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} swaps {self.card} for {self.joker} in M{self.meld + 1}"


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """A seat discarded a card face up."""

    kind: ClassVar[str] = "discarded"
    seat: int
    card: str

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} discards {self.card}"


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """A round ended: closed by ``closer`` or blocked (``closer`` = -1); hands are shown."""

    kind: ClassVar[str] = "round_ended"
    round: int
    closer: int
    doubled: bool
    hands: tuple[str, ...]
    penalties: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]

    def describe(self) -> str:
        """One line for a log."""
        how = "blocked" if self.closer < 0 else f"P{self.closer + 1} goes out"
        if self.doubled:
            how += " from the hand (penalties doubled)"
        return f"round {self.round} ends, {how}: {' '.join(f'{s:+d}' for s in self.scores)}"


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over."""

    kind: ClassVar[str] = "game_ended"
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self) -> str:
        """One line for a log."""
        return "game over; winner " + ", ".join(f"P{w + 1}" for w in self.winners)
