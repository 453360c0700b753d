"""A model of how a search level plays Royal Mastheads: a conditional logit over the legal
cards, fitted to that level's own decisions, for weighing sampled worlds.

Policy-based inference (Rebstock, Solinas, Buro & Sturtevant 2019, for Skat) weighs a world
by how likely the other seats' decisions so far would have been in it
(:mod:`~cardtable.games.royal_mastheads.weighed_worlds`).  ``greedy`` with a share of
uniform choice foresees ``hard`` poorly (58% of its follows, 36% of its leads) and weighing
by it changed nothing measurable.  This model scores each legal card by a weighted sum of a
few dozen facts about it (is it a trump, a royal, does it win the trick now, is it the
cheapest card that does, how long is its suit in the hand, is it the highest card of its
suit still out, ...) and gives each the probability ``exp(score) / sum(exp(score))`` over
the legal cards (McFadden's conditional logit). The weights (:data:`WEIGHTS`) are fitted by
maximum likelihood to ``hard``'s own decisions by ``scripts/fit_play_model.py``, which also
measures how well the model foresees held-out decisions (lab/notes/bots-experiments.md).

Every fact is a function of what the deciding seat knew (its hand, the trick so far, the
cards played before, the turned card) and of the ruleset (``pagat``'s values: the weights
were fitted there), so the same code computes the features for fitting and, given a
world's hand, for weighing it.

>>> from cardtable.cards import Card, mask_of, parse_cards
>>> ctx = Rules(trumps=1, masthead=7, ace_high=False, ace_points=-10)
>>> hand = mask_of(parse_cards("KS 3S 9H 2D"))
>>> names = [FEATURES[i] for i, _v in features(ctx, "follow", hand, parse_cards("QS"), 0, 12)]
>>> "f_wins" in names and "f_wins_cheapest" in names
True
>>> probs = choice_probabilities(ctx, "follow", hand, parse_cards("QS"), 0, {"f_wins": 1.0})
>>> {str(Card(c)): round(p, 3) for c, p in probs.items()}  # KS wins, 3S does not: e^1, e^0
{'3S': 0.269, 'KS': 0.731}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final, Literal, NamedTuple

from cardtable.cards import mask_of
from cardtable.games.royal_mastheads.determinize import MastheadsSampler
from cardtable.games.royal_mastheads.engine import card_list, playable, strength_table
from cardtable.games.royal_mastheads.pot_inference import pot_weights
from cardtable.games.royal_mastheads.state import (
    BIT,
    RANK,
    SUIT,
    SUIT_MASK,
    RoyalMastheadsState,
    pot_owner,
)
from cardtable.games.royal_mastheads.view import RoyalMastheadsView
from cardtable.games.royal_mastheads.weighed_worlds import (
    POOL,
    Play,
    PlayInferenceSampler,
    plays_of,
)

__all__ = [
    "FEATURES",
    "MIN_ESS",
    "WEIGHTS",
    "Kind",
    "Rules",
    "choice_probabilities",
    "features",
    "legal_cards",
    "log_likelihood",
    "model_sampler",
    "rules_of",
    "weight_vector",
    "world_log_likelihood",
]

Kind = Literal["pot", "lead", "follow"]
"""A decision's kind: a card into the pot (M-7), a lead, or a card to a trick led."""

FEATURES: Final[tuple[str, ...]] = (
    # the pot (M-7): which card of the hand to hide
    "p_trump",
    "p_trump_rank",
    "p_royal",
    "p_masthead",
    "p_ace",
    "p_rank",
    "p_suit_len",
    "p_singleton",
    "p_doubleton",
    "p_lowest_of_suit",
    "p_highest_of_suit",
    # leads
    "l_trump",
    "l_trump_rank",
    "l_royal",
    "l_masthead",
    "l_ace",
    "l_rank",
    "l_suit_len",
    "l_singleton",
    "l_master",
    "l_lowest_of_suit",
    "l_highest_of_suit",
    "l_trumps_held_x_trump",
    # follows (the trick has a card)
    "f_wins",
    "f_wins_last",
    "f_wins_second",
    "f_wins_prize",
    "f_wins_value",
    "f_wins_trump_in",
    "f_wins_cheapest",
    "f_wins_points",
    "f_loses_highest",
    "f_loses_lowest",
    "f_follows",
    "f_trump",
    "f_royal",
    "f_masthead",
    "f_ace",
    "f_ace_on_winner",
    "f_rank",
    "f_suit_len",
    "f_singleton",
    "f_master",
)
"""The names of the model's facts about a card, in the order of their indices."""

_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(FEATURES)}

WEIGHTS: Final[dict[str, float]] = {
    "p_trump": -3.6345,
    "p_trump_rank": -1.1506,
    "p_royal": -1.5948,
    "p_masthead": 0.3862,
    "p_ace": -2.534,
    "p_rank": -4.1213,
    "p_suit_len": -1.9242,
    "p_singleton": -1.1949,
    "p_doubleton": -0.2513,
    "p_lowest_of_suit": 0.1009,
    "p_highest_of_suit": -0.2635,
    "l_trump": 0.8435,
    "l_trump_rank": -1.9959,
    "l_royal": 0.5668,
    "l_masthead": -0.3699,
    "l_ace": 0.4625,
    "l_rank": -1.0545,
    "l_suit_len": 3.8491,
    "l_singleton": -1.0883,
    "l_master": 2.8928,
    "l_lowest_of_suit": 0.0527,
    "l_highest_of_suit": 0.1077,
    "l_trumps_held_x_trump": -0.2243,
    "f_wins": 2.5179,
    "f_wins_last": 0.6758,
    "f_wins_second": 0.1587,
    "f_wins_prize": 1.0038,
    "f_wins_value": 1.9061,
    "f_wins_trump_in": 0.8664,
    "f_wins_cheapest": -0.1099,
    "f_wins_points": 2.968,
    "f_loses_highest": -0.0099,
    "f_loses_lowest": 0.3124,
    "f_trump": -2.0848,
    "f_royal": -0.1172,
    "f_masthead": -0.259,
    "f_ace": 0.5603,
    "f_ace_on_winner": -0.444,
    "f_rank": -3.1811,
    "f_suit_len": -0.6665,
    "f_singleton": -0.3663,
    "f_master": -0.4265,
}
"""The fitted weight of each fact (a name missing weighs 0): ``hard``'s decisions in 80
games of ``hard`` in every seat (``cardtable selfplay royal-mastheads --bots hard --unit
--seed 90000``, ten games a seed block to 90079), every fifth game held out, L2 penalty 1.
On the 16 held-out games the model's likeliest card was ``hard``'s in 38.3% of its pot
choices (a uniform guess 8.0%), 48.1% of its leads (20.2%; ``greedy`` 35.8%) and 68.6%
of its follows (35.7%; ``greedy`` 58.3%): 1.43, 0.63 and 0.51 bits a decision."""


class Rules(NamedTuple):
    """What of a deal's rules the facts depend on."""

    trumps: int
    masthead: int | None
    ace_high: bool
    ace_points: int


def _key(card: int, ace_high: bool) -> int:
    """The card's place within its suit (M-2): 1 low to 13 high."""
    r = RANK[card]
    if ace_high:
        return 13 if r == 1 else r - 1
    return r


def _masks(ace_high: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per card, the masks of the cards of its suit above it and below it."""
    above, below = [], []
    for card in range(52):
        s, k = SUIT[card], _key(card, ace_high)
        up = down = 0
        for c in range(13 * s, 13 * s + 13):
            if _key(c, ace_high) > k:
                up |= BIT[c]
            elif _key(c, ace_high) < k:
                down |= BIT[c]
        above.append(up)
        below.append(down)
    return tuple(above), tuple(below)


_ABOVE_BELOW: Final = (_masks(False), _masks(True))
"""``_ABOVE_BELOW[ace_high]``: per card, its suit's cards above it and below it."""


def _points(ctx: Rules, card: int) -> int:
    """Roughly what capturing ``card`` is worth (its first card of the rank: M-12–M-14)."""
    r = RANK[card]
    doubled = ctx.masthead is not None and r == ctx.masthead
    if r == 1:
        return ctx.ace_points * (2 if doubled else 1)
    return (2 if r > 10 else 1) * (2 if doubled else 1)


def _is_prize(ctx: Rules, card: int) -> bool:
    r = RANK[card]
    return r > 10 or (ctx.masthead is not None and r == ctx.masthead and r != 1)


def legal_cards(kind: Kind, hand: int, trick: Sequence[int]) -> list[int]:
    """The cards the seat may choose (M-7, M-10): any of the hand for the pot and a lead,
    the suit led if it holds one for a follow.

    >>> legal_cards("follow", mask_of([0, 5, 20]), [3])
    [0, 5]
    """
    return card_list(playable(hand, SUIT[trick[0]] if kind == "follow" else -1))


def features(
    ctx: Rules, kind: Kind, hand: int, trick: Sequence[int], gone: int, card: int
) -> list[tuple[int, float]]:
    """The facts about choosing ``card`` from ``hand`` (as (index, value) pairs, zeros
    left out): ``trick`` is the trick so far, ``gone`` the mask of the cards played
    before in the deal."""
    legal = legal_cards(kind, hand, trick)
    return candidate_features(ctx, kind, hand, trick, gone, legal)[legal.index(card)]


def candidate_features(
    ctx: Rules,
    kind: Kind,
    hand: int,
    trick: Sequence[int],
    gone: int,
    legal: Sequence[int],
) -> list[list[tuple[int, float]]]:
    """:func:`features` of each of the ``legal`` cards (worked out once a decision)."""
    above_of, below_of = _ABOVE_BELOW[ctx.ace_high]
    follow = _trick_facts(ctx, trick, legal) if kind == "follow" else None
    rows: list[list[tuple[int, float]]] = []
    for n, card in enumerate(legal):
        k = _key(card, ctx.ace_high)
        n_suit = (hand & SUIT_MASK[SUIT[card]]).bit_count()
        if kind == "pot":
            lowest = not hand & below_of[card]
            highest = not hand & above_of[card]
            rows.append(_pot_row(ctx, card, k / 13.0, n_suit, lowest, highest))
            continue
        # a master: every card of the suit above it is gone or in the hand
        master = not (above_of[card] & ~gone & ~hand)
        if follow is None:
            lowest = not hand & below_of[card]
            highest = not hand & above_of[card]
            rows.append(_lead_row(ctx, hand, card, k, n_suit, master, (lowest, highest)))
        else:
            rows.append(_follow_row(ctx, follow, n, card, k, n_suit, master))
    return rows


class _TrickFacts(NamedTuple):
    """What a follow's features need to know about the trick so far."""

    led: int
    best: int
    strengths: list[int]
    cheapest: int
    low_loser: int
    high_loser: int
    prize: bool
    value: float
    place: int


def _trick_facts(ctx: Rules, trick: Sequence[int], legal: Sequence[int]) -> _TrickFacts:
    led = SUIT[trick[0]]
    table = strength_table(ctx.ace_high, ctx.trumps, led)
    best = max(table[c] for c in trick)
    strengths = [table[c] for c in legal]
    winners = [v for v in strengths if v > best]
    loser_keys = [_key(c, ctx.ace_high) for c, v in zip(legal, strengths, strict=True) if v <= best]
    return _TrickFacts(
        led,
        best,
        strengths,
        min(winners) if winners else -1,
        min(loser_keys) if loser_keys else -1,
        max(loser_keys) if loser_keys else -1,
        any(_is_prize(ctx, c) for c in trick),
        sum(_points(ctx, c) for c in trick) / 10.0,
        len(trick),
    )


def _pot_row(
    ctx: Rules, card: int, key: float, n_suit: int, lowest: bool, highest: bool
) -> list[tuple[int, float]]:
    ix = _INDEX
    r = RANK[card]
    out: list[tuple[int, float]] = []
    if SUIT[card] == ctx.trumps:
        out.append((ix["p_trump"], 1.0))
        out.append((ix["p_trump_rank"], key))
    if r > 10:
        out.append((ix["p_royal"], 1.0))
    if ctx.masthead is not None and r == ctx.masthead:
        out.append((ix["p_masthead"], 1.0))
    if r == 1:
        out.append((ix["p_ace"], 1.0))
    out.append((ix["p_rank"], key))
    out.append((ix["p_suit_len"], n_suit / 13.0))
    if n_suit == 1:
        out.append((ix["p_singleton"], 1.0))
    if n_suit == 2:
        out.append((ix["p_doubleton"], 1.0))
    if lowest:
        out.append((ix["p_lowest_of_suit"], 1.0))
    if highest:
        out.append((ix["p_highest_of_suit"], 1.0))
    return out


def _lead_row(
    ctx: Rules,
    hand: int,
    card: int,
    k: int,
    n_suit: int,
    master: bool,
    ends: tuple[bool, bool],
) -> list[tuple[int, float]]:
    ix = _INDEX
    r = RANK[card]
    key = k / 13.0
    trumps = ctx.trumps
    out: list[tuple[int, float]] = []
    if SUIT[card] == trumps:
        out.append((ix["l_trump"], 1.0))
        out.append((ix["l_trump_rank"], key))
        out.append((ix["l_trumps_held_x_trump"], (hand & SUIT_MASK[trumps]).bit_count() / 13.0))
    if r > 10:
        out.append((ix["l_royal"], 1.0))
    if ctx.masthead is not None and r == ctx.masthead:
        out.append((ix["l_masthead"], 1.0))
    if r == 1:
        out.append((ix["l_ace"], 1.0))
    out.append((ix["l_rank"], key))
    out.append((ix["l_suit_len"], n_suit / 13.0))
    if n_suit == 1:
        out.append((ix["l_singleton"], 1.0))
    if master:
        out.append((ix["l_master"], 1.0))
    if ends[0]:
        out.append((ix["l_lowest_of_suit"], 1.0))
    if ends[1]:
        out.append((ix["l_highest_of_suit"], 1.0))
    return out


def _follow_row(
    ctx: Rules, t: _TrickFacts, n: int, card: int, k: int, n_suit: int, master: bool
) -> list[tuple[int, float]]:
    ix = _INDEX
    s = SUIT[card]
    r = RANK[card]
    trump = s == ctx.trumps
    out: list[tuple[int, float]] = []
    mine = t.strengths[n]
    if mine > t.best:
        out.append((ix["f_wins"], 1.0))
        if t.place == 3:
            out.append((ix["f_wins_last"], 1.0))
        if t.place == 1:
            out.append((ix["f_wins_second"], 1.0))
        if t.prize:
            out.append((ix["f_wins_prize"], 1.0))
        if t.value:
            out.append((ix["f_wins_value"], t.value))
        if trump and t.led != ctx.trumps:
            out.append((ix["f_wins_trump_in"], 1.0))
        if mine == t.cheapest:
            out.append((ix["f_wins_cheapest"], 1.0))
        out.append((ix["f_wins_points"], _points(ctx, card) / 10.0))
    else:
        if k == t.high_loser:
            out.append((ix["f_loses_highest"], 1.0))
        if k == t.low_loser:
            out.append((ix["f_loses_lowest"], 1.0))
        if r == 1:
            out.append((ix["f_ace_on_winner"], 1.0))
    if s == t.led:
        out.append((ix["f_follows"], 1.0))
    if trump:
        out.append((ix["f_trump"], 1.0))
    if r > 10:
        out.append((ix["f_royal"], 1.0))
    if ctx.masthead is not None and r == ctx.masthead:
        out.append((ix["f_masthead"], 1.0))
    if r == 1:
        out.append((ix["f_ace"], 1.0))
    out.append((ix["f_rank"], k / 13.0))
    out.append((ix["f_suit_len"], n_suit / 13.0))
    if n_suit == 1:
        out.append((ix["f_singleton"], 1.0))
    if master:
        out.append((ix["f_master"], 1.0))
    return out


def _scores(
    ctx: Rules,
    kind: Kind,
    hand: int,
    trick: Sequence[int],
    gone: int,
    weights: Sequence[float],
    legal: Sequence[int],
) -> list[float]:
    out = []
    for row in candidate_features(ctx, kind, hand, trick, gone, legal):
        total = 0.0
        for i, v in row:
            total += weights[i] * v
        out.append(total)
    return out


def weight_vector(weights: Mapping[str, float]) -> list[float]:
    """The weights by feature index (a name missing weighs 0).

    >>> weight_vector({"f_wins": 2.0})[FEATURES.index("f_wins")]
    2.0
    """
    return [float(weights.get(name, 0.0)) for name in FEATURES]


def choice_probabilities(
    ctx: Rules,
    kind: Kind,
    hand: int,
    trick: Sequence[int],
    gone: int,
    weights: Mapping[str, float] = WEIGHTS,
) -> dict[int, float]:
    """The model's probability of each legal card."""
    legal = legal_cards(kind, hand, trick)
    scores = _scores(ctx, kind, hand, trick, gone, weight_vector(weights), legal)
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return {c: e / total for c, e in zip(legal, exps, strict=True)}


def log_likelihood(
    ctx: Rules,
    kind: Kind,
    hand: int,
    trick: Sequence[int],
    gone: int,
    card: int,
    weights: Sequence[float],
) -> float:
    """The natural log of the model's probability that a seat holding ``hand`` chose
    ``card`` (0 when it had no choice); ``weights`` by index (:func:`weight_vector`)."""
    legal = legal_cards(kind, hand, trick)
    if len(legal) < 2:
        return 0.0
    scores = _scores(ctx, kind, hand, trick, gone, weights, legal)
    top = max(scores)
    total = 0.0
    mine = 0.0
    for c, s in zip(legal, scores, strict=True):
        total += math.exp(s - top)
        if c == card:
            mine = s - top
    return mine - math.log(total)


def rules_of(view: RoyalMastheadsView) -> Rules:
    """The rules the facts depend on, from a view."""
    return Rules(view.trumps, view.masthead, view.ace_high, view.ace_points)


def world_log_likelihood(
    view: RoyalMastheadsView,
    world: RoyalMastheadsState,
    weights: Sequence[float],
    plays: list[Play] | None = None,
    memo: dict[tuple[int, int], float] | None = None,
    pot: bool = True,
) -> float:
    """The log of how likely the other seats' decisions so far (their pot cards, M-7, and
    their plays) were in ``world``, under the model with ``weights`` (by index).

    A seat's hand before a play is its hand in ``world`` with the cards it played from
    then on; before the pot, that hand with its pot cards too (the two in either order:
    a world deals the pot's hidden cards in no particular order); without ``pot``, the
    plays only.  ``memo`` keeps a play's log-likelihood by (play, hand) across the worlds
    of one view.
    """
    if plays is None:
        plays = plays_of(view)
    ctx = rules_of(view)
    hands = list(world.hands)
    for seat, card, _before, _gone in plays:
        hands[seat] |= BIT[card]
    total = 0.0
    if pot and view.phase != "over":
        pots: list[list[int]] = [[], [], [], []]
        for i, c in enumerate(world.pot):
            pots[pot_owner(view.dealer, i)].append(c)
        for seat in range(4):
            own = pots[seat]
            if seat == view.seat or not own:
                continue
            start = hands[seat] | mask_of(own)
            total += _pot_log_likelihood(ctx, start, own, weights)
    for k, (seat, card, before, gone) in enumerate(plays):
        hand = hands[seat]
        hands[seat] = hand & ~BIT[card]
        if seat == view.seat:
            continue
        kind: Kind = "follow" if before else "lead"
        key = (k, hand)
        if memo is not None and key in memo:
            total += memo[key]
            continue
        value = log_likelihood(ctx, kind, hand, before, gone, card, weights)
        if memo is not None:
            memo[key] = value
        total += value
    return total


def _pot_log_likelihood(
    ctx: Rules, start: int, cards: list[int], weights: Sequence[float]
) -> float:
    """The log-likelihood of a seat holding ``start`` hiding ``cards`` (one or two), in
    either order."""
    if len(cards) == 1:
        return log_likelihood(ctx, "pot", start, (), 0, cards[0], weights)
    a, b = cards[0], cards[1]
    ab = log_likelihood(ctx, "pot", start, (), 0, a, weights) + log_likelihood(
        ctx, "pot", start & ~BIT[a], (), 0, b, weights
    )
    ba = log_likelihood(ctx, "pot", start, (), 0, b, weights) + log_likelihood(
        ctx, "pot", start & ~BIT[b], (), 0, a, weights
    )
    top = max(ab, ba)
    return top + math.log(math.exp(ab - top) + math.exp(ba - top))


MIN_ESS = 64.0
"""The least effective size the weighed pool keeps (an eighth of :data:`POOL`; see
:func:`~cardtable.games.royal_mastheads.weighed_worlds.tempered`)."""


def model_sampler(
    view: RoyalMastheadsView,
    weights: Mapping[str, float] = WEIGHTS,
    pool: int = POOL,
    min_ess: float = MIN_ESS,
    pot_kinds: bool = True,
) -> PlayInferenceSampler | MastheadsSampler:
    """The view's sampler with worlds weighed by :func:`world_log_likelihood` under
    ``weights``, tempered to keep ``min_ess`` effective worlds (``expert``'s
    :class:`~cardtable.core.kit.SearchProfile` ``sampler``).  Under a ruleset other than
    ``pagat``, where neither the weights nor the pot's kinds were measured, the plain
    sampler (uniform worlds, voids respected), as before the model.  With
    ``pot_kinds`` the pool's hidden pot cards are drawn by the kind of card
    (:func:`~cardtable.games.royal_mastheads.pot_inference.pot_weights`, ``hard``'s
    choices counted) and the worlds weighed by the plays only: the pot's prior is then the
    count by kind, not the model's pot facts.

    >>> import random
    >>> from cardtable.games.royal_mastheads import GAME
    >>> s = GAME.new_game(4, seed=3, scope="unit")
    >>> for _ in range(20):
    ...     s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    >>> v = GAME.view(s, GAME.to_act(s))
    >>> sampler = model_sampler(v, {"f_wins": 1.0}, pool=32)
    >>> GAME.view(sampler(random.Random(0)), v.seat) == v
    True
    >>> r = GAME.new_game(4, {"ruleset": "russian"}, seed=3, scope="unit")
    >>> type(model_sampler(GAME.view(r, GAME.to_act(r)))).__name__
    'MastheadsSampler'
    """
    if view.ruleset != "pagat":
        return MastheadsSampler(view)
    vector = weight_vector(weights)
    plays = plays_of(view)
    memo: dict[tuple[int, int], float] = {}

    def log_weigh(world: RoyalMastheadsState) -> float:
        return world_log_likelihood(view, world, vector, plays, memo, pot=not pot_kinds)

    prior = pot_weights(view) if pot_kinds else None
    return PlayInferenceSampler(view, log_weigh, pool, pot_weights=prior, min_ess=min_ess)
