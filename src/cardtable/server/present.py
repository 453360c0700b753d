"""What the page needs besides a seat's view: legal actions as clickable tokens and labels,
events as JSON and as localized log lines.

Nothing here decides legality: the actions come from the :class:`~cardtable.tables.Table`
and the events from the game's ``redact``.  Splitting an action's canonical text into its
cards and targets only lets the page highlight what a click can lead to.

>>> tokens_of("capture 9S: 9H 9C [5D 4S] b1")
['9S', '9H', '9C', '5D', '4S', 'b1']
>>> tokens_of("LAYOFF 8C->M1")
['8C', 'M1']
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.cards import format_card
from cardtable.core.game import Event
from cardtable.server.i18n import Translator

__all__ = [
    "action_entry",
    "describe_event",
    "event_json",
    "pretty_text",
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
    return _CARD.sub(lambda m: f"{m.group(1)}{_SYMBOL[m.group(2)]}{m.group(3)}", text)


def action_entry(text: str, hand: Sequence[str], tr: Translator) -> dict[str, Any]:
    """One legal action for the page: its text, a localized label, hand cards and targets."""
    tokens = tokens_of(text)
    in_hand = set(hand)
    verb, _, rest = text.partition(" ")
    label = tr.gettext(f"action:{verb.lower()}")
    if label == f"action:{verb.lower()}":
        label = verb
    return {
        "text": text,
        "label": (label + " " + pretty_text(rest)).strip(),
        "cards": [t for t in tokens if t in in_hand],
        "targets": [t for t in tokens if t not in in_hand],
    }


def to_json_value(value: Any) -> Any:
    """Plain JSON for event fields (nested dataclasses such as score items become objects)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: to_json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
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


def _card(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return pretty_text(format_card(value))
    return "??"


def _cards(values: object) -> str:
    if isinstance(values, tuple | list):
        return " ".join(_card(v) for v in values)
    return _card(values)


def event_json(event: Event) -> dict[str, Any]:
    """An event as JSON with cards in notation (hidden cards are ``null``)."""
    out: dict[str, Any] = {"kind": event.kind}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if f.name in ("card", "cards", "loose", "taken", "table", "hands"):
            out[f.name] = _notate(value)
        else:
            out[f.name] = to_json_value(value)
    return out


def _notate(value: object) -> Any:
    if isinstance(value, tuple | list):
        return [_notate(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 52:
        return format_card(value)
    return None if value is None else to_json_value(value)


_SEAT_REF = re.compile(r"\bP(\d)\b")


def describe_event(event: Event, names: Sequence[str], tr: Translator) -> str:
    """A localized log line for every game's events (an unknown kind falls back to the
    event's own English ``describe``, with seat numbers replaced by names)."""
    f = {fld.name: getattr(event, fld.name) for fld in dataclasses.fields(event)}

    def who() -> str:
        seat = f.get("seat")
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    module = type(event).__module__
    try:
        if ".rummy." in module:
            text = _describe_rummy(event.kind, f, who, names, tr)
        elif ".royal_mastheads." in module:
            text = _describe_mastheads(event.kind, f, who, names, tr)
        else:
            text = _describe_known(event.kind, f, who, names, tr)
    except (KeyError, TypeError, IndexError):
        text = None
    if text is not None:
        return text
    text = pretty_text(event.describe())
    return _SEAT_REF.sub(
        lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), text
    )


def _describe_known(
    kind: str, f: dict[str, Any], who: Callable[[], str], names: Sequence[str], tr: Translator
) -> str | None:
    """Royal Casino's events, localized (``None`` for any other kind)."""
    if kind == "trailed":
        return tr.fmt("{name} trailed {card}", name=who(), card=_card(f["card"]))
    if kind == "captured":
        taken = [_cards(f["loose"])] if f["loose"] else []
        taken += [f"b{b}" for b in f["builds"]]
        text = tr.fmt(
            "{name} took {cards} with {card}",
            name=who(),
            cards=" ".join(taken),
            card=_card(f["card"]),
        )
        return text + (" — " + tr.gettext("sweep") if f["sweep"] else "")
    if kind == "built":
        return tr.fmt(
            "{name} built {value} with {card} on {cards}",
            name=who(),
            value=f["value"],
            card=_card(f["card"]),
            cards=_cards(f["loose"]),
        )
    if kind == "added":
        return tr.fmt(
            "{name} added {card} to b{build}", name=who(), card=_card(f["card"]), build=f["build"]
        )
    if kind == "raised":
        return tr.fmt(
            "{name} raised b{build} to {value} with {card}",
            name=who(),
            build=f["build"],
            value=f["new_value"],
            card=_card(f["card"]),
        )
    if kind == "leftovers":
        return tr.fmt("{name} takes the leftovers {cards}", name=who(), cards=_cards(f["cards"]))
    if kind == "dealt":
        count = len(f["hands"][0]) if f["hands"] else 0
        return tr.nfmt(
            "Deal {deal}: {num} card each",
            "Deal {deal}: {num} cards each",
            count,
            deal=f["deal_no"],
        )
    if kind == "hand_scored":
        return tr.fmt("Hand {hand} scored", hand=f["hand_no"])
    if kind == "game_over":
        return tr.fmt("Game over: {scores}", scores=" : ".join(str(s) for s in f["scores"]))
    return None


def _name(names: Sequence[str], seat: object) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _text_card(token: object) -> str:
    """A card that an event already holds in notation (Rummy's ``7H'``, ``JK``, ``??``)."""
    return pretty_text(str(token)) if token else "??"


def _scores(values: Sequence[int]) -> str:
    return " : ".join(str(v) for v in values)


def _describe_rummy(
    kind: str, f: dict[str, Any], who: Callable[[], str], names: Sequence[str], tr: Translator
) -> str | None:
    """Rummy's events, localized (``None`` for any other kind)."""
    if kind == "round_dealt":
        return tr.nfmt(
            "Round {round}: {num} card each, upcard {card}",
            "Round {round}: {num} cards each, upcard {card}",
            f["hand_size"],
            round=f["round"],
            card=_text_card(f["upcard"]),
        )
    if kind == "stock_turned_over":
        return tr.fmt("The discard pile is turned over into the stock")
    if kind == "drew_stock":
        if f["card"]:
            return tr.fmt("{name} drew {card}", name=who(), card=_text_card(f["card"]))
        return tr.fmt("{name} drew from the stock", name=who())
    if kind == "took_discard":
        return tr.fmt(
            "{name} took {card} from the discard pile", name=who(), card=_text_card(f["chosen"])
        )
    if kind == "melded":
        cards = " ".join(_text_card(c) for c in f["cards"])
        return tr.fmt("{name} melded {cards}", name=who(), cards=cards)
    if kind == "laid_off":
        return tr.fmt(
            "{name} laid {card} off onto M{meld}",
            name=who(),
            card=_text_card(f["card"]),
            meld=f["meld"],
        )
    if kind == "swapped_joker":
        return tr.fmt(
            "{name} swapped {card} for the joker in M{meld}",
            name=who(),
            card=_text_card(f["card"]),
            meld=f["meld"],
        )
    if kind == "discarded":
        return tr.fmt("{name} discarded {card}", name=who(), card=_text_card(f["card"]))
    if kind == "round_ended":
        closer = f["closer"]
        if isinstance(closer, int) and closer >= 0:
            return tr.fmt(
                "Round {round}: {name} went out", round=f["round"], name=_name(names, closer)
            )
        return tr.fmt("Round {round} is blocked", round=f["round"])
    if kind == "game_ended":
        return tr.fmt("Game over: {scores}", scores=_scores(f["totals"]))
    return None


def _describe_mastheads(
    kind: str, f: dict[str, Any], who: Callable[[], str], names: Sequence[str], tr: Translator
) -> str | None:
    """Royal Mastheads' events, localized (``None`` for any other kind)."""
    if kind == "dealt":
        count = next((len(h) for h in f["hands"] if h is not None), 13)
        return tr.nfmt(
            "Deal {deal}: {num} card each",
            "Deal {deal}: {num} cards each",
            count,
            deal=f["deal"],
        )
    if kind == "card_turned":
        return tr.fmt("Turned card {card}: its suit is trumps", card=_card(f["card"]))
    if kind == "pot_card_chosen":
        return tr.fmt("{name} put a card into the pot", name=who())
    if kind == "card_played":
        return tr.fmt("{name} played {card}", name=who(), card=_card(f["card"]))
    if kind == "trick_won":
        return tr.fmt("{name} won trick {number}", name=who(), number=f["number"])
    if kind == "pot_awarded":
        if f["seat"] is None:
            return tr.fmt("Nobody takes the pot (a tie for most tricks)")
        return tr.fmt("{name} takes the pot", name=who())
    if kind == "deal_scored":
        return tr.fmt("Deal {deal} scored: {scores}", deal=f["deal"], scores=_scores(f["scores"]))
    if kind == "set_over":
        return tr.fmt("Game over: {scores}", scores=_scores(f["totals"]))
    return None
