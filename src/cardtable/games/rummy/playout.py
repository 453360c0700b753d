"""A fast random playout: the same game as the contract loop, without its allocations.

``random_playout(state, rng)`` plays exactly what this loop plays::

    while to_act(state) is not None:
        legal = legal_actions(state)
        state, _ = apply(state, legal[rng.randrange(len(legal))])

— same random numbers, same actions, same final state (tests check it for many seeds and
variants) — but on mutable locals, without events and without a state per action.  In
the common positions it counts the legal actions instead of listing them:

* a draw with the top-only pickup and no ``pickupMustBeUsed``: DRAW_STOCK, TAKE_DISCARD;
* a turn with no obligation and no joker in hand (and no swappable table joker) where no
  play can leave only the taken card: the runs and sets of the hand's suit patterns, the
  lay-offs from masks of the faces that extend each meld, then one discard per face.
  When the draw picks a play, that play alone is built, in the order of
  :func:`~cardtable.games.rummy.plays.gen_plays` and with its copies (the taken one first,
  R1.5), and a test compares them play by play.

Every other position goes through the generator itself (:func:`rules.legal` on a state
built from the locals).  The action that ends a round goes through
:func:`rules.apply_action`, so scoring and the next deal are the pure path's.

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

from cardtable.games.rummy.melds import natural_runs, natural_sets, pos_face, run_ends
from cardtable.games.rummy.plays import Play, _layoff_run, _set_cards
from cardtable.games.rummy.rules import (
    DISCARD_ACTIONS,
    DRAW_ACTION,
    _take_result,
    apply_action,
    legal,
)
from cardtable.games.rummy.scoring import PENALTY, hand_penalty
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    F52,
    JOKER0,
    LAYOFF,
    MELD,
    RUN,
    SET,
    TAKE,
    Meld,
    Phase,
    RummyAction,
    RummyState,
)

__all__ = ["layoff_faces", "links", "policy_playout", "random_playout", "rollout_policy"]

_RUN_INFO: tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]] = ({}, {})
"""Per wrap flag: suit pattern → (number of natural runs, longest run length)."""

_RANDBELOW_BITS = getattr(random.Random, "_randbelow_with_getrandbits", 0)
"""``random.Random``'s own ``_randbelow`` (the one drawing ``n.bit_length()`` bits)."""

_ACES = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The aces' faces: with Q-K or K-2 of their suit they may start a run."""
_RUN_STARTS = 0x7FF * _ACES
"""The faces that may start three in a row within their suit (A..J)."""

_SET_COUNT = (0, 0, 0, 1, 5)
"""Natural sets of a rank held in 0..4 suits (R5.1): the 3-subsets and the 4-set."""


def _run_info(pattern: int, wrap: bool) -> tuple[int, int]:
    table = _RUN_INFO[wrap]
    got = table.get(pattern)
    if got is None:
        runs = natural_runs(pattern, wrap)
        got = (len(runs), max((length for _, length, _ in runs), default=0))
        table[pattern] = got
    return got


def _meld_target(meld: Meld, wrap: bool) -> int:
    """The faces a natural card may be laid off as on ``meld`` (R6)."""
    cards = meld.cards
    m = 0
    if meld.kind == RUN:
        for pos in run_ends(meld, wrap):
            m |= 1 << pos_face(meld.suit, pos)
    elif len(cards) < 4:
        r = meld.lo - 1
        present = 0
        for c in cards:
            if c < JOKER0:
                present |= 1 << (c % 52 // 13)
        for s in range(4):
            if not present >> s & 1:
                m |= 1 << (13 * s + r)
    return m


def layoff_faces(melds: tuple[Meld, ...], wrap: bool) -> int:
    """The faces a natural card may be laid off as onto any of ``melds`` (R6), as a mask.

    >>> from cardtable.games.rummy.state import RUN
    >>> bin(layoff_faces((Meld(RUN, 0, 4, (3, 4, 5), 0),), False))  # 4-5-6 of spades: 3, 7
    '0b1000100'
    """
    m = 0
    for meld in melds:
        m |= _meld_target(meld, wrap)
    return m


def _levels(targets: list[int]) -> list[int]:
    """Level ``i`` holds the faces that extend more than ``i`` melds, so the lay-offs of
    a hand without jokers number ``sum((faces & level).bit_count() for level in levels)``;
    level 0 is their union."""
    levels: list[int] = []
    for m in targets:
        for i, level in enumerate(levels):
            levels[i] = level | m
            m &= level
        if m:
            levels.append(m)
    return levels or [0]


def _layoff_targets(melds: tuple[Meld, ...], wrap: bool) -> tuple[list[int], list[int], bool]:
    """The lay-off faces of each meld, their levels, and whether a joker lies on the
    table."""
    targets = [_meld_target(meld, wrap) for meld in melds]
    table_joker = any(c >= JOKER0 for meld in melds for c in meld.cards)
    return targets, _levels(targets), table_joker


def _natural_play(
    k: int,
    seat: int,
    hand: int,
    fm: int,
    melds: tuple[Meld, ...],
    nmade: int,
    wrap: bool,
    melding: bool,
    targets: list[int],
    taken: int,
) -> Play:
    """``gen_plays(cfg, seat, hand, melds, nmade, 0, taken)[k]`` for a hand without jokers
    (faces ``fm``), built alone: the runs suit by suit, the sets rank by rank, then the
    lay-offs meld by meld, in the generator's order; each card the copy taken from the pile
    if it is that one's face, else the lowest copy held."""
    # the copies to choose from: without the other copy of the taken card (R1.5, R4.5)
    pick = hand if not 0 <= taken < JOKER0 else hand & ~(1 << (taken + 52) % 104)
    if melding:
        if fm & fm >> 1 & fm >> 2 & _RUN_STARTS or fm & fm >> 12 & (fm >> 11 | fm >> 1) & _ACES:
            for s in range(4):
                runs = natural_runs(fm >> 13 * s & 0x1FFF, wrap)
                if k >= len(runs):
                    k -= len(runs)
                    continue
                lo, length, _ = runs[k]
                base = 13 * s
                meanings = tuple(base + (lo + i - 1) % 13 for i in range(length))
                cards = tuple(f if pick >> f & 1 else f + 52 for f in meanings)
                used = 0
                for c in cards:
                    used |= 1 << c
                return (
                    RummyAction(MELD, cards, meanings, lo),
                    hand & ~used,
                    (*melds, Meld(RUN, s, lo, cards, seat)),
                    nmade + 1,
                    0,
                )
        sa, sb, sc, sd = fm & 0x1FFF, fm >> 13 & 0x1FFF, fm >> 26 & 0x1FFF, fm >> 39
        ranks = (sa & sb & (sc | sd)) | (sc & sd & (sa | sb))
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            r = low.bit_length() - 1
            q = (fm >> r & 1) | (fm >> (r + 12) & 2) | (fm >> (r + 24) & 4) | (fm >> (r + 36) & 8)
            subsets = natural_sets(q)
            if k >= len(subsets):
                k -= len(subsets)
                continue
            sub = subsets[k]
            faces = [13 * s + r for s in range(4) if sub >> s & 1]
            cards = tuple(f if pick >> f & 1 else f + 52 for f in faces)
            used = 0
            for c in cards:
                used |= 1 << c
            return (
                RummyAction(MELD, cards, tuple(faces), 0),
                hand & ~used,
                (*melds, Meld(SET, -1, r + 1, cards, seat)),
                nmade + 1,
                0,
            )
    for mi, target in enumerate(targets):
        here = fm & target
        if not here:
            continue
        count = here.bit_count()
        if k >= count:
            k -= count
            continue
        meld = melds[mi]
        if meld.kind == RUN:
            for pos in run_ends(meld, wrap):  # the high end first
                f = pos_face(meld.suit, pos)
                if here >> f & 1:  # a 12-card wrapped run's two ends are one face: k is 0
                    if not k:
                        c = f if pick >> f & 1 else f + 52
                        return _layoff_run(meld, mi, melds, c, f, pos, hand, nmade)
                    k -= 1
        else:
            while k:
                here &= here - 1
                k -= 1
            f = (here & -here).bit_length() - 1
            c = f if pick >> f & 1 else f + 52
            cards = meld.cards
            nc = _set_cards(
                [*(x for x in cards if x < JOKER0), c], [x for x in cards if x >= JOKER0]
            )
            return (
                RummyAction(LAYOFF, (c,), (f,), mi),
                hand & ~(1 << c),
                (*melds[:mi], Meld(SET, -1, meld.lo, nc, meld.owner), *melds[mi + 1 :]),
                nmade,
                0,
            )
    raise AssertionError("the play count and the generator disagree")


def random_playout(state: RummyState, rng: random.Random) -> tuple[RummyState, int]:
    """Play uniformly random legal actions to the end of the game: the final state and
    the number of actions (what :meth:`Game.playout`'s contract loop returns)."""
    actions = 0
    while state.phase != Phase.OVER:
        state, n = _play_round(state, rng)
        actions += n
    return state, actions


def _play_round(state: RummyState, rng: random.Random) -> tuple[RummyState, int]:
    """Play to the end of the current round: the state after its last action (the next
    round dealt, or the game over) and the number of actions."""
    # ``randrange(n)`` is ``_randbelow(n)`` for n > 0: the same draws, one call less.  For
    # a generator that draws bits (``random.Random`` and most subclasses) that is the loop
    # ``k = n.bit_length(); r = getrandbits(k); while r >= n: r = getrandbits(k)``, which
    # the common steps inline.
    randbelow: Callable[[int], int] = rng.randrange
    bits = False
    if type(rng).randrange is random.Random.randrange:
        randbelow = getattr(rng, "_randbelow", randbelow)
        bits = getattr(type(rng), "_randbelow", None) is _RANDBELOW_BITS
    getrandbits = rng.getrandbits
    cfg = state.cfg
    players = cfg.players
    wrap = cfg.wrap
    one_meld = cfg.one_meld
    swap = cfg.swap
    must_use = cfg.must_use
    max_turnovers = cfg.max_turnovers
    max_turns = cfg.max_turns
    simple_draw = cfg.pickup == 0 and not must_use
    run_table = _RUN_INFO[wrap]
    set_count = _SET_COUNT

    seat = state.current
    drawing = state.phase == Phase.DRAW
    hands = list(state.hands)
    # The cards known in hands (R4.9) are kept lazily: they are the cards in hands that are in
    # face_up (see _face_up), and face_up gains each discard and each joker freed by a swap.
    face_up = _face_up(state)
    stock = state.stock
    sp = 0  # stock[sp] is the top card
    discard = list(state.discard)
    melds = state.melds
    taken = state.taken
    obl = state.obligations
    nmade = state.melds_this_turn
    ptt = state.placed_this_turn
    placed = list(state.placed)
    turn_no = state.turn_no
    turnovers = state.turnovers
    public = state.stock_public
    passed = list(state.passed)
    targets, levels, table_joker = _layoff_targets(melds, wrap)
    target_melds = melds
    actions = 0
    end: RummyAction  # the action that ends the round, applied by the pure path
    end_play: Play | None = None
    card = -1

    while True:
        actions += 1
        hand = hands[seat]
        if drawing:
            # ---------------------------------------------------------------- draw
            drawing = False
            if not simple_draw:
                snap = _snapshot(
                    state, True, seat, hands, face_up, stock[sp:], discard, melds, taken,
                    obl, nmade, ptt, placed, turn_no, turnovers, public, passed,
                )  # fmt: skip
                acts = legal(snap)[0]
                action = acts[randbelow(len(acts))]
                depth = action.target if action.kind == TAKE else -1
            elif not bits:
                depth = randbelow(2 if discard else 1) - 1
            elif discard:
                depth = getrandbits(2)
                while depth >= 2:
                    depth = getrandbits(2)
                depth -= 1
            else:
                while getrandbits(1):
                    pass
                depth = -1
            if depth < 0:
                if sp == len(stock):
                    if not discard or turnovers == max_turnovers:
                        drawing = True
                        end = DRAW_ACTION  # blocked (R7.3-R7.5)
                        break
                    stock = tuple(discard)  # turnover (R4.9)
                    sp = 0
                    discard = []
                    turnovers += 1
                    public = True
                elif discard:  # the top of the pile, passed up for the stock
                    passed[seat] |= 1 << discard[-1]
                hands[seat] = hand | 1 << stock[sp]
                sp += 1
            elif depth == 0 and not must_use:
                card = discard.pop()
                hands[seat] = hand | 1 << card
                taken = card
            else:
                cards, after, chosen = _take_result(cfg, tuple(discard), depth)
                discard = list(after)
                for c in cards:
                    hand |= 1 << c
                hands[seat] = hand
                taken = chosen if depth == 0 else -1
                obl = 1 << chosen
            continue
        # -------------------------------------------------------------------- play
        if melds is not target_melds:
            targets, levels, table_joker = _layoff_targets(melds, wrap)
            target_melds = melds
        play: Play | None = None
        if obl or hand >> JOKER0 or (swap and table_joker):
            rest = 0
        else:
            fm = (hand | hand >> 52) & F52
            nplays = 0
            longest = 0
            melding = not (one_meld and nmade)
            if melding:
                if fm & fm >> 1 & fm >> 2 & _RUN_STARTS or (
                    fm & fm >> 12 & (fm >> 11 | fm >> 1) & _ACES
                ):
                    for shift in (0, 13, 26, 39):
                        pat = fm >> shift & 0x1FFF
                        info = run_table.get(pat)
                        if info is None:
                            info = _run_info(pat, wrap)
                        nplays += info[0]
                        if info[1] > longest:
                            longest = info[1]
                sa, sb, sc, sd = fm & 0x1FFF, fm >> 13 & 0x1FFF, fm >> 26 & 0x1FFF, fm >> 39
                ranks = (sa & sb & (sc | sd)) | (sc & sd & (sa | sb))
                while ranks:
                    low = ranks & -ranks
                    ranks ^= low
                    q = (sa & low and 1) + (sb & low and 1) + (sc & low and 1) + (sd & low and 1)
                    nplays += set_count[q]
                    if q > longest:
                        longest = q
            if fm & levels[0]:
                for level in levels:
                    nplays += (fm & level).bit_count()
                if not longest:
                    longest = 1
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
            n = nplays + fa.bit_count()
            if bits and n:
                kb = n.bit_length()
                k = getrandbits(kb)
                while k >= n:
                    k = getrandbits(kb)
            else:
                k = randbelow(n)
            if k < nplays:
                play = _natural_play(k, seat, hand, fm, melds, nmade, wrap, melding, targets, taken)
                # a natural card or meld: update the lay-off faces of the one meld made
                # or extended (no joker comes or goes)
                target_melds = play[2]
                if len(target_melds) > len(melds):
                    targets.append(_meld_target(target_melds[-1], wrap))
                else:
                    mi = play[0].target
                    targets[mi] = _meld_target(target_melds[mi], wrap)
                levels = _levels(targets)
            else:
                k -= nplays
                while k:
                    fa &= fa - 1
                    k -= 1
                card = (fa & -fa).bit_length() - 1
                if not allowed >> card & 1:
                    card += 52
        else:
            # The generator itself, on a state built from the locals.
            snap = _snapshot(
                state, False, seat, hands, face_up, stock[sp:], discard, melds, taken,
                obl, nmade, ptt, placed, turn_no, turnovers, public, passed,
            )  # fmt: skip
            acts, plays_of = legal(snap)
            action = acts[randbelow(len(acts))]
            if action.kind == DISCARD:
                card = action.cards[0]
            else:
                play = plays_of[action]
                face_up |= play[4]  # a joker freed by a swap (R8.7)
        if play is not None:
            nh = play[1]
            if not nh:
                end, end_play = play[0], play
                break
            hands[seat] = nh
            melds = play[2]
            nmade = play[3]
            obl = (obl & nh) | play[4]
            ptt = True
            if taken >= 0 and not nh >> taken & 1:
                taken = -1
        else:
            # discard (R4.4)
            bit = 1 << card
            hand ^= bit
            if not hand or turn_no + 1 >= max_turns:
                end = DISCARD_ACTIONS[card]
                break
            hands[seat] = hand
            face_up |= bit
            discard.append(card)
            if ptt and not placed[seat]:
                placed[seat] = True
            turn_no += 1
            seat = (seat + 1) % players
            drawing = True
            taken = -1
            obl = 0
            nmade = 0
            ptt = False
    snap = _snapshot(
        state, drawing, seat, hands, face_up, stock[sp:], discard, melds, taken, obl, nmade,
        ptt, placed, turn_no, turnovers, public, passed,
    )  # fmt: skip
    return apply_action(snap, end, end_play)[0], actions


def _face_up(state: RummyState) -> int:
    """The cards of ``state`` that are or were face up this round, as far as the rest of
    the round can tell: the discard pile, the melds, a public stock and the known cards in
    hands.

    As the round goes on, the known cards stay the cards in hands in this mask if the mask
    gains every discard and every joker freed by a swap: a card enters a hand face down only
    from a face-down stock, whose cards have never been face up, and a card that has been
    face up enters a hand only in public (taken from the pile, drawn from a turned-over
    stock, which is the old pile, or swapped out of a meld).
    """
    m = state.known
    for c in state.discard:
        m |= 1 << c
    for meld in state.melds:
        for c in meld.cards:
            m |= 1 << c
    if state.stock_public:
        for c in state.stock:
            m |= 1 << c
    return m


def _snapshot(
    state: RummyState,
    drawing: bool,
    seat: int,
    hands: list[int],
    face_up: int,
    stock: tuple[int, ...],
    discard: list[int],
    melds: tuple[Meld, ...],
    taken: int,
    obl: int,
    nmade: int,
    ptt: bool,
    placed: list[bool],
    turn_no: int,
    turnovers: int,
    public: bool,
    passed: list[int],
) -> RummyState:
    """The state of the playout's locals (the round's fixed fields from ``state``); the
    known cards are the cards in hands in ``face_up``."""
    in_hands = 0
    for h in hands:
        in_hands |= h
    return tuple.__new__(
        RummyState,
        (
            state.cfg,
            state.seed,
            state.scope,
            state.round_no,
            state.dealer,
            Phase.DRAW if drawing else Phase.PLAY,
            seat,
            tuple(hands),
            in_hands & face_up,
            stock,
            tuple(discard),
            melds,
            taken,
            obl,
            nmade,
            ptt,
            tuple(placed),
            turn_no,
            turnovers,
            public,
            state.scores,
            state.closes,
            state.penalties,
            state.last_closer,
            state.last_scores,
            state.out,
            tuple(passed),
        ),
    )


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
