"""What the page needs besides a seat's view: legal actions as clickable tokens and labels,
events as JSON, as localized log lines and as localized score breakdowns.

Nothing here knows a game: events become messages through the game's own
:meth:`~cardtable.core.game.Game.describe_event` and
:meth:`~cardtable.core.game.Game.score_table`, rendered from the merged catalogs with
seats as player names and cards with suit symbols.  Nothing here decides legality either:
the actions come from the :class:`~cardtable.tables.Table` and the events from the game's
``redact``.  Splitting an action's canonical text into its cards and targets only lets the
page highlight what a click can lead to.

>>> tokens_of("capture 9S: 9H 9C [5D 4S] b1")
['9S', '9H', '9C', '5D', '4S', 'b1']
>>> tokens_of("LAYOFF 8C->M1")
['8C', 'M1']
>>> from cardtable.core.present import CardRef, Message, SeatRef
>>> from cardtable.server.i18n import translator
>>> msg = Message("{name} played {card}", {"name": SeatRef(1), "card": CardRef("10D")})
>>> render_message(msg, ["Ann", "Bob"], translator("cs"))
'Bob hraje 10♦'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from cardtable.core.game import Event
from cardtable.core.present import CardRef, CardsRef, Message, Param, SeatRef
from cardtable.core.registry import AnyGame
from cardtable.server.i18n import Translator

__all__ = [
    "action_entry",
    "action_label",
    "card_words",
    "describe_event",
    "event_json",
    "log_entry",
    "pretty_text",
    "render_message",
    "score_json",
    "to_json_value",
    "tokens_of",
]

_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9AJQK])[SHDC]'?|JK'?|[bBmM]\d+)(?![A-Za-z0-9])")
_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([SHDC])('?)(?![A-Za-z0-9])")
_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def tokens_of(text: str) -> list[str]:
    """The cards (``9S``), builds (``b1``) and melds (``M1``) an action text names, in order."""
    return _TOKEN.findall(text)


def pretty_text(text: str) -> str:
    """Cards written with suit symbols: ``capture 9S: 9H`` → ``capture 9♠: 9♥``."""
    got = _PRETTY.get(text)
    if got is None:
        if len(_PRETTY) >= 4096:
            _PRETTY.clear()
        got = _PRETTY[text] = _CARD.sub(_symbol, text)
    return got


def _symbol(m: re.Match[str]) -> str:
    return f"{m.group(1)}{_SYMBOL[m.group(2)]}{m.group(3)}"


_PRETTY: dict[str, str] = {}
"""Texts already written with symbols: the same cards and moves recur at every table."""


def action_entry(
    text: str, hand: Sequence[str], tr: Translator, message: Message | None = None
) -> dict[str, Any]:
    """One legal action for the page: its text, a localized label, hand cards and targets.

    The label is ``message`` (the game's words for the action,
    :meth:`~cardtable.core.game.Game.describe_action`) when the catalog has it, else the
    verb's label and the action's cards.
    """
    tokens = tokens_of(text)
    in_hand = set(hand)
    return {
        "text": text,
        "label": action_label(text, tr, message),
        "cards": [t for t in tokens if t in in_hand],
        "targets": [t for t in tokens if t not in in_hand],
    }


def action_label(text: str, tr: Translator, message: Message | None = None) -> str:
    """An action's words: ``message`` (the game's words for it) when the catalog has it,
    else the verb's label and the action's cards."""
    if message is not None and tr.has(message.id):
        return render_message(message, (), tr)
    verb, _, rest = text.partition(" ")
    label = tr.gettext(f"action:{verb.lower()}")
    if label == f"action:{verb.lower()}":
        label = verb
    return (label + " " + card_words(rest)).strip()


_JOKER = re.compile(r"JK'?(?:=((?:10|[2-9AJQK])(?:[SHDC]'?|\*)))?")


def _joker(m: re.Match[str]) -> str:
    meaning = m.group(1)
    return "🃏" if meaning is None else f"🃏({meaning.rstrip('*')})"


def card_words(text: str) -> str:
    """Cards as a player reads them: suit symbols, a joker as 🃏 with the card it stands
    for, and no mark for the second pack (two equal cards look alike on the table).

    >>> card_words("JK=6H 7H' 5D+4S JK'=7*")
    '🃏(6♥) 7♥ 5♦+4♠ 🃏(7)'
    """
    return pretty_text(_JOKER.sub(_joker, text)).replace("'", "")


_PLAIN = (str, int, bool, float, type(None))


def _field_names(cls: type) -> tuple[str, ...]:
    """The fields of a dataclass, looked up once per class."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


_FIELDS: dict[type, tuple[str, ...]] = {}


def to_json_value(value: Any) -> Any:
    """Plain JSON for event fields (nested dataclasses such as score items become objects)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        if all(type(v) in _PLAIN for v in value):
            return list(value)
        return [to_json_value(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {name: to_json_value(getattr(value, name)) for name in _field_names(kind)}
        total = getattr(value, "total", None)
        if isinstance(total, int) and "total" not in out:
            out["total"] = total
        return out
    if isinstance(value, tuple | list):
        return [to_json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json_value(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def event_json(event: Event) -> dict[str, Any]:
    """An event as JSON: ``{"kind": …, field: value, …}``; cards are already in notation
    (a hidden card is ``null``)."""
    out: dict[str, Any] = {"kind": event.kind}
    for name in _field_names(type(event)):
        out[name] = to_json_value(getattr(event, name))
    return out


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def _param_text(value: Param, names: Sequence[str]) -> str:
    if isinstance(value, SeatRef):
        return _seat_name(names, value.seat)
    if isinstance(value, CardRef):
        return card_words(value.card) if value.card else "??"
    if isinstance(value, CardsRef):
        return " ".join(card_words(c) if c else "??" for c in value.cards)
    return "" if value is None else str(value)


def render_message(message: Message, names: Sequence[str], tr: Translator) -> str:
    """A message in the translator's language: seats as names, cards with suit symbols."""
    values = {k: _param_text(v, names) for k, v in message.params.items()}
    if message.plural is not None:
        return tr.nfmt(message.id, message.plural, message.count(), **values)
    return tr.fmt(message.id, **values)


def describe_event(game: AnyGame, event: Event, names: Sequence[str], tr: Translator) -> str:
    """A localized log line: the game's message for the event, or, when no catalog has that
    message, the event's own English ``describe``."""
    message = game.describe_event(event)
    if tr.has(message.id):
        return render_message(message, names, tr)
    return pretty_text(event.describe())


def score_json(
    game: AnyGame, event: Event, names: Sequence[str], tr: Translator
) -> dict[str, Any] | None:
    """The score breakdown an event carries, localized: a title, a heading per side and
    rows of ``{"label", "values", "total"}``; ``None`` when the event carries none."""
    table = game.score_table(event)
    if table is None:
        return None
    width = max((len(row.values) for row in table.rows), default=0)
    sides = game.sides(len(names)) if names else ()
    if len(sides) == width:
        columns = [" + ".join(_seat_name(names, s) for s in side) for side in sides]
    else:
        columns = [str(i + 1) for i in range(width)]
    return {
        "title": render_message(table.title, names, tr),
        "columns": columns,
        "rows": [
            {
                "label": render_message(row.label, names, tr),
                "values": [v if isinstance(v, int) else card_words(v) for v in row.values],
                "total": row.total,
            }
            for row in table.rows
        ],
    }


def log_entry(game: AnyGame, event: Event, names: Sequence[str], tr: Translator) -> dict[str, Any]:
    """An event for the page: its log line, its JSON and, at the end of a unit, its score
    breakdown."""
    entry: dict[str, Any] = {
        "text": describe_event(game, event, names, tr),
        "event": event_json(event),
    }
    breakdown = score_json(game, event, names, tr)
    if breakdown is not None:
        entry["breakdown"] = breakdown
    return entry
