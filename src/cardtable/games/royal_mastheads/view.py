"""What one seat may know in Royal Mastheads, and how hidden information is redacted.

A seat sees its own hand and its own two pot cards, the turned card (trumps and masthead
rank), the current trick, every completed trick face up (who led, who won, the cards in the
order played: tricks are public once taken), hand sizes, how many pot cards each seat has
chosen, and the scores.  It never sees another hand, nor another player's pot cards until
the deal is scored (then the whole pot is shown, M-7).  A spectator (seat ``None``) sees
no hand and no pot card.

Void-in-suit inference needs nothing extra: the completed tricks are in the view, so a
player (or bot) can tell who failed to follow which suit.

>>> from cardtable.games.royal_mastheads.rules import new_match
>>> from cardtable.games.royal_mastheads.state import OPTIONS
>>> s, _ = new_match(OPTIONS.defaults(), seed=3)
>>> v = view(s, 0)
>>> len(v.hand), v.pot, view(s, None).hand
(13, None, ())
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from cardtable.cards import CARDS, format_card
from cardtable.core.game import Event
from cardtable.core.seats import seat_name
from cardtable.games.royal_mastheads.events import Dealt, PotCardChosen
from cardtable.games.royal_mastheads.rules import cards_of
from cardtable.games.royal_mastheads.state import (
    BIT,
    RANK,
    SUIT,
    Phase,
    RoyalMastheadsState,
    Trick,
    pot_owner,
)

__all__ = ["RoyalMastheadsView", "redact", "render_view", "shuffle_hidden", "view", "view_to_json"]

_RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUIT_SYMBOL = "♠♥♦♣"
_SUIT_NAME = ("spades", "hearts", "diamonds", "clubs")


class RoyalMastheadsView(NamedTuple):
    """One seat's knowledge of a position (cards are ints ``0..51``)."""

    seat: int | None
    options: str
    """The non-default options as ``k:v`` words (``""``: all defaults)."""
    ruleset: str
    ace_high: bool
    ace_points: int
    double_trumps: bool
    deal: int
    deals: int
    """Deals in the set (1 when the game is a single deal, scope ``unit``)."""
    dealer: int
    phase: str
    """``pot``, ``play`` or ``over``."""
    to_act: int | None
    turned: int
    trumps: int
    masthead: int | None
    """The masthead rank, or ``None`` when the rules in force do not use it."""
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    own_pot: tuple[int, ...]
    pot_counts: tuple[int, ...]
    """How many pot cards each seat has chosen (public)."""
    pot: tuple[int, ...] | None
    """The whole pot once the deal is scored, else ``None``."""
    trick: tuple[int, ...]
    leader: int
    tricks: tuple[tuple[int, int, tuple[int, ...]], ...]
    """Completed tricks as (leader, winner, cards in the order played)."""
    tricks_won: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]


_PHASE_TEXT = ("pot", "play", "over")
"""``view.phase`` by :class:`Phase` value."""
_LAST_TRICKS: list[tuple[tuple[Trick, ...], tuple[tuple[int, int, tuple[int, ...]], ...]]] = []
"""The completed tricks last shown, and how (states share them until a trick ends)."""


def _tricks(tricks: tuple[Trick, ...]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    last = _LAST_TRICKS[0] if _LAST_TRICKS else None
    if last is not None and last[0] is tricks:
        return last[1]
    shown = tuple([(t.leader, t.winner, t.cards) for t in tricks])
    _LAST_TRICKS[:] = [(tricks, shown)]
    return shown


def view(state: RoyalMastheadsState, seat: int | None) -> RoyalMastheadsView:
    """What ``seat`` may know (``None``: a spectator)."""
    info = state.info
    cfg = info.cfg
    dealer = info.dealer
    pot = state.pot
    own_pot: tuple[int, ...] = ()
    counts = [0, 0, 0, 0]
    for i, c in enumerate(pot):
        owner = pot_owner(dealer, i)
        counts[owner] += 1
        if owner == seat:
            own_pot += (c,)
    won = [0, 0, 0, 0]
    for t in state.tricks:
        won[t.winner] += 1
    phase = state.phase
    over = phase is Phase.OVER
    hand = state.hands[seat] if seat is not None else 0
    if phase is Phase.PLAY:
        to_act: int | None = (state.leader + len(state.trick)) & 3
    elif phase is Phase.POT:
        to_act = (dealer + 1 + (len(pot) >> 1)) & 3
    else:
        to_act = None
    return tuple.__new__(
        RoyalMastheadsView,
        (
            seat,
            cfg.text,
            cfg.ruleset,
            cfg.ace_high,
            cfg.ace_points,
            cfg.double_trumps,
            info.number,
            cfg.deals if info.scope == "match" else 1,
            dealer,
            _PHASE_TEXT[phase],
            to_act,
            info.turned,
            info.trumps,
            info.masthead if cfg.uses_masthead else None,
            cards_of(hand),
            tuple([h.bit_count() for h in state.hands]),
            own_pot,
            tuple(counts),
            pot if over else None,
            state.trick,
            state.leader,
            _tricks(state.tricks),
            tuple(won),
            info.history,
            info.totals,
        ),
    )


def redact(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it: other players' pot cards and hands are hidden."""
    if isinstance(event, PotCardChosen):
        if event.seat != seat and event.card is not None:
            return PotCardChosen(event.seat, None)
        return event
    if isinstance(event, Dealt):
        hands = tuple(h if i == seat else None for i, h in enumerate(event.hands))
        return Dealt(event.deal, event.dealer, hands)
    return event


def _cards(cards: tuple[int, ...] | None) -> list[str] | None:
    return None if cards is None else [format_card(c) for c in cards]


def view_to_json(v: RoyalMastheadsView) -> dict[str, Any]:
    """A view as a JSON object; cards are written in canonical notation."""
    return {
        "seat": v.seat,
        "options": v.options,
        "ruleset": v.ruleset,
        "ace_high": v.ace_high,
        "ace_points": v.ace_points,
        "doubled": "trumps" if v.double_trumps else "masthead",
        "deal": v.deal,
        "deals": v.deals,
        "dealer": v.dealer,
        "phase": v.phase,
        "to_act": v.to_act,
        "turned": format_card(v.turned),
        "trumps": _SUIT_NAME[v.trumps],
        "masthead": None if v.masthead is None else _RANK_TEXT[v.masthead],
        "hand": _cards(v.hand),
        "hand_sizes": list(v.hand_sizes),
        "own_pot": _cards(v.own_pot),
        "pot_counts": list(v.pot_counts),
        "pot": _cards(v.pot),
        "trick": _cards(v.trick),
        "leader": v.leader,
        "tricks": [
            {"leader": lead, "winner": win, "cards": _cards(cards)} for lead, win, cards in v.tricks
        ],
        "tricks_won": list(v.tricks_won),
        "history": [list(row) for row in v.history],
        "totals": list(v.totals),
    }


def _pretty(card: int) -> str:
    return CARDS[card].pretty()


def _pretty_all(cards: tuple[int, ...]) -> str:
    return " ".join(_pretty(c) for c in cards) or "-"


def render_view(v: RoyalMastheadsView) -> str:
    """A view as terminal text: turned card, trumps, mastheads, the current trick, the own
    hand sorted by suit (high to low), tricks won and running scores."""
    seat_txt = "spectator" if v.seat is None else seat_name(v.seat)
    lines = [
        f"Royal Mastheads ({v.ruleset}{', ' + v.options if v.options else ''}) — "
        f"deal {v.deal} of {v.deals}, {seat_name(v.dealer)} deals — you are {seat_txt}",
    ]
    heads = "none" if v.masthead is None else f"{_RANK_TEXT[v.masthead]}s"
    lines.append(
        f"Turned {_pretty(v.turned)}: trumps {_SUIT_SYMBOL[v.trumps]} {_SUIT_NAME[v.trumps]}, "
        f"mastheads {heads}, aces {'high' if v.ace_high else 'low'} ({v.ace_points:+d})"
    )
    totals = "  ".join(f"{seat_name(i)}: {t}" for i, t in enumerate(v.totals))
    done = len(v.history)
    lines.append(f"Scores after {done} deal{'' if done == 1 else 's'}: {totals}")
    if v.phase == "pot":
        counts = "  ".join(f"{seat_name(i)}: {n}" for i, n in enumerate(v.pot_counts))
        lines.append(f"Choosing pot cards (cards chosen: {counts})")
    elif v.phase == "play":
        played = "  ".join(
            f"{seat_name((v.leader + i) % 4)}:{_pretty(c)}" for i, c in enumerate(v.trick)
        )
        lines.append(f"Trick {len(v.tricks) + 1}, {seat_name(v.leader)} leads: {played or '-'}")
    else:
        lines.append("The game is over.")
    if v.seat is not None:

        def key(c: int) -> int:
            r = RANK[c]
            return -(14 if r == 1 and v.ace_high else r)

        groups = []
        for s in range(4):
            cards = sorted((c for c in v.hand if SUIT[c] == s), key=key)
            if cards:
                groups.append(_SUIT_SYMBOL[s] + " " + " ".join(_RANK_TEXT[RANK[c]] for c in cards))
        lines.append(f"Your hand: {'   '.join(groups) or '-'}")
        lines.append(f"Your pot cards: {_pretty_all(v.own_pot)}")
    if v.pot is not None:
        lines.append(f"Pot: {_pretty_all(v.pot)}")
    for seat in range(4):
        won = [cards for _, w, cards in v.tricks if w == seat]
        shown = " | ".join(_pretty_all(cards) for cards in won)
        tricks = f"{len(won)} trick{'' if len(won) == 1 else 's'}"
        lines.append(f"{seat_name(seat)} won {tricks}{': ' + shown if shown else ''}")
    if v.to_act is not None:
        lines.append(f"{seat_name(v.to_act)} to act.")
    return "\n".join(lines)


def shuffle_hidden(
    state: RoyalMastheadsState, seat: int | None, rng: random.Random
) -> RoyalMastheadsState:
    """The state with every card hidden from ``seat`` (other hands; other players' pot
    cards until the deal is scored) moved at random among those places, sizes kept.

    The result may contradict a void shown in the tricks (it is for the no-leak test, not a
    consistent determinization)."""
    dealer = state.info.dealer
    hidden_pot = [
        i
        for i in range(len(state.pot))
        if state.phase is not Phase.OVER and pot_owner(dealer, i) != seat
    ]
    others = [s for s in range(4) if s != seat]
    cards = [c for s in others for c in range(52) if state.hands[s] >> c & 1]
    cards.extend(state.pot[i] for i in hidden_pot)
    rng.shuffle(cards)
    hands = list(state.hands)
    pos = 0
    for s in others:
        size = hands[s].bit_count()
        m = 0
        for c in cards[pos : pos + size]:
            m |= BIT[c]
        hands[s] = m
        pos += size
    pot = list(state.pot)
    for i in hidden_pot:
        pot[i] = cards[pos]
        pos += 1
    return RoyalMastheadsState(
        state.info,
        state.phase,
        (hands[0], hands[1], hands[2], hands[3]),
        tuple(pot),
        state.trick,
        state.leader,
        state.tricks,
    )
