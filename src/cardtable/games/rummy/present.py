"""How Rummy presents itself: each event as a message, each option's label and help, and
the round's score breakdown as rows.  The message ids are in ``locale/*/messages.po``.

>>> from cardtable.games.rummy.events import Discarded
>>> m = describe_event(Discarded(0, "7H'"))
>>> m.id, m.params["card"]
('{name} discarded {card}', CardRef(card="7H'"))
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
    ScoreRow,
    ScoreTable,
    SeatRef,
)
from cardtable.games.rummy import events as ev
from cardtable.games.rummy.scoring import CLOSER_BONUS, PENALTY
from cardtable.games.rummy.state import parse_phys
from cardtable.games.rummy.view import RummyView

__all__ = ["describe_action", "describe_event", "describe_outcome", "option_text", "score_table"]


def describe_event(event: Event) -> Message | None:
    """A Rummy event as a message (``None`` for an event of another game)."""
    if isinstance(event, ev.RoundDealt):
        return Message(
            "Round {round}: {num} card each, upcard {card}",
            {"round": event.round, "num": event.hand_size, "card": CardRef(event.upcard)},
            plural="Round {round}: {num} cards each, upcard {card}",
        )
    if isinstance(event, ev.StockTurnedOver):
        return Message("The discard pile is turned over into the stock")
    if isinstance(event, ev.DrewStock):
        if event.card:
            return Message(
                "{name} drew {card}", {"name": SeatRef(event.seat), "card": CardRef(event.card)}
            )
        return Message("{name} drew from the stock", {"name": SeatRef(event.seat)})
    if isinstance(event, ev.TookDiscard):
        return Message(
            "{name} took {card} from the discard pile",
            {"name": SeatRef(event.seat), "card": CardRef(event.chosen)},
        )
    if isinstance(event, ev.Melded):
        return Message(
            "{name} melded {cards}", {"name": SeatRef(event.seat), "cards": CardsRef(event.cards)}
        )
    if isinstance(event, ev.LaidOff):
        return Message(
            "{name} laid off {card}", {"name": SeatRef(event.seat), "card": CardRef(event.card)}
        )
    if isinstance(event, ev.SwappedJoker):
        return Message(
            "{name} took a joker from a meld for {card}",
            {"name": SeatRef(event.seat), "card": CardRef(event.card)},
        )
    if isinstance(event, ev.Discarded):
        return Message(
            "{name} discarded {card}", {"name": SeatRef(event.seat), "card": CardRef(event.card)}
        )
    if isinstance(event, ev.RoundEnded):
        if event.closer >= 0:
            return Message(
                "Round {round}: {name} went out",
                {"round": event.round, "name": SeatRef(event.closer)},
            )
        return Message("Round {round} is blocked", {"round": event.round})
    if isinstance(event, ev.GameEnded):
        return Message("Game over: {scores}", {"scores": " : ".join(map(str, event.totals))})
    return None


_LAYOFF = re.compile(r"LAYOFF (\S+)->M(\d+)(?: as (\S+))?")
_SWAP = re.compile(r"SWAP (\S+)<->(\S+) in M(\d+)")


def _meld(view: RummyView | None, number: int) -> CardsRef:
    """Meld ``M<number>`` of the view as its cards (a hidden card when there is none)."""
    if view is not None:
        for meld in view.melds:
            if meld.number == number:
                return CardsRef(meld.cards)
    return CardsRef((None,))


def _taken(view: RummyView | None, depth: int) -> CardsRef:
    """The discard-pile cards ``TAKE@<depth>`` takes: the card that deep, and the cards
    above it when the table takes them along (R11)."""
    pile = view.discard if view is not None else ()
    if depth >= len(pile):
        return CardsRef((None,))
    if view is not None and "anyWithAbove" in view.options:
        return CardsRef(pile[len(pile) - 1 - depth :])
    return CardsRef((pile[len(pile) - 1 - depth],))


def describe_action(text: str, view: RummyView | None) -> Message | None:
    """An action (its canonical text) in words, melds named by their cards: ``LAYOFF
    8C->M1`` is "Lay off 8♣ on 5♣ 6♣ 7♣".  ``None`` for a text that is not an action.

    >>> describe_action("MELD 5H JK=6H 7H", None)
    Message(id='Meld {cards}', params={'cards': CardsRef(cards=('5H', 'JK=6H', '7H'))}, plural=None)
    """
    verb, _, rest = text.partition(" ")
    if verb == "DRAW_STOCK":
        return Message("Draw from the stock")
    if verb == "TAKE_DISCARD" or verb.startswith("TAKE@"):
        depth = int(verb[5:]) if verb[5:].isdigit() else 0
        return Message("Take {cards} from the discard pile", {"cards": _taken(view, depth)})
    if verb == "MELD":
        return Message("Meld {cards}", {"cards": CardsRef(tuple(rest.split()))})
    if verb == "DISCARD":
        return Message("Discard {card}", {"card": CardRef(rest)})
    found = _LAYOFF.fullmatch(text)
    if found is not None:
        meld = _meld(view, int(found[2]))
        if found[3]:
            return Message(
                "Lay off {card} as {meaning} on {meld}",
                {"card": CardRef(found[1]), "meaning": CardRef(found[3]), "meld": meld},
            )
        return Message("Lay off {card} on {meld}", {"card": CardRef(found[1]), "meld": meld})
    found = _SWAP.fullmatch(text)
    if found is not None:
        return Message(
            "Swap {card} for the joker in {meld}",
            {"card": CardRef(found[1]), "meld": _meld(view, int(found[3]))},
        )
    return None


_PRESETS = {"gameMode": ("single", "rounds", "limit")}
"""The values a form offers for a free-text option (``rounds(k)`` and ``limit(L)`` stay
available to the CLI and the API)."""


def option_text(spec: OptionSpec) -> OptionText:
    """An option's label, help and choice labels (ids ``rummy.opt.<name>…``); the game
    length's common values are labelled too, for a form to offer."""
    return OptionText.by_ids("rummy", spec.name, spec.choices or _PRESETS.get(spec.name, ()))


def _with_penalties(hand: str) -> str:
    """The cards left in a hand, each with its penalty (R9.2): ``QS 40, 7D 5``."""
    return ", ".join(f"{card} {PENALTY[parse_phys(card)]}" for card in hand.split()) or "—"


def score_table(event: Event) -> ScoreTable | None:
    """The round's cards left with their penalties, the closer's +25, the doubling, the
    round scores and the running totals per seat (R9, R10)."""
    if not isinstance(event, ev.RoundEnded):
        return None
    seats = range(len(event.scores))
    rows = [
        ScoreRow(Message("rummy.bd.hand"), tuple(_with_penalties(h) for h in event.hands)),
        ScoreRow(Message("rummy.bd.penalties"), event.penalties),
        ScoreRow(
            Message("rummy.bd.going_out"),
            tuple(f"+{CLOSER_BONUS}" if s == event.closer else "—" for s in seats),
        ),
    ]
    if event.doubled:
        rows.append(
            ScoreRow(
                Message("rummy.bd.doubled"),
                tuple("—" if s == event.closer else "×2" for s in seats),
            )
        )
    rows.append(ScoreRow(Message("rummy.bd.scores"), event.scores, total=True))
    rows.append(ScoreRow(Message("rummy.bd.totals"), event.totals, total=True))
    title = "Round {round} (doubled)" if event.doubled else "Round {round}"
    return ScoreTable(Message(title, {"round": event.round}), tuple(rows))


_WENT_OUT = re.compile(r"last round: P(\d+) went out")


def describe_outcome(outcome: Outcome) -> Message | None:
    """How the last round ended (the engine's ``"last round: P2 went out"`` or ``"last
    round: blocked"``, kept as it is in every record) as a message naming the seat.

    >>> describe_outcome(Outcome(((0,), (1,)), (-25, 25), (1,), "last round: P2 went out"))
    Message(id='last round: {name} went out', params={'name': SeatRef(seat=1)}, plural=None)
    >>> describe_outcome(Outcome(((0,), (1,)), (0, 0), (0,), "last round: blocked"))
    Message(id='last round blocked', params={}, plural=None)
    """
    if outcome.detail == "last round: blocked":
        return Message("last round blocked")
    found = _WENT_OUT.fullmatch(outcome.detail)
    if found is None:
        return None
    return Message("last round: {name} went out", {"name": SeatRef(int(found.group(1)) - 1)})
