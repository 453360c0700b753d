"""A brute-force model of one Rummy turn, written from the rules and not from the engine.

It tries every subset of the hand as a meld, every card at every place of every meld and
every joker swap, each with every physical copy (R1.5), and searches the rest of the turn
exhaustively for a completion (R4.7): an empty hand (not with ``mustDiscardToGoOut``), or
every obligation met (R4.8, R8.7, R11.2) and a card left that may be discarded (R4.5).
It is exponential in the hand and meant for hands of a few cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations, pairwise, permutations

from cardtable.games.rummy.state import (
    JOKER0,
    LAYOFF,
    MELD,
    RUN,
    SET,
    SETJ,
    SWAP,
    Config,
    Meld,
    RummyAction,
)

__all__ = ["Oracle", "Turn", "signature"]


@dataclass(frozen=True)
class Turn:
    """What the rest of a turn depends on (the seat to act is fixed)."""

    hand: frozenset[int]
    melds: tuple[Meld, ...]
    obligations: frozenset[int]
    taken: int
    melds_made: int


def signature(action: RummyAction) -> tuple[object, ...]:
    """An action up to the choice among equal cards (R1.5): its kind, target and the
    (face, meaning) of each card, a joker's face being 52.  A run's start is left out: a
    13-card run is the same cards from any start (R2.4)."""
    faces = tuple(52 if c >= JOKER0 else c % 52 for c in action.cards)
    if action.kind == MELD:
        return (MELD, tuple(sorted(zip(faces, action.meanings, strict=True))))
    if action.kind == SWAP:
        return (SWAP, action.target, faces[0])
    return (action.kind, action.target, faces, action.meanings)


def _composition(cfg: Config, naturals: int, jokers: int) -> bool:
    """R8.3(a): at least one natural card and the joker limit."""
    if naturals < 1:
        return False
    if cfg.joker_limit == 0:
        return jokers <= naturals
    if cfg.joker_limit == 1:
        return jokers < naturals
    return True


def _face(suit: int, position: int) -> int:
    """The face at a run position (position p has rank (p - 1) % 13 + 1, R2)."""
    return 13 * suit + (position - 1) % 13


def _set_order(naturals: list[int], jokers: list[int]) -> tuple[int, ...]:
    """A set's cards in table order: naturals by face, then jokers."""
    return tuple(sorted(naturals, key=lambda c: c % 52)) + tuple(sorted(jokers))


@dataclass
class Oracle:
    """The plays and completions of one seat's turn under ``cfg``."""

    cfg: Config
    seat: int
    _memo: dict[Turn, bool] = field(default_factory=dict)

    # ------------------------------------------------------------------ plays
    def _new_melds(self, cards: tuple[int, ...]) -> Iterator[tuple[RummyAction, Meld]]:
        cfg = self.cfg
        nat = [c for c in cards if c < JOKER0]
        jok = sorted(c for c in cards if c >= JOKER0)
        n = len(cards)
        if not _composition(cfg, len(nat), len(jok)):
            return
        faces = [c % 52 for c in nat]
        suits = [f // 13 for f in faces]
        ranks = {f % 13 for f in faces}
        # R5.1: one rank, naturals of different suits, at most four cards
        if len(ranks) == 1 and len(set(suits)) == len(suits) and n <= 4:
            r = next(iter(ranks))
            ordered = _set_order(nat, jok)
            meanings = tuple(c % 52 if c < JOKER0 else SETJ + r for c in ordered)
            yield RummyAction(MELD, ordered, meanings, 0), Meld(SET, -1, r + 1, ordered, self.seat)
        # R5.2, R2: one suit, consecutive positions, each rank once
        if len(set(suits)) != 1 or len(set(faces)) != len(faces) or n > 13:
            return
        suit = suits[0]
        by_face = dict(zip(faces, nat, strict=True))
        starts = range(1, 14) if cfg.wrap else range(1, 16 - n)
        for lo in starts:
            window = [_face(suit, lo + i) for i in range(n)]
            if not set(by_face) <= set(window):
                continue
            holes = [i for i, f in enumerate(window) if f not in by_face]
            if len(holes) != len(jok):
                continue
            if not cfg.touch and any(b - a == 1 for a, b in pairwise(holes)):
                continue  # R8.3(b)
            for order in set(permutations(jok)):
                slot = dict(zip(holes, order, strict=True))
                ordered = tuple(slot[i] if i in slot else by_face[window[i]] for i in range(n))
                yield (
                    RummyAction(MELD, ordered, tuple(window), lo),
                    Meld(RUN, suit, lo, ordered, self.seat),
                )

    def _layoffs(self, card: int, meld: Meld) -> Iterator[tuple[RummyAction | None, Meld]]:
        """(action without target, meld after) for each way ``card`` extends ``meld`` (R6)."""
        cfg = self.cfg
        cards = meld.cards
        nj = sum(1 for c in cards if c >= JOKER0)
        joker = card >= JOKER0
        if joker and not _composition(cfg, len(cards) - nj, nj + 1):
            return
        if meld.kind == SET:
            r = meld.lo - 1
            if len(cards) >= 4:
                return
            nat = [c for c in cards if c < JOKER0]
            jok = [c for c in cards if c >= JOKER0]
            if joker:
                yield (
                    RummyAction(LAYOFF, (card,), (SETJ + r,)),
                    Meld(SET, -1, meld.lo, _set_order(nat, [*jok, card]), meld.owner),
                )
            elif card % 13 == r and card % 52 // 13 not in {c % 52 // 13 for c in nat}:
                yield (
                    RummyAction(LAYOFF, (card,), (card % 52,)),
                    Meld(SET, -1, meld.lo, _set_order([*nat, card], jok), meld.owner),
                )
            return
        n = len(cards)
        if n >= 13:
            return
        lo, hi = meld.lo, meld.lo + n - 1
        if cfg.wrap or hi + 1 <= 14:
            f = _face(meld.suit, hi + 1)
            if (joker and (cfg.touch or cards[-1] < JOKER0)) or (not joker and card % 52 == f):
                yield (
                    RummyAction(LAYOFF, (card,), (f,)),
                    Meld(RUN, meld.suit, lo, (*cards, card), meld.owner),
                )
        if cfg.wrap or lo - 1 >= 1:
            f = _face(meld.suit, lo - 1)
            if (joker and (cfg.touch or cards[0] < JOKER0)) or (not joker and card % 52 == f):
                new_lo = lo - 1 if lo - 1 >= 1 else lo - 1 + 13
                yield (
                    RummyAction(LAYOFF, (card,), (f,)),
                    Meld(RUN, meld.suit, new_lo, (card, *cards), meld.owner),
                )

    def _swaps(self, card: int, meld: Meld) -> Iterator[tuple[int, Meld]]:
        """(freed joker, meld after) for each table joker ``card`` may replace (R8.7)."""
        cards = meld.cards
        if card >= JOKER0:
            return
        if meld.kind == RUN:
            for i, j in enumerate(cards):
                if j >= JOKER0 and _face(meld.suit, meld.lo + i) == card % 52:
                    yield j, Meld(RUN, meld.suit, meld.lo, (*cards[:i], card, *cards[i + 1 :]),
                                  meld.owner)  # fmt: skip
            return
        nat = [c for c in cards if c < JOKER0]
        jok = [c for c in cards if c >= JOKER0]
        if card % 13 == meld.lo - 1 and card % 52 // 13 not in {c % 52 // 13 for c in nat}:
            for j in jok:
                rest = [x for x in jok if x != j]
                yield j, Meld(SET, -1, meld.lo, _set_order([*nat, card], rest), meld.owner)

    def plays(self, turn: Turn) -> list[tuple[RummyAction, Turn]]:
        """Every MELD, LAYOFF and SWAP from ``turn``, each with every physical copy, and the
        turn after it."""
        cfg = self.cfg
        hand = sorted(turn.hand)
        out: list[tuple[RummyAction, Turn]] = []

        def after(action: RummyAction, used: int, melds: tuple[Meld, ...], freed: int) -> None:
            h = turn.hand - {used} if used >= 0 else turn.hand
            if freed >= 0:
                h = h | {freed}
            obligations = (turn.obligations & h) | ({freed} if freed >= 0 else set())
            made = turn.melds_made + (1 if action.kind == MELD else 0)
            out.append(
                (action, Turn(frozenset(h), melds, frozenset(obligations), turn.taken, made))
            )

        if not (cfg.one_meld and turn.melds_made >= 1):  # R5.4
            for size in range(3, len(hand) + 1):
                for cards in combinations(hand, size):
                    for action, meld in self._new_melds(cards):
                        h = turn.hand - set(cards)
                        obligations = turn.obligations & h
                        out.append(
                            (
                                action,
                                Turn(
                                    frozenset(h),
                                    (*turn.melds, meld),
                                    frozenset(obligations),
                                    turn.taken,
                                    turn.melds_made + 1,
                                ),
                            )
                        )
        for mi, meld in enumerate(turn.melds):
            for card in hand:
                for partial, new in self._layoffs(card, meld):
                    assert partial is not None
                    action = partial._replace(target=mi)
                    melds = (*turn.melds[:mi], new, *turn.melds[mi + 1 :])
                    after(action, card, melds, -1)
                if cfg.swap:
                    for joker, new in self._swaps(card, meld):
                        melds = (*turn.melds[:mi], new, *turn.melds[mi + 1 :])
                        after(RummyAction(SWAP, (card, joker), (), mi), card, melds, joker)
        return out

    # ------------------------------------------------------------- completion
    def completable(self, turn: Turn) -> bool:
        """R4.7: can some sequence of further plays end the turn properly?"""
        if not turn.hand:
            return not self.cfg.must_discard
        if not turn.obligations and turn.hand - {turn.taken}:
            return True
        got = self._memo.get(turn)
        if got is None:
            got = any(self.completable(t) for _, t in self.plays(turn))
            self._memo[turn] = got
        return got
