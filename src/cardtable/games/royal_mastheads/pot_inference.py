"""What the other seats are likely to have hidden in the pot (M-7), for determinization.

Each seat puts two cards of its choice face down into the pot before the first lead, and
nobody sees another seat's two until the deal is scored.  A uniform determinization deals
every unseen card to the pot as readily as to a hand, so late in a deal a search believes
an unseen trump or royal to be in the pot as often as not.  Players do not choose so: a
trump or a royal wins tricks and counts towards the 500-point royal bonus (M-15), and the
pot goes to the player with the most tricks (M-8).

:data:`PAGAT_WEIGHTS` is how much likelier a card of each kind is to go into the pot than
its share of a hand, measured on ``hard``'s own choices (the search level the other seats
of an ``expert`` game play): 150 deals (seeds 5000-5149), 1,200 pot cards, 7,800 cards
dealt.  Of the 1,200: 1,027 plain number cards (1.78 times their share of the hands), 120
plain masthead number cards (2.63), 48 plain aces (0.78), 4 plain royals (0.02), one trump
(an ace, 0.05), no masthead ace.  Every weight has a floor of 0.02, so no deal is ruled out
(a human may hide what ``hard`` never does).  Under the ``russian`` ruleset (aces score +10,
trumps count double) nothing was measured, and :func:`pot_weights` gives ``None``: the
uniform sampler.

>>> from cardtable.games.royal_mastheads import GAME
>>> v = GAME.view(GAME.new_game(4, seed=1, scope="unit"), 0)
>>> w = pot_weights(v)
>>> w is not None and len(w) == 52
True
>>> trumps = [w[c] for c in range(52) if SUIT[c] == v.trumps]
>>> sorted(set(trumps)) == [FLOOR, PAGAT_WEIGHTS["trump"]]
True
"""

from __future__ import annotations

from cardtable.games.royal_mastheads.determinize import MastheadsSampler
from cardtable.games.royal_mastheads.state import RANK, SUIT
from cardtable.games.royal_mastheads.view import RoyalMastheadsView

__all__ = ["FLOOR", "PAGAT_WEIGHTS", "pot_sampler", "pot_weights"]

FLOOR = 0.02
"""The least weight a card gets (no deal is ruled out)."""

PAGAT_WEIGHTS: dict[str, float] = {
    "number": 1.78,
    "plain-masthead-number": 2.63,
    "ace": 0.78,
    "masthead-ace": FLOOR,
    "royal": FLOOR,
    "trump": 0.05,
    "trump-other": FLOOR,
}
"""Weight by kind of card, relative to its share of a hand (``pagat``; module doc).  A plain
card is one not of the trump suit; ``trump`` is the trump ace, ``trump-other`` every other
trump."""


def _kind(view: RoyalMastheadsView, card: int) -> str:
    """The kind of ``card`` under the view's trumps and masthead rank (a key of
    :data:`PAGAT_WEIGHTS`, with both trump kinds shown as ``trump``)."""
    rank = RANK[card]
    if SUIT[card] == view.trumps:
        return "trump"
    masthead = view.masthead is not None and rank == view.masthead
    if rank == 1:
        return "masthead-ace" if masthead else "ace"
    if rank > 10:
        return "royal"
    return "plain-masthead-number" if masthead else "number"


def pot_weights(view: RoyalMastheadsView) -> list[float] | None:
    """A weight for each of the 52 cards, how likely the other seats were to hide it in the
    pot (``None`` under a ruleset nothing was measured for: the uniform sampler)."""
    if view.ruleset != "pagat":
        return None
    out = []
    for card in range(52):
        kind = _kind(view, card)
        if kind == "trump":
            kind = "trump" if RANK[card] == 1 else "trump-other"
        out.append(max(FLOOR, PAGAT_WEIGHTS[kind]))
    return out


def pot_sampler(view: RoyalMastheadsView) -> MastheadsSampler:
    """The view's sampler with the pot drawn by :func:`pot_weights` (a
    :class:`~cardtable.core.kit.SearchProfile` ``sampler``).

    >>> import random
    >>> from cardtable.games.royal_mastheads import GAME
    >>> s = GAME.new_game(4, seed=3, scope="unit")
    >>> v = GAME.view(s, GAME.to_act(s))
    >>> GAME.view(pot_sampler(v)(random.Random(0)), v.seat) == v
    True
    """
    return MastheadsSampler(view, pot_weights(view))
