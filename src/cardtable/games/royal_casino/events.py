"""Royal Casino events: what UIs animate and logs keep.  Cards are in notation (``10D``);
only :class:`Dealt` carries cards hidden from some seats, which
:func:`cardtable.games.royal_casino.view.redact` blanks to ``None``.

>>> Trailed(0, "10D").describe()
'P1 trailed 10D'
>>> Captured(1, "8S", ("5H",), (2,), ("5H", "8S"), False).describe()
'P2 took 5H and an 8-build with 8S'

A build is named in the log by what does not change while it lies on the table, its value
and its owner (``P1's 8-build``), not by its number ``b1``, which shifts as builds come
and go.
>>> mask_texts(0b101)
('AS', '3S')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.cards import format_card, mask_cards
from cardtable.core.game import Event
from cardtable.games.royal_casino.scoring import HandScore

__all__ = [
    "Added",
    "Built",
    "Captured",
    "Dealt",
    "GameOver",
    "HandScored",
    "Leftovers",
    "Raised",
    "Trailed",
    "mask_texts",
]

CARD_TEXT = tuple(format_card(c) for c in range(52))
"""The notation of each card index, for building events without formatting each time."""


def mask_texts(mask: int) -> tuple[str, ...]:
    """The cards of a set, in notation, in index order."""
    return tuple(CARD_TEXT[c] for c in mask_cards(mask))


def capture_value(card: str) -> int:
    """The capture value of a card in notation: 2–10, J 11, Q 12, K 13, an ace 14 (C2.2a).

    >>> capture_value("AS"), capture_value("10D"), capture_value("QH")
    (14, 10, 12)
    """
    rank = card[:-1]
    return {"A": 14, "J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)


def build_name(owner: int, value: int) -> str:
    """A build as the log names it: by owner and value (``P2's 11-build``)."""
    return f"P{owner + 1}'s {value}-build"


def format_cards(cards: tuple[str | None, ...]) -> str:
    """Cards in notation joined by spaces (``??`` for a hidden one)."""
    return " ".join(c or "??" for c in cards)


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Cards dealt: ``hands[seat]`` (``None`` for a card the reader may not see), and the
    table cards on the first deal of a hand."""

    kind: ClassVar[str] = "dealt"
    hand_no: int
    deal_no: int
    dealer: int
    hands: tuple[tuple[str | None, ...], ...]
    table: tuple[str, ...]

    def describe(self) -> str:
        """One line for a log."""
        text = f"hand {self.hand_no}, deal {self.deal_no}: 4 cards each"
        if self.table:
            text += f"; table {format_cards(self.table)}"
        return text


@dataclass(frozen=True, slots=True)
class Trailed(Event):
    """A card left on the table (C5.1)."""

    kind: ClassVar[str] = "trailed"
    seat: int
    card: str

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} trailed {self.card}"


@dataclass(frozen=True, slots=True)
class Captured(Event):
    """A capture (C5.2): the loose cards and builds taken, all cards taken, sweep or not."""

    kind: ClassVar[str] = "captured"
    seat: int
    card: str
    loose: tuple[str, ...]
    builds: tuple[int, ...]
    taken: tuple[str, ...]
    sweep: bool

    def describe(self) -> str:
        """One line for a log."""
        items = [format_cards(self.loose)] if self.loose else []
        if self.builds:
            # Every build a card captures has the card's capture value (C5.2).
            value = capture_value(self.card)
            count = len(self.builds)
            items.append(
                f"an {value}-build"
                if count == 1 and value in (8, 11)
                else f"a {value}-build"
                if count == 1
                else f"{count} {value}-builds"
            )
        text = f"P{self.seat + 1} took {' and '.join(items)} with {self.card}"
        return text + (" — sweep" if self.sweep else "")


@dataclass(frozen=True, slots=True)
class Built(Event):
    """A new build (C5.3), now build number ``build``."""

    kind: ClassVar[str] = "built"
    seat: int
    card: str
    value: int
    multi: bool
    loose: tuple[str, ...]
    build: int

    def describe(self) -> str:
        """One line for a log."""
        kind = "multiple" if self.multi else "single"
        return (
            f"P{self.seat + 1} built a {kind} {self.value} with {self.card} "
            f"on {format_cards(self.loose)}"
        )


@dataclass(frozen=True, slots=True)
class Added(Event):
    """A card (and loose cards) added to a build (C5.4); the adder now owns it."""

    kind: ClassVar[str] = "added"
    seat: int
    card: str
    build: int
    loose: tuple[str, ...]
    previous_owner: int
    value: int
    """The build's value (unchanged by an add)."""

    def describe(self) -> str:
        """One line for a log."""
        extra = f" + {format_cards(self.loose)}" if self.loose else ""
        return (
            f"P{self.seat + 1} added {self.card}{extra} to "
            f"{build_name(self.previous_owner, self.value)}"
        )


@dataclass(frozen=True, slots=True)
class Raised(Event):
    """A single build raised to a new value (C5.5), absorbing ``loose`` if any."""

    kind: ClassVar[str] = "raised"
    seat: int
    card: str
    build: int
    old_value: int
    new_value: int
    loose: tuple[str, ...]
    previous_owner: int

    def describe(self) -> str:
        """One line for a log."""
        extra = f", taking {format_cards(self.loose)}" if self.loose else ""
        return (
            f"P{self.seat + 1} raised {build_name(self.previous_owner, self.old_value)} "
            f"to {self.new_value} with {self.card}{extra}"
        )


@dataclass(frozen=True, slots=True)
class Leftovers(Event):
    """Cards left at the end of a hand, taken by the last capturer (C8.1); not a sweep."""

    kind: ClassVar[str] = "leftovers"
    seat: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        """One line for a log."""
        return f"P{self.seat + 1} (last capturer) takes the leftovers {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """A hand's score per side, item by item, and the match scores after it."""

    kind: ClassVar[str] = "hand_scored"
    hand_no: int
    items: tuple[HandScore, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]

    def describe(self) -> str:
        """One line for a log."""
        parts = []
        for i, h in enumerate(self.items):
            parts.append(
                f"side {i + 1}: {h.cards} cards, {h.spades} spades → {self.points[i]} "
                f"(cards {h.most_cards}, spades {h.most_spades}, 10♦ {h.big_casino}, "
                f"2♠ {h.little_casino}, aces {h.aces}, sweeps {h.sweeps})"
            )
        return f"hand {self.hand_no} scored: " + "; ".join(parts) + f"; scores {self.scores}"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game ended: final scores by side and the winning sides."""

    kind: ClassVar[str] = "game_over"
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    detail: str

    def describe(self) -> str:
        """One line for a log."""
        scores = " : ".join(str(s) for s in self.scores)
        return f"game over ({self.detail}): scores {scores}"
