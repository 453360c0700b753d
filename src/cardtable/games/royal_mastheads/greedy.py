"""A greedy Royal Mastheads bot: a function of the seat's view only.

* Pot (M-7): discards low singletons (to make a void for trumping), then the lowest plain
  number card; keeps trumps, mastheads and royals (they win tricks, and the pot goes to the
  player with the most tricks), and keeps ``pagat``'s negative aces to drop on tricks that
  others win.
* Play: ducks a trick whose cards are worth less than nothing (full of ``pagat`` aces);
  otherwise wins it when it can, with the cheapest winning card (tricks bring the pot, M-8,
  and royals the 500-point bonus, M-15); else sheds the least useful card.
* Leads its highest plain card when that is a royal, else its lowest plain card.

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> s = GAME.new_game(4, seed=4)
>>> bot = MastheadsGreedyBot()
>>> a = bot.choose(GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s), random.Random(0))
>>> a in GAME.legal_actions(s)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.games.royal_mastheads.rules import beats
from cardtable.games.royal_mastheads.state import POT_BASE, RANK, SUIT
from cardtable.games.royal_mastheads.view import RoyalMastheadsView

__all__ = ["MastheadsGreedyBot"]


def _rank_key(card: int, ace_high: bool) -> int:
    r = RANK[card]
    return 14 if r == 1 and ace_high else r


def _points(view: RoyalMastheadsView, card: int) -> int:
    """Roughly what capturing ``card`` is worth (first card of its rank)."""
    r = RANK[card]
    if view.double_trumps:
        doubled = SUIT[card] == view.trumps and r != 1
    else:
        doubled = view.masthead is not None and r == view.masthead
    if r == 1:
        return view.ace_points * (2 if doubled else 1)
    base = 2 if r > 10 else 1
    return base * (2 if doubled else 1)


def _is_prize(view: RoyalMastheadsView, card: int) -> bool:
    """A masthead or a royal (the cards worth winning)."""
    r = RANK[card]
    return r > 10 or (view.masthead is not None and r == view.masthead and r != 1)


class MastheadsGreedyBot:
    """The ``greedy`` bot for Royal Mastheads (see the module doc)."""

    name = "greedy"

    def choose(self, view: RoyalMastheadsView, legal: Sequence[int], rng: random.Random) -> int:
        """One of ``legal``, chosen from ``view`` only (``rng`` breaks no ties: greedy is
        deterministic)."""
        if legal[0] >= POT_BASE:
            return self._discard(view, legal)
        return self._play(view, legal)

    # -- the pot ---------------------------------------------------------------------------
    def _discard(self, view: RoyalMastheadsView, legal: Sequence[int]) -> int:
        hand = [a - POT_BASE for a in legal]
        suit_len = [0, 0, 0, 0]
        for c in hand:
            suit_len[SUIT[c]] += 1

        def key(card: int) -> tuple[int, int]:
            r = RANK[card]
            if r == 1 and view.ace_points < 0:
                return (4, _points(view, card))  # kept: an ace is dumped on another's trick
            keep = (
                SUIT[card] == view.trumps
                or _is_prize(view, card)
                or (r == 1 and view.ace_points > 0)
            )
            if keep:
                return (3, _rank_key(card, view.ace_high))
            if suit_len[SUIT[card]] == 1:
                return (1, r)  # a low singleton: discarding it makes a void
            return (2, r)

        return min(hand, key=key) + POT_BASE

    # -- play ------------------------------------------------------------------------------
    def _play(self, view: RoyalMastheadsView, legal: Sequence[int]) -> int:
        trick = view.trick
        trumps, high = view.trumps, view.ace_high
        if not trick:
            return self._lead(view, legal)
        winners = [c for c in legal if beats(c, trick, trumps, high)]
        losers = [c for c in legal if c not in winners]
        value = sum(_points(view, c) for c in trick)
        last = len(trick) == 3
        prize = any(_is_prize(view, c) for c in trick)

        def cheap(card: int) -> tuple[int, int]:
            return (_points(view, card), _rank_key(card, high))

        if value < 0:
            # duck a trick full of aces: the highest card that still loses
            if losers:
                return max(losers, key=lambda c: _rank_key(c, high))
            return min(winners, key=cheap)
        if winners and (prize or last or value >= 0):
            return min(winners, key=lambda c: (SUIT[c] == trumps, _rank_key(c, high)))
        if losers:
            # shed the least useful card (a negative ace onto someone else's trick first)
            return min(losers, key=cheap)
        return min(winners, key=cheap)

    def _lead(self, view: RoyalMastheadsView, legal: Sequence[int]) -> int:
        high = view.ace_high
        plain = [c for c in legal if SUIT[c] != view.trumps] or list(legal)
        top = max(plain, key=lambda c: _rank_key(c, high))
        if _rank_key(top, high) >= 11:
            return top
        return min(plain, key=lambda c: (_points(view, c) > 1, _rank_key(c, high)))
