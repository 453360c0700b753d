"""A greedy Rummy bot: a function of the seat's view and the legal actions only.

It takes the discard when that card completes a meld or fits a meld on the table, melds and
lays off whatever it can (the most penalty points first: cards on the table cannot cost
points), and discards the card that costs most and helps least (pairs and near-runs are
kept).

>>> import random
>>> from cardtable.games.rummy import GAME
>>> s = GAME.new_game(2, seed=3, scope="unit")
>>> bot = RummyGreedyBot()
>>> a = bot.choose(GAME.view(s, s.current), GAME.legal_actions(s), random.Random(0))
>>> GAME.format_action(a) in ("DRAW_STOCK", "TAKE_DISCARD")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.games.rummy.scoring import PENALTY
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    JOKER0,
    LAYOFF,
    MELD,
    SWAP,
    TAKE,
    RummyAction,
    parse_phys,
)
from cardtable.games.rummy.view import RummyView

__all__ = ["RummyGreedyBot"]


def _face(card: int) -> int:
    return 52 if card >= JOKER0 else card % 52


def _helps(card: int, others: list[int]) -> int:
    """How much a card contributes to partial melds among ``others`` (pairs, near-runs)."""
    if card >= JOKER0:
        return 100
    f = card % 52
    suit, rank = divmod(f, 13)
    score = 0
    for o in others:
        if o >= JOKER0 or o == card:
            continue
        g = o % 52
        s2, r2 = divmod(g, 13)
        if r2 == rank and s2 != suit:
            score += 12  # a pair toward a set
        elif s2 == suit:
            d = min(abs(r2 - rank), 13 - abs(r2 - rank))
            if d == 1:
                score += 12
            elif d == 2:
                score += 6
    return score


def _completes(card: int, hand: list[int], view: RummyView) -> bool:
    """True when ``card`` would make a meld with two hand cards or fit a table meld."""
    if card >= JOKER0:
        return True
    f = card % 52
    suit, rank = divmod(f, 13)
    faces = {_face(c) for c in hand}
    same_rank = sum(1 for s in range(4) if s != suit and 13 * s + rank in faces)
    if same_rank >= 2:
        return True
    near = [(rank + d) % 13 for d in (-2, -1, 1, 2)]
    have = [13 * suit + r in faces for r in near]
    if (have[0] and have[1]) or (have[1] and have[2]) or (have[2] and have[3]):
        return True
    for meld in view.melds:
        ends = [w.partition("=")[2] or w for w in (meld.cards[0], meld.cards[-1])]
        for end in ends:
            if end.endswith("*"):
                if end[:-1] == _rank_text(rank):
                    return len(meld.cards) < 4
                continue
            e = parse_phys(end) % 52
            if meld.kind == "run" and e // 13 == suit and abs(e % 13 - rank) in (1, 12):
                return True
            if meld.kind == "set" and e % 13 == rank and len(meld.cards) < 4:
                return True
    return False


def _rank_text(rank: int) -> str:
    return ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][rank]


class RummyGreedyBot:
    """Greedy heuristic Rummy player (see the module text)."""

    name = "greedy"

    def choose(
        self, view: RummyView, legal: Sequence[RummyAction], rng: random.Random
    ) -> RummyAction:
        """Pick an action from ``legal`` using only ``view``."""
        hand = [parse_phys(c) for c in view.hand or ()]
        draws = [a for a in legal if a.kind in (DRAW, TAKE)]
        if draws:
            top = [a for a in draws if a.kind == TAKE and a.target == 0]
            if top and view.discard and _completes(parse_phys(view.discard[-1]), hand, view):
                return top[0]
            deep = [a for a in draws if a.kind == TAKE and a.target > 0]
            if deep and rng.random() < 0.5:
                return min(deep, key=lambda a: a.target)
            stock = [a for a in draws if a.kind == DRAW]
            return stock[0] if stock else draws[0]
        plays = [a for a in legal if a.kind in (MELD, LAYOFF, SWAP)]
        if plays:

            def value(a: RummyAction) -> tuple[int, int]:
                cards = a.cards[:1] if a.kind == SWAP else a.cards
                gain = sum(PENALTY[c] for c in cards if c < JOKER0)
                jokers = sum(1 for c in cards if c >= JOKER0)
                return (gain - 8 * jokers + (30 if a.kind == SWAP else 0), len(cards))

            best = max(plays, key=value)
            discards = [a for a in legal if a.kind == DISCARD]
            if value(best)[0] > 0 or not discards:
                return best
        discards = [a for a in legal if a.kind == DISCARD]
        if not discards:
            return legal[rng.randrange(len(legal))]

        def dead(a: RummyAction) -> tuple[int, float]:
            c = a.cards[0]
            return (PENALTY[c] - _helps(c, hand), rng.random())

        return max(discards, key=dead)
