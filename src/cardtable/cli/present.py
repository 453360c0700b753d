"""The terminal's words: a game's messages and score breakdowns in English, cards with suit
symbols.

The terminal is English.  A game names what happened as :class:`~cardtable.core.present.Message`
ids with parameters and keeps their English wording (plural forms included) in its own
catalog, ``locale/en/LC_MESSAGES/messages.po`` of its
:meth:`~cardtable.core.game.Game.resource_package`; this module reads that catalog with
Babel and fills the parameters: seats as ``P1`` …, cards in notation with suit symbols.
Nothing here knows a game.

>>> pretty_text("capture 9S: 9H 10D [5C 4S] b1; JK 7H'")
"capture 9♠: 9♥ 10♦ [5♣ 4♠] b1; JK 7♥'"
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from rich.console import Console
from rich.table import Table as RichTable

from cardtable.core.game import Event
from cardtable.core.present import CardRef, CardsRef, Message, Param, ScoreTable, SeatRef
from cardtable.core.registry import AnyGame
from cardtable.core.seats import seat_name

__all__ = [
    "EnglishCatalog",
    "english_catalog",
    "pretty_text",
    "render_message",
    "score_lines",
    "score_rich_table",
]

_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])('?)(?![A-Za-z0-9])")
_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_FIELD = re.compile(r"\{(\w+)\}")


def pretty_text(text: str) -> str:
    """Every card in ``text`` written with its suit symbol (``10D`` → ``10♦``); builds,
    melds, jokers and words are left alone."""
    return _CARD.sub(lambda m: f"{m.group(1)}{_SYMBOL[m.group(2)]}{m.group(3)}", text)


class EnglishCatalog:
    """One game's English catalog: the wording of its message ids and their plural forms."""

    def __init__(self, catalog: Catalog | None) -> None:
        self._singular: dict[str, str] = {}
        self._plural: dict[str, tuple[str, str]] = {}
        for msg in catalog or ():
            if not msg.id:
                continue
            if isinstance(msg.id, tuple | list):
                one, many = str(msg.id[0]), str(msg.id[1])
                forms = [str(s) for s in msg.string] if isinstance(msg.string, tuple) else []
                if len(forms) == 2 and all(forms):
                    one, many = forms[0], forms[1]
                self._plural[str(msg.id[0])] = (one, many)
            else:
                self._singular[msg.id] = str(msg.string) if msg.string else msg.id

    def has(self, msgid: str) -> bool:
        """True when the catalog holds ``msgid``."""
        return msgid in self._singular or msgid in self._plural

    def text(self, message: Message) -> str:
        """The English template of ``message`` (its plural form chosen by its count); the
        id itself when the catalog lacks it."""
        if message.plural is not None or message.id in self._plural:
            one, many = self._plural.get(message.id, (message.id, message.plural or message.id))
            return one if message.count() == 1 else many
        return self._singular.get(message.id, message.id)


@cache
def english_catalog(package: str | None) -> EnglishCatalog:
    """The English catalog of a game's resource package (empty when it has none)."""
    if package is None:
        return EnglishCatalog(None)
    try:
        path = resources.files(package) / "locale" / "en" / "LC_MESSAGES" / "messages.po"
        if not path.is_file():
            return EnglishCatalog(None)
        with path.open("rb") as fh:
            return EnglishCatalog(read_po(fh, locale="en"))
    except ModuleNotFoundError:
        return EnglishCatalog(None)


def _param_text(value: Param) -> str:
    if isinstance(value, SeatRef):
        return seat_name(value.seat)
    if isinstance(value, CardRef):
        return pretty_text(value.card) if value.card else "??"
    if isinstance(value, CardsRef):
        return " ".join(pretty_text(c) if c else "??" for c in value.cards)
    return "" if value is None else pretty_text(str(value))


def render_message(message: Message, catalog: EnglishCatalog) -> str:
    """A message in English: seats as ``P1`` …, cards with suit symbols."""
    values: Mapping[str, str] = {k: _param_text(v) for k, v in message.params.items()}
    return _FIELD.sub(
        lambda m: values.get(m.group(1), m.group(0)), pretty_text(catalog.text(message))
    )


def _columns(game: AnyGame, players: int, width: int) -> list[str]:
    sides = game.sides(players)
    if len(sides) == width:
        return ["+".join(seat_name(s) for s in side) for side in sides]
    return [str(i + 1) for i in range(width)]


def score_rich_table(game: AnyGame, event: Event, players: int) -> RichTable | None:
    """The score breakdown ``event`` carries as a rich table with a column per side, or
    ``None`` for an event that carries none."""
    table: ScoreTable | None = game.score_table(event)
    if table is None:
        return None
    catalog = english_catalog(game.resource_package())
    width = max((len(row.values) for row in table.rows), default=0)
    out = RichTable(title=render_message(table.title, catalog), title_justify="left")
    out.add_column("", no_wrap=True)
    for column in _columns(game, players, width):
        out.add_column(column, justify="right")
    for row in table.rows:
        cells = [v if isinstance(v, str) else str(v) for v in row.values]
        out.add_row(
            render_message(row.label, catalog),
            *(pretty_text(c) for c in cells),
            style="bold" if row.total else None,
            end_section=False,
        )
    return out


def score_lines(game: AnyGame, event: Event, players: int, width: int = 100) -> str | None:
    """The score breakdown ``event`` carries as plain terminal text (``None``: none)."""
    table = score_rich_table(game, event, players)
    if table is None:
        return None
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, soft_wrap=False).print(table)
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines())
