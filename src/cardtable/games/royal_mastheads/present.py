"""How Royal Mastheads presents itself: each event as a message, each option's label and
help, and the deal's score breakdown as rows.  The message ids are in
``locale/*/messages.po``.

>>> from cardtable.games.royal_mastheads.events import CardPlayed
>>> m = describe_event(CardPlayed(3, "KC"))
>>> m.id, m.params["name"], m.params["card"]
('{name} played {card}', SeatRef(seat=3), CardRef(card='KC'))
"""

from __future__ import annotations

from cardtable.core.game import Event
from cardtable.core.options import OptionSpec
from cardtable.core.present import CardRef, Message, OptionText, ScoreRow, ScoreTable, SeatRef
from cardtable.games.royal_mastheads import events as ev

__all__ = ["describe_event", "option_text", "score_table"]


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


def option_text(spec: OptionSpec) -> OptionText:
    """An option's label, help and choice labels (ids ``mastheads.opt.<name>…``)."""
    return OptionText.by_ids("mastheads", spec.name, spec.choices)


def score_table(event: Event) -> ScoreTable | None:
    """The deal's points per seat, item by item (M-12 … M-16), and the set totals."""
    if not isinstance(event, ev.DealScored):
        return None
    rows = (
        ScoreRow(Message("mastheads.bd.tricks"), event.tricks),
        ScoreRow(Message("mastheads.bd.card_points"), event.card_points),
        ScoreRow(Message("mastheads.bd.count_bonus"), event.count_bonus),
        ScoreRow(Message("mastheads.bd.tricks_bonus"), event.tricks_bonus),
        ScoreRow(Message("mastheads.bd.royals_bonus"), event.royals_bonus),
        ScoreRow(Message("mastheads.bd.trumps_bonus"), event.trumps_bonus),
        ScoreRow(Message("mastheads.bd.scores"), event.scores, total=True),
        ScoreRow(Message("mastheads.bd.totals"), event.totals, total=True),
    )
    return ScoreTable(Message("Deal {deal}", {"deal": event.deal}), rows)
