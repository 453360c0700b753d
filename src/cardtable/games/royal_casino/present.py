"""How Royal Casino presents itself: each event as a message, each option's label and help,
and the hand's score breakdown as rows.  The message ids are in ``locale/*/messages.po``.

>>> from cardtable.games.royal_casino.events import Trailed
>>> m = describe_event(Trailed(1, "10D"))
>>> m.id, m.params["card"]
('{name} trailed {card}', CardRef(card='10D'))
"""

from __future__ import annotations

from cardtable.core.game import Event, Outcome
from cardtable.core.options import OptionSpec
from cardtable.core.present import (
    CardRef,
    CardsRef,
    Message,
    OptionText,
    ScoreRow,
    ScoreTable,
    SeatRef,
)
from cardtable.games.royal_casino import events as ev
from cardtable.games.royal_casino.events import capture_value

__all__ = ["describe_event", "describe_outcome", "option_text", "score_table"]


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
        # A captured build is named by its value in brackets, as the move notation writes a
        # build ("[7H 2H]"): build numbers change while a hand goes on, the value does not
        # (every build a card captures has that card's capture value, C5.2).
        value = capture_value(event.card)
        taken = CardsRef((*event.loose, *(f"[{value}]" for _ in event.builds)))
        msgid = (
            "{name} took {cards} with {card} — sweep"
            if event.sweep
            else "{name} took {cards} with {card}"
        )
        return Message(
            msgid, {"name": SeatRef(event.seat), "cards": taken, "card": CardRef(event.card)}
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
        return Message(
            "{name} added {card} to {owner}'s {value}-build",
            {
                "name": SeatRef(event.seat),
                "card": CardRef(event.card),
                "owner": SeatRef(event.previous_owner),
                "value": event.value,
            },
        )
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
