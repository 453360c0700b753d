"""The frozen events Royal Mastheads emits (cards in notation; a hidden card is ``None``).

>>> CardPlayed(0, "KC").describe()
'P1 plays KC'
>>> PotCardChosen(2, None).describe()
'P3 puts ?? into the pot'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.cards import format_card
from cardtable.core.game import Event

__all__ = [
    "CardPlayed",
    "CardTurned",
    "DealScored",
    "Dealt",
    "PotAwarded",
    "PotCardChosen",
    "SetOver",
    "TrickWon",
]


CARD_TEXT = tuple(format_card(c) for c in range(52))
"""The notation of each card index, for building events without formatting each time."""


def _cards(cards: tuple[str, ...] | None) -> str:
    if cards is None:
        return "??"
    return " ".join(cards) or "-"


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A deal was dealt (M-6): 13 cards each; a hand hidden from the reader is ``None``."""

    kind: ClassVar[str] = "dealt"
    deal: int
    dealer: int
    hands: tuple[tuple[str, ...] | None, ...]

    def describe(self) -> str:
        """One line for a log."""
        return f"deal {self.deal}: P{self.dealer + 1} deals 13 cards each"


@dataclass(frozen=True, slots=True)
class CardTurned(Event):
    """The card shown to everyone (M-5): trumps, and (``pagat``) the masthead rank."""

    kind: ClassVar[str] = "card_turned"
    card: str
    trumps: str
    masthead: str | None

    def describe(self) -> str:
        """One line for a log."""
        text = f"{self.card} is turned: {self.trumps} are trumps"
        if self.masthead is not None:
            text += f", {self.masthead}s are mastheads"
        return text


@dataclass(frozen=True, slots=True)
class PotCardChosen(Event):
    """A player put a card face down into the pot (M-7); others see ``card=None``."""

    kind: ClassVar[str] = "pot_card_chosen"
    seat: int
    card: str | None

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} puts {self.card or '??'} into the pot"


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card was played to the current trick (M-10)."""

    kind: ClassVar[str] = "card_played"
    seat: int
    card: str

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} plays {self.card}"


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """A trick was won (M-11); ``number`` counts from 1, ``cards`` from the leader."""

    kind: ClassVar[str] = "trick_won"
    number: int
    seat: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} wins trick {self.number} ({_cards(self.cards)})"


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """At scoring the pot is shown and goes to the strict trick leader, or nobody (M-8)."""

    kind: ClassVar[str] = "pot_awarded"
    seat: int | None
    cards: tuple[str, ...]

    def describe(self) -> str:
        """One line for a log."""
        who = "nobody (tie for most tricks)" if self.seat is None else f"P{self.seat + 1}"
        return f"the pot ({_cards(self.cards)}) goes to {who}"


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    """A deal's scores with the breakdown per seat (M-12 … M-16)."""

    kind: ClassVar[str] = "deal_scored"
    deal: int
    tricks: tuple[int, ...]
    card_points: tuple[int, ...]
    count_bonus: tuple[int, ...]
    """Mastheads (``pagat``) or exactly 3/4 trumps (``russian``): 25/50."""
    tricks_bonus: tuple[int, ...]
    royals_bonus: tuple[int, ...]
    trumps_bonus: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    captured: tuple[tuple[str, ...], ...]
    """Per seat, the captured cards in capture order (M-12): tricks in the order won, cards
    in the order played, then the pot."""
    capture_points: tuple[int, ...]
    """The card points of every card of ``captured``, seat after seat, in the same order."""
    pot_seat: int | None
    """Who took the pot (M-8); ``None`` on a tie for most tricks."""
    doubled: tuple[tuple[str, ...], ...]
    """Per seat, the captured cards that scored double (M-14)."""

    def describe(self) -> str:
        """One line for a log."""
        scores = " ".join(str(s) for s in self.scores)
        totals = " ".join(str(s) for s in self.totals)
        return f"deal {self.deal} scores {scores}; totals {totals}"


@dataclass(frozen=True, slots=True)
class SetOver(Event):
    """The set (or the single deal, scope ``unit``) is over (M-17)."""

    kind: ClassVar[str] = "set_over"
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self) -> str:
        """One line for a log."""
        who = " and ".join(f"P{w + 1}" for w in self.winners)
        return f"the set is over: {who} {'win' if len(self.winners) > 1 else 'wins'}"
