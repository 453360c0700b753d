"""The search's playout of the rest of a Royal Mastheads deal: who plays which card.

The rules come from the engine (:class:`~cardtable.games.royal_mastheads.engine.Deal`:
following suit, the pot, tricks) and the scores from the game's scoring
(:func:`~cardtable.games.royal_mastheads.scoring.seat_scores`); this module only chooses
the cards: uniformly at random, or, for a share of the follows, as the greedy bot would.
``tests/bots`` checks it against playing the same cards through the contract.

>>> import random
>>> from cardtable.games.royal_mastheads import GAME
>>> s = GAME.new_game(4, seed=1, scope="unit")
>>> len(playout(s, random.Random(0)))
4
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.games.royal_mastheads.engine import Deal, card_list, random_card, strength_tables
from cardtable.games.royal_mastheads.rules import is_over_after
from cardtable.games.royal_mastheads.scoring import seat_scores, unit_and_flat
from cardtable.games.royal_mastheads.state import POT_BASE, RoyalMastheadsState

__all__ = ["playout", "random_totals", "score_captures"]

_Tables = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]


def _tables(state: RoyalMastheadsState) -> _Tables:
    """Per card: its progression unit and flat value (the first card of a rank scores
    ``unit``, the k-th ``unit * k``; aces score ``flat``), and the trick-strength table
    for each suit led."""
    info = state.info
    unit, flat = unit_and_flat(info.cfg, info.turned)
    return unit, flat, strength_tables(info)


def score_captures(
    state: RoyalMastheadsState,
    captured: Sequence[Sequence[int]],
    counts: Sequence[int],
    pot: Sequence[int],
) -> tuple[int, int, int, int]:
    """Each seat's deal score from its trick captures (in capture order) and trick counts."""
    info = state.info
    return seat_scores(info.cfg, info.turned, captured, counts, pot)


def random_totals(state: RoyalMastheadsState, rng: random.Random) -> tuple[tuple[float, ...], bool]:
    """Play the rest of the deal at random: each seat's total at its end, and whether the
    game is then over (the search's playout)."""
    deal = Deal(state)
    deal.finish(rng)
    gains = deal.scores()
    info = state.info
    old = info.totals
    totals = (old[0] + gains[0], old[1] + gains[1], old[2] + gains[2], old[3] + gains[3])
    over = is_over_after(info.cfg, info.scope, info.number, totals)
    return (float(totals[0]), float(totals[1]), float(totals[2]), float(totals[3])), over


def playout(
    state: RoyalMastheadsState,
    rng: random.Random,
    greedy: float = 0.0,
    record: list[int] | None = None,
) -> tuple[int, int, int, int]:
    """Play the rest of the deal (legal moves only); each seat's deal score.

    With ``greedy`` = 0 every card is chosen at random.  Otherwise each player who follows
    to a trick plays, with probability ``greedy``, as the greedy bot does: it wins a trick
    worth something with its cheapest winning card, else sheds its least valuable card
    (``pagat``'s negative aces first, onto another player's trick); leads stay random.
    ``record``, when given, receives the actions played, in order (for tests).
    """
    deal = Deal(state)
    if not greedy:
        deal.finish(rng, record)
        return deal.scores()
    unit, flat, tables = _tables(state)
    rnd = rng.random
    while not deal.is_done():
        pot_phase = deal.in_pot_phase()
        mask = deal.legal_mask()
        led = deal.led()
        if led >= 0 and rnd() < greedy:
            card = _greedy_card(deal, card_list(mask), tables[led], unit, flat)
        else:
            card = random_card(mask, rnd())
        deal.push(card)
        if record is not None:
            record.append(POT_BASE + card if pot_phase else card)
    return deal.scores()


def _greedy_card(
    deal: Deal,
    cards: list[int],
    table: tuple[int, ...],
    unit: tuple[int, ...],
    flat: tuple[int, ...],
) -> int:
    """The greedy follow among ``cards``: the cheapest winner of a trick worth something,
    else the least valuable card (lowest first)."""
    trick = deal.played[len(deal.played) & ~3 :]
    top = max(table[c] for c in trick)
    worth = sum(unit[c] + flat[c] for c in trick)
    win_c = -1
    win_v = 1 << 30
    lose_c = -1
    lose_key = 1 << 30
    any_c = cards[0]
    any_key = 1 << 30
    for c in cards:
        v = table[c]
        key = (unit[c] + flat[c]) * 128 + v
        if v > top:
            if v < win_v:
                win_v, win_c = v, c
            if key < any_key:
                any_key, any_c = key, c
        elif key < lose_key:
            lose_key, lose_c = key, c
    if win_c >= 0 and worth >= 0:
        return win_c
    if lose_c >= 0:
        return lose_c
    return any_c
