"""Meld analysis for people: read a meld as typed, and say why an action is illegal.

>>> from cardtable.games.rummy.state import OPTIONS, make_config, parse_phys
>>> cfg = make_config(2, OPTIONS.defaults())
>>> ok, why = interpret_meld(cfg, [parse_phys(t) for t in "KH AH 2H".split()], [-1, -1, -1])
>>> ok, why
([], ('R2.2', 'a run may not pass through the ace (K-A-2) unless wrapKA2 is on'))
>>> ok, _ = interpret_meld(cfg, [parse_phys(t) for t in "3H AH 2H".split()], [-1, -1, -1])
>>> [(kind, lo) for kind, lo, _, _ in ok]
[(0, 1)]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from cardtable.core.errors import IllegalActionError
from cardtable.games.rummy.melds import pos_face, run_ends, valid_composition
from cardtable.games.rummy.plays import gen_plays
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    JOKER0,
    LAYOFF,
    MELD,
    RUN,
    SET,
    SETJ,
    SWAP,
    TAKE,
    Config,
    Meld,
    Phase,
    RummyAction,
    RummyState,
    card_text,
)

__all__ = ["Interpretation", "explain_action", "interpret_meld", "meaning_text"]

Interpretation = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""(kind, run start or set rank, cards in meld order, meaning of each slot)."""

SUIT_NAMES = ("spade", "heart", "diamond", "club")


def meaning_text(m: int) -> str:
    """A joker meaning as text: ``6H``, or ``7*`` for a set joker."""
    if m >= SETJ:
        return card_text(m - SETJ)[:-1] + "*"
    return card_text(m)


def _limit_reason(cfg: Config, naturals: int, jokers: int) -> tuple[str, str]:
    if naturals < 1:
        return "R8.3", "a meld needs at least one natural card"
    word = ("no more jokers than natural cards", "fewer jokers than natural cards")[
        min(cfg.joker_limit, 1)
    ]
    return "R8.3", f"a meld may have {word} (jokerLimit={cfg.options['jokerLimit']})"


def interpret_meld(
    cfg: Config, cards: list[int], declared: list[int]
) -> tuple[list[Interpretation], tuple[str, str]]:
    """Every way the given cards form a valid meld, honouring declared joker meanings
    (``-1`` = undeclared); when there is none, the reason why (rule id, text)."""
    n = len(cards)
    nat = [c for c in cards if c < JOKER0]
    jok = [(c, declared[i]) for i, c in enumerate(cards) if c >= JOKER0]
    if n < 3:
        return [], ("R5.2", "a meld needs at least 3 cards")
    if not nat:
        return [], ("R8.3", "a meld needs at least one natural card")
    faces = [c % 52 for c in nat]
    ranks = [f % 13 for f in faces]
    suits = [f // 13 for f in faces]
    out: list[Interpretation] = []
    reason: tuple[str, str] = (
        "R5.1",
        "a meld is a set (one rank, different suits) or a run (one suit, consecutive ranks)",
    )
    # a set (R5.1)
    if len(set(ranks)) == 1:
        r = ranks[0]
        if len(set(suits)) < len(suits):
            dup = next(s for s in suits if suits.count(s) > 1)
            reason = ("R5.1", f"a set needs different suits; it has two {SUIT_NAMES[dup]}s")
        elif n > 4:
            reason = ("R5.1", "a set has at most 4 cards")
        elif not valid_composition(len(nat), len(jok), cfg.joker_limit):
            reason = _limit_reason(cfg, len(nat), len(jok))
        else:
            bad = [
                m
                for _, m in jok
                if not (
                    m == -1
                    or m == SETJ + r
                    or (0 <= m < 52 and m % 13 == r and m // 13 not in suits)
                )
            ]
            if bad:
                reason = ("R8.2", f"a joker cannot stand for {meaning_text(bad[0])} in this set")
            else:
                ordered = tuple(sorted(nat, key=lambda c: c % 52)) + tuple(
                    sorted(c for c, _ in jok)
                )
                meanings = tuple(c % 52 if c < JOKER0 else SETJ + r for c in ordered)
                out.append((SET, r + 1, ordered, meanings))
    # a run (R5.2)
    if len(set(suits)) == 1 and (len(nat) == 1 or len(set(ranks)) > 1):
        s = suits[0]
        if len(set(ranks)) < len(ranks):
            reason = ("R2.4", "a run cannot hold the same rank twice")
        elif n > 13:
            reason = ("R2.4", "a run has at most 13 cards")
        else:
            out_runs, run_reason = _runs(cfg, s, n, nat, jok, cfg.wrap)
            if out_runs:
                out.extend(out_runs)
            else:
                reason = run_reason
                if not cfg.wrap and run_reason[0] == "R5.2" and _runs(cfg, s, n, nat, jok, True)[0]:
                    reason = (
                        "R2.2",
                        "a run may not pass through the ace (K-A-2) unless wrapKA2 is on",
                    )
    elif len(set(ranks)) > 1 and len(set(suits)) > 1:
        reason = (
            "R5.1",
            "a meld is a set (one rank, different suits) or a run (one suit, consecutive ranks)",
        )
    return out, reason


def _runs(
    cfg: Config, s: int, n: int, nat: list[int], jok: list[tuple[int, int]], wrap: bool
) -> tuple[list[Interpretation], tuple[str, str]]:
    faces = {c % 52: c for c in nat}
    out: list[Interpretation] = []
    reason = ("R5.2", "the cards do not form consecutive ranks")
    seen13: set[frozenset[int]] = set()
    starts = range(1, 14) if wrap else range(1, 16 - n)
    for lo in starts:
        window = [pos_face(s, lo + i) for i in range(n)]
        if not set(faces) <= set(window):
            continue
        missing = [i for i, f in enumerate(window) if f not in faces]
        if len(missing) != len(jok):
            continue
        declared = [m for _, m in jok if m != -1]
        free = [window[i] for i in missing]
        ok = True
        for m in declared:
            if m in free:
                free.remove(m)
            else:
                ok = False
        if not ok:
            reason = ("R8.2", f"a joker cannot stand for {meaning_text(declared[0])} here")
            continue
        if not valid_composition(len(nat), len(jok), cfg.joker_limit):
            reason = _limit_reason(cfg, len(nat), len(jok))
            continue
        if not cfg.touch and any(b - a == 1 for a, b in itertools.pairwise(missing)):
            reason = (
                "R8.3",
                "two jokers may not be next to each other in a run (jokersMayTouch=false)",
            )
            continue
        if n == 13:
            key = frozenset(window[i] for i in missing)
            if key in seen13:
                continue
            seen13.add(key)
        # declared jokers take their slots; the others fill the rest in order
        jokers_declared = [(c, m) for c, m in jok if m != -1]
        jokers_free = sorted(c for c, m in jok if m == -1)
        slot_card: dict[int, int] = {}
        for c, m in jokers_declared:
            slot_card[window.index(m)] = c
        for i in missing:
            if i not in slot_card:
                slot_card[i] = jokers_free.pop(0)
        ordered = tuple(slot_card[i] if i in slot_card else faces[window[i]] for i in range(n))
        out.append((RUN, lo, ordered, tuple(window)))
    return out, reason


def _err(rule: str, reason: str) -> IllegalActionError:
    return IllegalActionError(rule, reason)


def _layoff_reason(cfg: Config, meld: Meld, mi: int, card: int, meaning: int) -> tuple[str, str]:
    name = f"M{mi + 1}"
    text = card_text(card)
    cards = meld.cards
    njm = sum(1 for c in cards if c >= JOKER0)
    if meld.kind == SET:
        r = meld.lo - 1
        if len(cards) >= 4:
            return "R6.2", f"{name} is a full set (4 cards)"
        if card >= JOKER0:
            if not valid_composition(len(cards) - njm, njm + 1, cfg.joker_limit):
                return _limit_reason(cfg, len(cards) - njm, njm + 1)
            return "R8.2", f"a joker laid off on {name} stands for a {card_text(r)[:-1]}"
        f = card % 52
        if f % 13 != r:
            return "R6.2", f"{text} is not of {name}'s rank (a set cannot become a run)"
        return "R5.1", f"{name} already has a {SUIT_NAMES[f // 13]}"
    ends = run_ends(meld, cfg.wrap)
    end_faces = [pos_face(meld.suit, p) for p in ends]
    if len(cards) >= 13:
        return "R2.4", f"{name} already holds all 13 ranks"
    if card >= JOKER0:
        if meaning == -1:
            return "R8.2", "say what the joker stands for (e.g. LAYOFF JK->M1 as 4H)"
        if meaning not in end_faces:
            return "R8.2", f"a joker on {name} cannot stand for {meaning_text(meaning)}"
        if not valid_composition(len(cards) - njm, njm + 1, cfg.joker_limit):
            return _limit_reason(cfg, len(cards) - njm, njm + 1)
        return "R8.3", "two jokers may not be next to each other in a run (jokersMayTouch=false)"
    f = card % 52
    if f // 13 != meld.suit:
        return "R6.2", f"{text} is not of {name}'s suit (a run cannot become a set)"
    if any(pos_face(meld.suit, meld.lo + i) == f for i in range(len(cards))):
        return "R2.4", f"{name} already holds that rank; no insertion in the middle"
    if not cfg.wrap:
        wrap_faces = [pos_face(meld.suit, p) for p in (meld.lo - 1, meld.lo + len(cards))]
        if f in wrap_faces:
            return "R2.2", "a run may not pass through the ace (K-A-2) unless wrapKA2 is on"
    return "R6.2", f"{text} does not extend {name} at either end"


def _signature(a: RummyAction) -> tuple[object, ...]:
    """A play up to the choice among equal cards (R1.5): kind, target and the (face,
    meaning) of each card (a joker's face is 52); a meld without its start, which only a
    13-card run could change."""
    faces = tuple(52 if c >= JOKER0 else c % 52 for c in a.cards)
    if a.kind == MELD:
        return (MELD, tuple(sorted(zip(faces, a.meanings, strict=True))))
    if a.kind == SWAP:
        return (SWAP, a.target, faces[0])
    return (a.kind, a.target, faces, a.meanings)


def _slots(a: RummyAction) -> list[tuple[int, int, int]]:
    faces = [52 if c >= JOKER0 else c % 52 for c in a.cards]
    meanings = list(a.meanings) if a.kind != SWAP else [0, 1]
    return sorted(zip(faces, meanings, a.cards, strict=True))


def _refused_play(
    state: RummyState, a: RummyAction, listed: Sequence[RummyAction], remaining: int, freed: int
) -> IllegalActionError:
    """Why a play of a valid shape, with cards held, is not listed: an equal play is listed
    in its place (R1.5), or the turn could not be completed after it (R4.6, R4.7)."""
    sig = _signature(a)
    for other in listed:
        if other.kind == a.kind and _signature(other) == sig:
            pairs = [
                f"{card_text(x[2])} for {card_text(y[2])}"
                for x, y in zip(_slots(other), _slots(a), strict=True)
                if x[2] != y[2]
            ]
            how = "play " + ", ".join(pairs) if pairs else "a 13-card run from its lowest start"
            return _err("R1.5", f"equal cards are interchangeable; each play is listed once: {how}")
    return _dead_end(state, remaining, freed)


def _dead_end(state: RummyState, remaining: int, freed: int) -> IllegalActionError:
    """The turn could not be completed after a play that leaves ``remaining`` in hand and
    frees the jokers ``freed`` (R4.6, R4.7)."""
    cfg = state.cfg
    if not remaining and cfg.must_discard:
        return _err(
            "R4.6", "going out needs a final discard (mustDiscardToGoOut); keep a card to discard"
        )
    obligations = (state.obligations & remaining) | freed
    if obligations:
        names = " ".join(card_text(c) for c in range(108) if obligations >> c & 1)
        return _err("R4.7", f"you could not then meld or lay off {names} and still end the turn")
    t = state.taken
    if t >= 0 and remaining == 1 << t:
        return _err(
            "R4.7",
            f"you would keep only {card_text(t)}, which you took from the discard pile and may "
            "not discard (R4.5), and no further play would end the turn",
        )
    return _err("R4.7", "you could not complete the turn afterwards")


def explain_action(
    state: RummyState, a: RummyAction, listed: Sequence[RummyAction]
) -> IllegalActionError:
    """The rule id and a one-line reason why ``a`` is not legal in ``state``, whose legal
    actions are ``listed``."""
    if state.phase == Phase.OVER:
        return _err("R9.1", "the game is over")
    hand = state.hands[state.current]
    kind = a.kind
    if kind in (DRAW, TAKE):
        return _explain_draw(state, a)
    if state.phase == Phase.DRAW:
        return _err("R4.2", "draw first: DRAW_STOCK or TAKE_DISCARD")
    missing = [
        c for c in a.cards[: 1 if kind == SWAP else None] if not (0 <= c < 108 and hand >> c & 1)
    ]
    if missing:
        return _err("R5.6", f"you do not hold {card_text(missing[0])}")
    if kind == DISCARD:
        return _explain_discard(state, a)
    if kind == MELD:
        return _explain_meld(state, a, listed)
    mi = a.target
    if not 0 <= mi < len(state.melds):
        if mi < 0:
            return _err("R6.4", "name the meld (e.g. LAYOFF 8C->M1)")
        return _err("R6.4", f"there is no meld M{mi + 1}")
    if kind == LAYOFF:
        return _explain_layoff(state, a, listed)
    if kind == SWAP:
        return _explain_swap(state, a, listed)
    return _err("", "not an action of this game")


def _explain_draw(state: RummyState, a: RummyAction) -> IllegalActionError:
    """Why a DRAW_STOCK or TAKE_DISCARD is not legal."""
    if state.phase == Phase.PLAY:
        return _err("R4.2", "you have already drawn this turn")
    if a.kind == DRAW:
        return _err("R4.2", "DRAW_STOCK is legal here")
    n = len(state.discard)
    depth = a.target
    if not n:
        return _err("R4.2", "the discard pile is empty")
    if depth < 0 or depth >= n:
        return _err("R11.2", f"the discard pile has only {n} card{'s' if n > 1 else ''}")
    if depth > 0 and state.cfg.pickup == 0:
        return _err("R11.1", "only the top discard may be taken (discardPickup=top)")
    chosen = card_text(state.discard[n - 1 - depth])
    why = f"no meld, lay-off or swap could use {chosen} this turn and still end the turn"
    if depth == 0:
        return _err("R4.8", f"{why} (pickupMustBeUsed)")
    return _err("R11.2", why)


def _explain_discard(state: RummyState, a: RummyAction) -> IllegalActionError:
    """Why a DISCARD of a card held is not legal."""
    if not a.cards:
        return _err("R4.4", "name the card to discard")
    c = a.cards[0]
    if state.obligations:
        names = " ".join(card_text(x) for x in range(108) if state.obligations >> x & 1)
        rule = "R8.7" if state.obligations >> JOKER0 else ("R4.8" if state.taken >= 0 else "R11.2")
        return _err(rule, f"you must first meld or lay off {names}")
    if c == state.taken:
        return _err(
            "R4.5",
            f"you took {card_text(c)} from the discard pile this turn; you cannot discard it",
        )
    return _err("R4.4", f"you cannot discard {card_text(c)} now")


def _explain_meld(
    state: RummyState, a: RummyAction, listed: Sequence[RummyAction]
) -> IllegalActionError:
    """Why a MELD of cards held is not legal."""
    cfg = state.cfg
    if cfg.one_meld and state.melds_this_turn >= 1:
        return _err("R5.4", "only one meld per turn (maxOneMeldPerTurn)")
    if len(set(a.cards)) < len(a.cards):
        return _err("R5.6", "a card is listed twice")
    declared = list(a.meanings) if len(a.meanings) == len(a.cards) else [-1] * len(a.cards)
    interps, (rule, why) = interpret_meld(cfg, list(a.cards), declared)
    if not interps:
        return _err(rule, why)
    if len(interps) > 1 and any(c >= JOKER0 for c in a.cards):
        return _err("R8.2", "the jokers' meaning is ambiguous; declare it (e.g. JK=8H)")
    remaining = state.hands[state.current]
    for c in a.cards:
        remaining &= ~(1 << c)
    kind_, lo, ordered, meanings = interps[0]  # the meld as the legal list writes it
    canon = RummyAction(MELD, ordered, meanings, lo if kind_ == RUN else 0)
    return _refused_play(state, canon, listed, remaining, 0)


def _explain_layoff(
    state: RummyState, a: RummyAction, listed: Sequence[RummyAction]
) -> IllegalActionError:
    """Why a LAYOFF of a card held onto an existing meld is not legal."""
    cfg = state.cfg
    melds = state.melds
    mi = a.target
    c = a.cards[0]
    meaning = a.meanings[0] if a.meanings else -1
    probe = gen_plays(cfg, state.current, 1 << c, melds, state.melds_this_turn, 0)
    fits = [
        p
        for p in probe
        if p[0].kind == LAYOFF
        and p[0].target == mi
        and (c < JOKER0 or meaning == -1 or p[0].meanings[0] == meaning)
    ]
    if not fits:
        rule, why = _layoff_reason(cfg, melds[mi], mi, c, meaning)
        return _err(rule, why)
    if c >= JOKER0 and meaning == -1 and len(fits) > 1:
        return _err("R8.2", "say what the joker stands for (e.g. LAYOFF JK->M1 as 4H)")
    # the lay-off as the legal list writes it (a natural card's meaning is its face)
    hand = state.hands[state.current]
    return _refused_play(state, fits[0][0], listed, hand & ~(1 << c), 0)


def _explain_swap(
    state: RummyState, a: RummyAction, listed: Sequence[RummyAction]
) -> IllegalActionError:
    """Why a SWAP of a card held for a joker of an existing meld is not legal."""
    if not state.cfg.swap:
        return _err("R8.7", "joker swaps are off (jokerSwap=off)")
    mi = a.target
    meld = state.melds[mi]
    name = f"M{mi + 1}"
    if len(a.cards) < 2 or a.cards[1] < JOKER0 or a.cards[1] not in meld.cards:
        return _err("R8.7", f"{name} has no such joker")
    c, j = a.cards[0], a.cards[1]
    if c >= JOKER0:
        return _err("R8.7", "a table joker is exchanged for a natural card")
    if meld.kind == RUN:
        f = pos_face(meld.suit, meld.lo + meld.cards.index(j))
        if c % 52 != f:
            return _err(
                "R8.7", f"the joker in {name} stands for {card_text(f)}, not {card_text(c)}"
            )
    else:
        r = meld.lo - 1
        if c % 13 != r:
            return _err("R8.7", f"the jokers in {name} stand for a {card_text(r)[:-1]}")
        if any(x < JOKER0 and x % 52 // 13 == c % 52 // 13 for x in meld.cards):
            return _err("R5.1", f"{name} already has a {SUIT_NAMES[c % 52 // 13]}")
    hand = state.hands[state.current]
    return _refused_play(state, a, listed, (hand & ~(1 << c)) | 1 << j, 1 << j)
