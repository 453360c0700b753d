"""What one seat may know in Royal Casino, and how events are redacted for it.

Hidden: the other players' hands, the stock and its order, and the seed.  Everything
else is public: the table, builds with owners, every side's captured cards (each was
face up on the table or played face up before it was captured, so a player with a
perfect memory knows them; the view spares people the memorising), sweeps and scores.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final, NamedTuple

from cardtable.cards import CARDS, iter_mask
from cardtable.core.game import Event, Scope
from cardtable.core.options import Options
from cardtable.core.seats import seat_name
from cardtable.games.royal_casino.events import Dealt
from cardtable.games.royal_casino.notation import human_cards
from cardtable.games.royal_casino.state import VAL, Build, Phase, RoyalCasinoState

__all__ = ["RoyalCasinoView", "redact", "render_view", "view", "view_to_json"]


class RoyalCasinoView(NamedTuple):
    """A seat's view (``seat`` is ``None`` for a spectator, whose ``hand`` is ``None``)."""

    seat: int | None
    players: int
    options: Options
    scope: Scope
    hand_no: int
    dealer: int
    turn: int
    over: bool
    hand: int | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    loose: int
    builds: tuple[Build, ...]
    piles: tuple[int, ...]
    sweeps: tuple[int, ...]
    last_capturer: int
    scores: tuple[int, ...]
    playoff: bool
    winners: tuple[int, ...]
    last_hand_points: tuple[int, ...]


def view(state: RoyalCasinoState, seat: int | None) -> RoyalCasinoView:
    """The view of ``seat``."""
    return tuple.__new__(
        RoyalCasinoView,
        (
            seat,
            state.players,
            state.options,
            state.scope,
            state.hand_no,
            state.dealer,
            state.turn,
            state.phase == Phase.OVER,
            None if seat is None else state.hands[seat],
            tuple(h.bit_count() for h in state.hands),
            len(state.stock),
            state.loose,
            state.builds,
            state.piles,
            state.sweeps,
            state.last_capturer,
            state.scores,
            state.playoff,
            state.winners,
            state.last_hand_points,
        ),
    )


def redact(event: Event, seat: int | None) -> Event:
    """Blank the cards dealt to other seats; every other event is public."""
    if isinstance(event, Dealt):
        hands = tuple(h if i == seat else tuple(None for _ in h) for i, h in enumerate(event.hands))
        return replace(event, hands=hands)
    return event


_JSON_ORDER: Final = tuple(sorted(range(52), key=lambda c: (-VAL[c], c // 13)))
"""The 52 cards in notation order (highest rank first, then by suit), as ``human_cards``."""
_JSON_TEXT: Final = tuple(human_cards(1 << c) for c in range(52))


def _cards_json(mask: int) -> list[str]:
    """The cards of ``mask`` in notation order, as ``human_cards(mask).split()`` without
    sorting per call (a view's JSON is built for every seat after every move)."""
    if not mask:
        return []
    return [_JSON_TEXT[c] for c in _JSON_ORDER if mask >> c & 1]


def view_to_json(view: RoyalCasinoView) -> dict[str, Any]:
    """A view as JSON: card lists in notation, builds with value, kind, owner, components."""
    return {
        "game": "royal-casino",
        "seat": view.seat,
        "players": view.players,
        "options": view.options.to_json(),
        "scope": view.scope,
        "hand_no": view.hand_no,
        "dealer": view.dealer,
        "turn": None if view.turn < 0 else view.turn,
        "over": view.over,
        "hand": None if view.hand is None else _cards_json(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size,
        "loose": _cards_json(view.loose),
        "builds": [
            {
                "id": f"b{i + 1}",
                "value": b.value,
                "multi": b.multi,
                "owner": b.owner,
                "components": [_cards_json(c) for c in b.comps],
            }
            for i, b in enumerate(view.builds)
        ],
        "piles": [_cards_json(p) for p in view.piles],
        "sweeps": list(view.sweeps),
        "last_capturer": None if view.last_capturer < 0 else view.last_capturer,
        "scores": list(view.scores),
        "playoff": view.playoff,
        "winners": list(view.winners),
        "last_hand_points": list(view.last_hand_points),
    }


def _pretty(mask: int) -> str:
    return " ".join(CARDS[c].pretty() for c in _ordered(mask)) or "—"


def _ordered(mask: int) -> list[int]:
    return sorted(iter_mask(mask), key=lambda c: (-VAL[c], c // 13))


def _count(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def render_view(view: RoyalCasinoView) -> str:
    """The view as terminal text."""
    n = view.players
    sides = 2 if n == 4 else n
    deals = {2: 6, 3: 4, 4: 3}[n]
    dealt = (52 - 4 - view.stock_size) // (4 * n)
    side_names = ["P1+P3", "P2+P4"] if n == 4 else [seat_name(i) for i in range(n)]
    lines = []
    status = "game over" if view.over else f"{seat_name(view.turn)} to play"
    playoff = " · play-off" if view.playoff else ""
    lines.append(
        f"Royal Casino — hand {view.hand_no}, deal {min(max(dealt, 1), deals)}/{deals}"
        f" · dealer {seat_name(view.dealer)} · {status}{playoff}"
    )
    lines.append("Scores: " + "  ".join(f"{side_names[i]} {view.scores[i]}" for i in range(sides)))
    lines.append(f"Table:  {_pretty(view.loose)}")
    for i, b in enumerate(view.builds):
        kind = "multiple" if b.multi else "single"
        comps = " | ".join(" ".join(CARDS[c].pretty() for c in _ordered(m)) for m in b.comps)
        lines.append(f"        b{i + 1}: {b.value} {kind}, owner {seat_name(b.owner)}: {comps}")
    caps = []
    for i in range(sides):
        pile = view.piles[i]
        spades = (pile & 0x1FFF).bit_count()
        caps.append(
            f"{side_names[i]} {_count(pile.bit_count(), 'card')}, {spades}♠, "
            f"{_count(view.sweeps[i], 'sweep')}"
        )
    lines.append("Captured: " + " · ".join(caps))
    others = [
        f"{seat_name(i)} {_count(view.hand_sizes[i], 'card')}" for i in range(n) if i != view.seat
    ]
    lines.append("Others: " + ", ".join(others) + f" · stock {view.stock_size}")
    if view.hand is not None and view.seat is not None:
        lines.append(f"Your hand ({seat_name(view.seat)}): {_pretty(view.hand)}")
    if view.over and view.last_hand_points:
        pts = "  ".join(f"{side_names[i]} {view.last_hand_points[i]}" for i in range(sides))
        lines.append(f"Last hand: {pts}")
        if view.winners:
            lines.append("Winner: " + ", ".join(side_names[w] for w in view.winners))
    return "\n".join(lines)
