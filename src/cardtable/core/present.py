"""How a game presents itself: events, options and score breakdowns as message ids with
typed parameters, for UIs to render in any language.

A :class:`Message` is a catalog id (a gettext ``msgid``) and parameters.  A parameter is a
plain value or one of the typed references :class:`SeatRef` (rendered as the player's
name), :class:`CardRef` (one card in the game's canonical notation, ``None`` when hidden)
and :class:`CardsRef` (several).  The game only names what happened; the server picks the
words, the player names and the suit symbols.

>>> m = Message("{name} played {card}", {"name": SeatRef(2), "card": CardRef("10D")})
>>> m.id, m.params["name"]
('{name} played {card}', SeatRef(seat=2))
>>> Message("{num} card", {"num": 3}, plural="{num} cards").count()
3
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = [
    "CardRef",
    "CardsRef",
    "Message",
    "OptionText",
    "Param",
    "ScoreRow",
    "ScoreTable",
    "SeatRef",
]


@dataclass(frozen=True, slots=True)
class SeatRef:
    """A seat, rendered as the name of whoever sits there."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardRef:
    """One card in the game's canonical notation (``10D``, ``7H'``, ``JK``); ``None`` when
    hidden."""

    card: str | None


@dataclass(frozen=True, slots=True)
class CardsRef:
    """Several cards in canonical notation (``None`` for each hidden one); a token that is
    not a card (Royal Casino's build ``b1``) is shown as written."""

    cards: tuple[str | None, ...]


Param = str | int | bool | None | SeatRef | CardRef | CardsRef
"""What a message parameter may be."""


@dataclass(frozen=True, slots=True)
class Message:
    """A catalog id and its parameters.

    ``id`` is the ``msgid`` (English text or a ``prefix:name`` key whose English entry is
    in the game's English catalog).  A message that depends on a count names its English
    plural form in ``plural``; the count is the parameter ``num``.
    """

    id: str
    params: Mapping[str, Param] = field(default_factory=dict)
    plural: str | None = None

    def count(self) -> int:
        """The count that picks a plural form (the ``num`` parameter, else 1)."""
        num = self.params.get("num")
        return num if isinstance(num, int) and not isinstance(num, bool) else 1


@dataclass(frozen=True, slots=True)
class OptionText:
    """How an option is shown in a form: its label, its help and a label for each choice."""

    label: Message
    help: Message
    choices: Mapping[str, Message] = field(default_factory=dict)

    @classmethod
    def by_ids(cls, prefix: str, name: str, choices: Iterable[str]) -> OptionText:
        """The usual catalog ids: ``<prefix>.opt.<name>``, its ``.help`` and one per choice.

        >>> text = OptionText.by_ids("casino", "sweeps", ("ON", "OFF"))
        >>> text.label.id, text.help.id, text.choices["OFF"].id
        ('casino.opt.sweeps', 'casino.opt.sweeps.help', 'casino.opt.sweeps.OFF')
        """
        key = f"{prefix}.opt.{name}"
        return cls(
            Message(key), Message(key + ".help"), {c: Message(f"{key}.{c}") for c in choices}
        )


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One line of a score breakdown: a label and a value per column (side)."""

    label: Message
    values: tuple[int | str, ...]
    total: bool = False
    """True for a line that sums up the ones above it (shown emphasised)."""


@dataclass(frozen=True, slots=True)
class ScoreTable:
    """The end-of-unit score breakdown: a title and rows with one value per side, the
    sides in the order of :meth:`cardtable.core.game.Game.sides` (the totals rows are
    flagged ``total``)."""

    title: Message
    rows: tuple[ScoreRow, ...]
