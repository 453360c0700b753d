"""How Royal Casino presents itself: each event as a message, each option's label and help,
and the hand's score breakdown as rows.  The message ids are in ``locale/*/messages.po``.

>>> from cardtable.games.royal_casino.events import Trailed
>>> m = describe_event(Trailed(1, "10D"))
>>> m.id, m.params["card"]
('{name} trailed {card}', CardRef(card='10D'))
"""

from __future__ import annotations

import re

from cardtable.core.game import Event, Outcome
from cardtable.core.options import OptionSpec
from cardtable.core.present import (
    CardRef,
    CardsRef,
    Message,
    OptionText,
    Param,
    ScoreRow,
    ScoreTable,
    SeatRef,
)
from cardtable.games.royal_casino import events as ev
from cardtable.games.royal_casino.events import mask_texts
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = ["describe_action", "describe_event", "describe_outcome", "option_text", "score_table"]


def describe_event(event: Event) -> Message | None:
    """A Royal Casino event as a message (``None`` for an event of another game)."""
    if isinstance(event, ev.Dealt):
        count = len(event.hands[0]) if event.hands else 0
        return Message(
            "Deal {deal}: {num} card each",
            {"deal": event.deal_no, "num": count},
            plural="Deal {deal}: {num} cards each",
        )
    if isinstance(event, ev.Trailed):
        return Message(
            "{name} trailed {card}", {"name": SeatRef(event.seat), "card": CardRef(event.card)}
        )
    if isinstance(event, ev.Captured):
        # Every card taken but the one that took them: loose cards and builds alike, by
        # their cards (build numbers change while a hand goes on and mean nothing to a
        # player reading the log).
        taken = list(event.taken)
        if event.card in taken:
            taken.remove(event.card)
        msgid = (
            "{name} took {cards} with {card} — sweep"
            if event.sweep
            else "{name} took {cards} with {card}"
        )
        return Message(
            msgid,
            {
                "name": SeatRef(event.seat),
                "cards": CardsRef(tuple(taken)),
                "card": CardRef(event.card),
            },
        )
    if isinstance(event, ev.Built):
        return Message(
            "{name} built {value} with {card} on {cards}",
            {
                "name": SeatRef(event.seat),
                "value": event.value,
                "card": CardRef(event.card),
                "cards": CardsRef(event.loose),
            },
        )
    if isinstance(event, ev.Added):
        params: dict[str, Param] = {
            "name": SeatRef(event.seat),
            "card": CardRef(event.card),
            "owner": SeatRef(event.previous_owner),
            "value": event.value,
        }
        if event.loose:
            params["cards"] = CardsRef(event.loose)
            return Message("{name} added {card} and {cards} to {owner}'s {value}-build", params)
        return Message("{name} added {card} to {owner}'s {value}-build", params)
    if isinstance(event, ev.Raised):
        return Message(
            "{name} raised {owner}'s {old}-build to {value} with {card}",
            {
                "name": SeatRef(event.seat),
                "owner": SeatRef(event.previous_owner),
                "old": event.old_value,
                "value": event.new_value,
                "card": CardRef(event.card),
            },
        )
    if isinstance(event, ev.Leftovers):
        return Message(
            "{name} takes the leftovers {cards}",
            {"name": SeatRef(event.seat), "cards": CardsRef(event.cards)},
        )
    if isinstance(event, ev.HandScored):
        return Message("Hand {hand} scored", {"hand": event.hand_no})
    if isinstance(event, ev.GameOver):
        return Message("Game over: {scores}", {"scores": " : ".join(map(str, event.scores))})
    return None


_ITEM = re.compile(r"\[[^\]]*\]|b\d+|\S+")


def _items(text: str, view: RoyalCasinoView | None) -> tuple[str, ...]:
    """The cards, groups (``[5D 4S]``) and builds (``b1``) of a move's list, each a token of
    cards: a group or a build as its cards joined by ``+`` (``5D+4S``)."""
    out: list[str] = []
    for item in _ITEM.findall(text):
        if item.startswith("["):
            out.append("+".join(item[1:-1].split()))
        elif item[0] == "b" and item[1:].isdigit():
            out.append("+".join(c or "??" for c in _build_cards(view, int(item[1:]))))
        elif item != "+":
            out.append(item)
    return tuple(out)


def _build_cards(view: RoyalCasinoView | None, number: int) -> tuple[str | None, ...]:
    """The cards of build ``b<number>`` of the view, highest first (a hidden card when the
    view has no such build)."""
    if view is None or not 1 <= number <= len(view.builds):
        return (None,)
    return tuple(reversed(mask_texts(view.builds[number - 1].mask)))


_MOVE = re.compile(
    r"(?P<verb>trail|capture|build|add|raise) (?P<card>\S+)"
    r"(?: -> (?:(?P<value>\d+) \((?P<kind>single|multi)\)|b(?P<build>\d+)(?:=(?P<new>\d+))?))?"
    r"(?:: (?P<list>.*)| \+ (?P<more>.*))?"
)


def describe_action(text: str, view: RoyalCasinoView | None) -> Message | None:
    """A move (its canonical text) in words, builds named by their cards: ``build 8C -> 14
    (single): 6C`` is "Build 14 from 8♣ and 6♣".  ``None`` for a text that is not a move.

    >>> m = describe_action("build 8C -> 14 (single): 6C", None)
    >>> m.id if m else None
    'Build {value} from {card} and {cards}'
    """
    found = _MOVE.fullmatch(text)
    if found is None:
        return None
    verb = found["verb"]
    card = CardRef(found["card"])
    listed = _items(found["list"] or found["more"] or "", view)
    if verb == "trail":
        return Message("Trail {card}", {"card": card})
    if verb == "capture":
        return Message("Take {cards} with {card}", {"cards": CardsRef(listed), "card": card})
    if verb == "build":
        msgid = (
            "Build a multiple {value} from {card} and {cards}"
            if found["kind"] == "multi"
            else "Build {value} from {card} and {cards}"
        )
        return Message(
            msgid, {"value": int(found["value"]), "card": card, "cards": CardsRef(listed)}
        )
    build = CardsRef(_build_cards(view, int(found["build"] or 0)))
    if verb == "add":
        if listed:
            return Message(
                "Add {card} and {cards} to the build {build}",
                {"card": card, "cards": CardsRef(listed), "build": build},
            )
        return Message("Add {card} to the build {build}", {"card": card, "build": build})
    params: dict[str, Param] = {"build": build, "value": int(found["new"] or 0), "card": card}
    if listed:
        params["cards"] = CardsRef(listed)
        return Message("Raise the build {build} to {value} with {card} and take {cards}", params)
    return Message("Raise the build {build} to {value} with {card}", params)


def option_text(spec: OptionSpec) -> OptionText:
    """An option's label, help and choice labels (ids ``casino.opt.<name>…``)."""
    return OptionText.by_ids("casino", spec.name, spec.choices)


_ITEMS = (
    "cards",
    "spades",
    "most_cards",
    "most_spades",
    "big_casino",
    "little_casino",
    "aces",
    "swept",
    "sweeps",
)


def score_table(event: Event) -> ScoreTable | None:
    """The hand's points per side, item by item (C9.1), and the match scores after it."""
    if not isinstance(event, ev.HandScored):
        return None
    rows = [
        ScoreRow(Message("bd:" + item), tuple(getattr(h, item) for h in event.items))
        for item in _ITEMS
    ]
    rows.append(ScoreRow(Message("bd:total"), event.points, total=True))
    rows.append(ScoreRow(Message("bd:score"), event.scores, total=True))
    return ScoreTable(Message("Hand {hand}", {"hand": event.hand_no}), tuple(rows))


_DETAILS = {"one hand": "a single hand", "match to 21": "a match to 21 points"}


def describe_outcome(outcome: Outcome) -> Message | None:
    """What was played (the engine's ``"one hand"`` or ``"match to 21"``, kept as it is in
    every record) as a message.

    >>> describe_outcome(Outcome(((0,), (1,)), (21, 19), (0,), "match to 21"))
    Message(id='a match to 21 points', params={}, plural=None)
    >>> describe_outcome(Outcome(((0,), (1,)), (3, 5), (1,), "??")) is None
    True
    """
    text = _DETAILS.get(outcome.detail)
    return None if text is None else Message(text)
