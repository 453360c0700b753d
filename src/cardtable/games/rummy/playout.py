"""A fast random playout: the same game as the contract loop, without its allocations.

``random_playout(state, rng)`` plays exactly what this loop plays::

    while to_act(state) is not None:
        legal = legal_actions(state)
        state, _ = apply(state, legal[rng.randrange(len(legal))])

— same random numbers, same actions, same final state (tests check it for many seeds and
variants) — on one :class:`~cardtable.games.rummy.board.Board` a round, with the moves
``apply`` makes, without events and without a state per action.  In the common positions
it counts the legal actions instead of listing them:

* a draw with the top-only pickup and no ``pickupMustBeUsed``: DRAW_STOCK, TAKE_DISCARD;
* a turn with no obligation and no joker in hand (and no swappable table joker) where no
  play can leave only the taken card: the plays that
  :class:`~cardtable.games.rummy.natural.NaturalPlays` counts, then one discard per face.
  When the draw picks a play, :func:`~cardtable.games.rummy.natural.natural_play` builds
  that play alone.

Every other position goes through the generator itself (:func:`rules.legal` on the frozen
board), and the end of a round through :func:`rules.end_round`, as in ``apply``.

>>> import random
>>> from cardtable.games.rummy import GAME
>>> start = GAME.new_game(2, seed=3, scope="unit")
>>> end, n = random_playout(start, random.Random(3))
>>> GAME.to_act(end) is None, n > 0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from cardtable.games.rummy.board import CONTINUES, Board
from cardtable.games.rummy.natural import NaturalPlays, layoff_faces, natural_play
from cardtable.games.rummy.rules import apply_action, end_round, legal
from cardtable.games.rummy.scoring import PENALTY, hand_penalty
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    F52,
    JOKER0,
    LAYOFF,
    MELD,
    TAKE,
    Phase,
    RummyAction,
    RummyState,
)

__all__ = ["layoff_faces", "links", "policy_playout", "random_playout", "rollout_policy"]

_RANDBELOW_BITS: Final = getattr(random.Random, "_randbelow_with_getrandbits", 0)
"""``random.Random``'s own ``_randbelow`` (the one drawing ``n.bit_length()`` bits)."""
_DRAW_PHASE: Final = Phase.DRAW


class _Draws:
    """``rng.randrange(n)`` for n > 0, as ``_randbelow(n)``: the same draws, one call less.
    For a generator that draws bits (``random.Random`` and most subclasses) that is the
    loop ``k = n.bit_length(); r = getrandbits(k); while r >= n: r = getrandbits(k)``,
    made here without a call to ``_randbelow``."""

    randbelow: Callable[[int], int]
    getrandbits: Callable[[int], int]
    bits: bool

    def __init__(self, rng: random.Random) -> None:
        self.randbelow = rng.randrange
        self.bits = False
        if type(rng).randrange is random.Random.randrange:
            self.randbelow = getattr(rng, "_randbelow", self.randbelow)
            self.bits = getattr(type(rng), "_randbelow", None) is _RANDBELOW_BITS
        self.getrandbits = rng.getrandbits

    def below(self, n: int) -> int:
        """A uniform draw from ``range(n)``, as ``rng.randrange(n)``."""
        if not self.bits:
            return self.randbelow(n)
        kb = n.bit_length()
        k = self.getrandbits(kb)
        while k >= n:
            k = self.getrandbits(kb)
        return k


def random_playout(state: RummyState, rng: random.Random) -> tuple[RummyState, int]:
    """Play uniformly random legal actions to the end of the game: the final state and
    the number of actions (what :meth:`Game.playout`'s contract loop returns)."""
    actions = 0
    draws = _Draws(rng)
    while state.phase != Phase.OVER:
        state, n = _play_round(state, draws)
        actions += n
    return state, actions


def _play_round(state: RummyState, draws: _Draws) -> tuple[RummyState, int]:
    """Play to the end of the current round: the state after its last action (the next
    round dealt, or the game over) and the number of actions."""
    cfg = state.cfg
    simple_draw = cfg.pickup == 0 and not cfg.must_use
    board = Board(state)
    counter = NaturalPlays(state.melds, cfg.wrap)
    actions = 0
    end = CONTINUES
    while end == CONTINUES:
        actions += 1
        if board.phase != _DRAW_PHASE:
            end = _play_turn(board, draws, counter)
        elif not simple_draw:
            acts = legal(board.freeze())[0]
            action = acts[draws.below(len(acts))]
            end = board.take(action.target, None) if action.kind == TAKE else board.draw_stock(None)
        elif draws.below(2 if board.discard else 1):
            end = board.take(0, None)
        else:
            end = board.draw_stock(None)
    return end_round(board.freeze(), end, None), actions


def _play_turn(board: Board, draws: _Draws, counter: NaturalPlays) -> int:
    """One random action after the draw: a play or the discard."""
    cfg = board.cfg
    seat = board.current
    hand = board.hands[seat]
    taken = board.taken
    counter.sync(board.melds)
    if not (board.obligations or hand >> JOKER0 or (cfg.swap and counter.table_joker)):
        fm = (hand | hand >> 52) & F52
        melding = not (cfg.one_meld and board.melds_this_turn)
        nplays, longest = counter.count(fm, melding)
        # Each play must leave a card other than the taken one (R4.7); when one might
        # not, the generator's completion search decides.
        rest = 1
        if nplays:
            rest = hand.bit_count() - longest
            if rest == 1 and taken >= 0:
                rest = 0
        if rest > 0:
            allowed = hand & ~(1 << taken) if taken >= 0 else hand
            fa = (allowed | allowed >> 52) & F52
            k = draws.below(nplays + fa.bit_count())
            if k < nplays:
                play = natural_play(
                    k, seat, hand, fm, board.melds, board.melds_this_turn, cfg.wrap, melding,
                    counter.targets, taken,
                )  # fmt: skip
                counter.played(play)
                return board.play(play, None)
            k -= nplays
            while k:
                fa &= fa - 1
                k -= 1
            card = (fa & -fa).bit_length() - 1
            return board.discard_card(card if allowed >> card & 1 else card + 52, None)
    acts, plays_of = legal(board.freeze())
    action = acts[draws.below(len(acts))]
    if action.kind == DISCARD:
        return board.discard_card(action.cards[0], None)
    return board.play(plays_of[action], None)


# -- the search's rollout (compiled with the rules: it is most of a search's time) --------


def links(face: int, faces: int) -> int:
    """How many cards of ``faces`` could make a set or a run with ``face``.

    >>> links(4, 1 << 3 | 1 << 6 | 1 << 17 | 1 << 20)  # 5S: 4S, 7S and 5H link, 8H not
    3
    """
    rank = face % 13
    suit = face // 13
    n = 0
    for other in range(4):
        if other != suit and faces >> (other * 13 + rank) & 1:
            n += 1
    for d in (-2, -1, 1, 2):
        r = rank + d
        if 0 <= r < 13 and faces >> (suit * 13 + r) & 1:
            n += 1
    return n


def rollout_policy(
    state: RummyState, moves: Sequence[RummyAction], rnd: Callable[[], float]
) -> RummyAction:
    """Meld and lay off the most cards; take the top discard when it links with two cards
    of the hand; discard the least linked, most costly card (90%)."""
    first = moves[0].kind
    hand = state.hands[state.current]
    faces = (hand | hand >> 52) & F52
    if first in (DRAW, TAKE):
        if state.discard and rnd() < 0.9:
            top = state.discard[-1]
            if top < JOKER0 and links(top % 52, faces) >= 2:
                for m in moves:
                    if m.kind == TAKE and m.target == 0:
                        return m
        for m in moves:
            if m.kind == DRAW:
                return m
        return moves[int(rnd() * len(moves))]
    best: RummyAction | None = None
    best_n = 0
    for m in moves:
        if m.kind == MELD or m.kind == LAYOFF:
            n = len(m.cards)
            if n > best_n:
                best = m
                best_n = n
    if best is not None:
        return best
    has_discard = False
    for m in moves:
        if m.kind == DISCARD:
            has_discard = True
            break
    if has_discard and rnd() < 0.9:
        # the first discard of the fewest links, then of the highest penalty
        chosen: RummyAction | None = None
        key_links = 0
        key_pen = 0
        for m in moves:
            if m.kind != DISCARD:
                continue
            c = m.cards[0]
            if c >= JOKER0:
                lk, pen = 99, 0  # never throw a joker away
            else:
                f = c % 52
                lk, pen = links(f, faces & ~(1 << f)), PENALTY[c]
            if chosen is None or lk < key_links or (lk == key_links and pen > key_pen):
                chosen = m
                key_links = lk
                key_pen = pen
        assert chosen is not None
        return chosen
    return moves[int(rnd() * len(moves))]


def policy_playout(
    state: RummyState, rng: random.Random, depth: int
) -> tuple[tuple[float, ...], bool]:
    """Play :func:`rollout_policy` for at most ``depth`` actions or to the end of the
    round: each seat's score then (signed, R9.3; when the round has not ended, minus the
    penalty still in each hand) and whether the game is over."""
    rnd = rng.random
    start_round = state.round_no
    for _ in range(depth):
        moves, plays = legal(state)
        action = rollout_policy(state, moves, rnd)
        state = apply_action(state, action, plays.get(action))[0]
        if state.phase == Phase.OVER or state.round_no != start_round:
            return tuple([float(s) for s in state.scores]), state.phase == Phase.OVER
    return (
        tuple([float(s - hand_penalty(h)) for s, h in zip(state.scores, state.hands, strict=True)]),
        False,
    )
