"""How Royal Mastheads presents itself: each event as a message, each option's label and
help, and the deal's score breakdown as rows.  The message ids are in
``locale/*/messages.po``.

>>> from cardtable.games.royal_mastheads.events import CardPlayed
>>> m = describe_event(CardPlayed(3, "KC"))
>>> m.id, m.params["name"], m.params["card"]
('{name} played {card}', SeatRef(seat=3), CardRef(card='KC'))
"""

from __future__ import annotations

import re

from cardtable.core.game import Event, Outcome
from cardtable.core.options import OptionSpec
from cardtable.core.present import CardRef, Message, OptionText, ScoreRow, ScoreTable, SeatRef
from cardtable.games.royal_mastheads import events as ev

__all__ = ["describe_action", "describe_event", "describe_outcome", "option_text", "score_table"]


def _scores(values: tuple[int, ...]) -> str:
    return " : ".join(str(v) for v in values)


def describe_event(event: Event) -> Message | None:
    """A Royal Mastheads event as a message (``None`` for an event of another game)."""
    if isinstance(event, ev.Dealt):
        count = next((len(h) for h in event.hands if h is not None), 13)
        return Message(
            "Deal {deal}: {num} card each",
            {"deal": event.deal, "num": count},
            plural="Deal {deal}: {num} cards each",
        )
    if isinstance(event, ev.CardTurned):
        return Message("Turned card {card}: its suit is trumps", {"card": CardRef(event.card)})
    if isinstance(event, ev.PotCardChosen):
        return Message("{name} put a card into the pot", {"name": SeatRef(event.seat)})
    if isinstance(event, ev.CardPlayed):
        return Message(
            "{name} played {card}", {"name": SeatRef(event.seat), "card": CardRef(event.card)}
        )
    if isinstance(event, ev.TrickWon):
        return Message(
            "{name} won trick {number}", {"name": SeatRef(event.seat), "number": event.number}
        )
    if isinstance(event, ev.PotAwarded):
        if event.seat is None:
            return Message("Nobody takes the pot (a tie for most tricks)")
        return Message("{name} takes the pot", {"name": SeatRef(event.seat)})
    if isinstance(event, ev.DealScored):
        return Message(
            "Deal {deal} scored: {scores}", {"deal": event.deal, "scores": _scores(event.scores)}
        )
    if isinstance(event, ev.SetOver):
        return Message("Game over: {scores}", {"scores": _scores(event.totals)})
    return None


_DETAIL = re.compile(r"(\d+) deal\(s\)(, co-winners)?")


def describe_outcome(outcome: Outcome) -> Message | None:
    """The outcome's detail (``"3 deal(s)"``, ``"1 deal(s), co-winners"``: the engine's
    text, kept as it is in every record) as a message with its plural by the count.

    >>> describe_outcome(Outcome(((0,), (1,), (2,), (3,)), (1, 2, 3, 4), (3,), "3 deal(s)"))
    Message(id='{num} deal', params={'num': 3}, plural='{num} deals')
    >>> describe_outcome(Outcome(((0,),), (0,), (0,), "??")) is None
    True
    """
    found = _DETAIL.fullmatch(outcome.detail)
    if found is None:
        return None
    num = int(found.group(1))
    if found.group(2):
        return Message("{num} deal, co-winners", {"num": num}, plural="{num} deals, co-winners")
    return Message("{num} deal", {"num": num}, plural="{num} deals")


def describe_action(text: str, view: object) -> Message | None:
    """A move (``pot 2C``, ``play KS``) in words; ``None`` for a text that is not one.

    >>> describe_action("pot 2C", None)
    Message(id='Put {card} into the pot', params={'card': CardRef(card='2C')}, plural=None)
    """
    verb, _, card = text.partition(" ")
    if verb == "pot" and card:
        return Message("Put {card} into the pot", {"card": CardRef(card)})
    if verb == "play" and card:
        return Message("Play {card}", {"card": CardRef(card)})
    return None


def option_text(spec: OptionSpec) -> OptionText:
    """An option's label, help and choice labels (ids ``mastheads.opt.<name>…``)."""
    return OptionText.by_ids("mastheads", spec.name, spec.choices)


def _points_by_seat(event: ev.DealScored) -> list[list[tuple[str, int]]]:
    """Each seat's captured cards with their points, in capture order."""
    out: list[list[tuple[str, int]]] = []
    start = 0
    for cards in event.captured:
        points = event.capture_points[start : start + len(cards)]
        out.append(list(zip(cards, points, strict=True)))
        start += len(cards)
    return out


def _pot_points(event: ev.DealScored, items: list[tuple[str, int]], seat: int) -> int | str:
    """The card points the pot brought ``seat`` (its cards are the last captured, M-12)."""
    if event.pot_seat != seat:
        return "—"
    pot_size = 52 - 4 * sum(event.tricks)
    return sum(points for _, points in items[len(items) - pot_size :])


def score_table(event: Event) -> ScoreTable | None:
    """The deal's points per seat, item by item (M-8, M-12 … M-16): tricks, each captured
    card's points in capture order, what the pot brought, the bonuses, the doubled cards,
    and the set totals."""
    if not isinstance(event, ev.DealScored):
        return None
    by_seat = _points_by_seat(event)
    rows = (
        ScoreRow(Message("mastheads.bd.tricks"), event.tricks),
        ScoreRow(Message("mastheads.bd.card_points"), event.card_points),
        ScoreRow(
            Message("mastheads.bd.capture_order"),
            tuple(", ".join(f"{c} {p:+d}" for c, p in items) or "—" for items in by_seat),
        ),
        ScoreRow(
            Message("mastheads.bd.pot"),
            tuple(_pot_points(event, items, s) for s, items in enumerate(by_seat)),
        ),
        ScoreRow(
            Message("mastheads.bd.doubled"),
            tuple(" ".join(cards) or "—" for cards in event.doubled),
        ),
        ScoreRow(Message("mastheads.bd.count_bonus"), event.count_bonus),
        ScoreRow(Message("mastheads.bd.tricks_bonus"), event.tricks_bonus),
        ScoreRow(Message("mastheads.bd.royals_bonus"), event.royals_bonus),
        ScoreRow(Message("mastheads.bd.trumps_bonus"), event.trumps_bonus),
        ScoreRow(Message("mastheads.bd.scores"), event.scores, total=True),
        ScoreRow(Message("mastheads.bd.totals"), event.totals, total=True),
    )
    return ScoreTable(Message("Deal {deal}", {"deal": event.deal}), rows)
