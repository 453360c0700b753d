"""Royal Mastheads for learning environments: action ids and the observation layout.

**Actions** (104 ids): an action is already an int, and its id is itself: ``0..51`` plays
that card, ``52..103`` puts card ``id - 52`` into the pot.  One id per action, no
sequences.

**Observation** (:data:`LAYOUT`, 664 numbers in ``[-1, 1]``): seats are *relative* to
the observer (slot 0 is the observer, slot ``k`` the seat ``k`` places after it).  Cards
are 52 slots in index order (``suit * 13 + rank - 1``, suits S H D C).

>>> from cardtable.games.royal_mastheads import GAME
>>> s = GAME.new_game(4, seed=2, scope="unit")
>>> size = ENCODING.observe(GAME.view(s, 0)).pos
>>> size == ENCODING.observation_size(4) == sum(n for _, n in LAYOUT)
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from cardtable.cards import format_card
from cardtable.core.encoding import Features
from cardtable.games.royal_mastheads.state import POT_BASE, RoyalMastheadsAction
from cardtable.games.royal_mastheads.view import RoyalMastheadsView

__all__ = ["ENCODING", "LAYOUT", "RoyalMastheadsEncoding"]

LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand: own cards", 52),
    ("own_pot: own pot cards", 52),
    ("turned: the turned card", 52),
    ("trumps: trump suit", 4),
    ("masthead_used: the rules use the masthead rank", 1),
    ("rules: ace high, trumps double, aces score positive", 3),
    ("phase: pot, play, over", 3),
    ("trick: card played to the current trick, per relative seat", 4 * 52),
    ("leader: relative seat leading the current trick", 4),
    ("played: cards played in completed tricks, per relative seat", 4 * 52),
    ("tricks_won: per relative seat, /13", 4),
    ("pot_counts: pot cards chosen, per relative seat, /2", 4),
    ("hand_sizes: per relative seat, /13", 4),
    ("pot: the whole pot once the deal is scored", 52),
    ("dealer: relative seat", 4),
    ("to_act: relative seat", 4),
    ("deal: deal number / deals in the set", 1),
    ("totals: per relative seat, /1000 clipped to [-1, 1]", 4),
)
"""The observation's sections in order: (name and meaning, length)."""

_SIZE: Final[int] = sum(n for _, n in LAYOUT)
_PHASES: Final[dict[str, int]] = {"pot": 0, "play": 1, "over": 2}


@lru_cache(maxsize=4096)
def _played(tricks: tuple[tuple[int, int, tuple[int, ...]], ...], me: int) -> tuple[int, ...]:
    """The offsets of the completed tricks' cards in their section (relative seat * 52 +
    card), memoised: they change once a trick and are read at every step."""
    return tuple(
        ((leader + i - me) % 4) * 52 + c
        for leader, _winner, cards in tricks
        for i, c in enumerate(cards)
    )


def _mask(cards: tuple[int, ...] | None) -> int:
    m = 0
    for c in cards or ():
        m |= 1 << c
    return m


class RoyalMastheadsEncoding:
    """The research encoding of Royal Mastheads (see the module doc)."""

    num_distinct_actions = 2 * POT_BASE
    """104: play a card (0-51) or put one into the pot (52-103)."""

    def __reduce__(self) -> str:
        # Pickled as the module's one instance.
        return "ENCODING"

    def action_ids(self, view: RoyalMastheadsView, action: RoyalMastheadsAction) -> tuple[int]:
        """The one id of an action: the action itself."""
        return (action,)

    def id_text(self, action_id: int) -> str:
        """``play 7H`` or ``pot 7H``."""
        if action_id < POT_BASE:
            return f"play {format_card(action_id)}"
        return f"pot {format_card(action_id - POT_BASE)}"

    def observation_size(self, players: int) -> int:
        """664 numbers (always four seats)."""
        return _SIZE

    def observe(self, view: RoyalMastheadsView) -> Features:
        """The view in the layout of :data:`LAYOUT`."""
        me = view.seat or 0
        f = Features(_SIZE + 2 * POT_BASE)
        f.bits(_mask(view.hand), 52)
        f.bits(_mask(view.own_pot), 52)
        f.one_hot(view.turned, 52)
        f.one_hot(view.trumps, 4)
        f.number(0.0 if view.masthead is None else 1.0)
        f.number(1.0 if view.ace_high else 0.0)
        f.number(1.0 if view.double_trumps else 0.0)
        f.number(1.0 if view.ace_points > 0 else 0.0)
        phase = view.phase
        f.one_hot(
            0 if phase == "pot" else 1 if phase == "play" else 2 if phase == "over" else -1, 3
        )
        leader = view.leader
        for i, c in enumerate(view.trick):
            f.at(((leader + i - me) % 4) * 52 + c, 1.0)
        f.skip(4 * 52)
        f.one_hot((leader - me) % 4, 4)
        f.ones(_played(view.tricks, me))
        f.skip(4 * 52)
        won = view.tricks_won
        for k in range(4):
            f.number(won[(me + k) % 4] / 13)
        pots = view.pot_counts
        for k in range(4):
            f.number(pots[(me + k) % 4] / 2)
        sizes = view.hand_sizes
        for k in range(4):
            f.number(sizes[(me + k) % 4] / 13)
        f.bits(_mask(view.pot), 52)
        f.one_hot((view.dealer - me) % 4, 4)
        to_act = view.to_act
        f.one_hot(-1 if to_act is None else (to_act - me) % 4, 4)
        f.number(view.deal / max(view.deals, 1))
        totals = view.totals
        for k in range(4):
            f.number(totals[(me + k) % 4] / 1000)
        return f

    card_count = 52
    """52 cards."""

    def hand(self, view: RoyalMastheadsView) -> int:
        """The seat's hand as a card mask."""
        return _mask(view.hand)

    def private_id(self, action_id: int) -> bool:
        """A pot card (ids 52-103) is a secret choice: others see only that one was made."""
        return action_id >= POT_BASE

    def history_capacity(self, players: int) -> int:
        """History tokens of a deal: 13 dealt cards, 8 pot choices and 44 trick cards."""
        return 72


ENCODING = RoyalMastheadsEncoding()
"""The encoding :meth:`cardtable.core.game.Game.encoding` finds for Royal Mastheads."""
