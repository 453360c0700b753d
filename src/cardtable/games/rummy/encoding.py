"""Rummy for learning environments: action ids and the observation layout.

Physical cards are ids ``0..107`` as in :mod:`cardtable.games.rummy.state`: face
``suit * 13 + rank - 1`` from the first pack, ``+ 52`` from the second, jokers ``104..107``.

**Actions** (430 ids).  Melds, lay-offs and swaps are named by short sequences of ids, so
that a meld of any set of cards needs no id per subset:

=========  =====  =============================================================
ids        count  meaning
=========  =====  =============================================================
0          1      draw the top stock card (complete)
1-108      108    take the discard pile down to this card (complete)
109-216    108    discard this card (complete)
217        1      meld
218        1      lay off
219        1      swap a joker
220-327    108    this card from the hand
328-363    36     onto / from the meld with this index (at most 36 melds: 108 / 3)
364-415    52     a joker in a run standing for this face
416-428    13     a joker in a set standing for this rank
429        1      commit (the meld is complete)
=========  =====  =============================================================

A meld is ``[217, cards…, joker meanings…, 429]`` (cards and meanings ascending; the jokers
of a set all stand for its rank, which is named once); a
lay-off ``[218, card, meld]`` for a natural card and ``[218, joker, meld, meaning]`` for a
joker; a swap ``[219, natural card, meld]`` (the joker it frees follows from them).  The
ids of one action are distinct.

**Observation** (:func:`layout`; 3,114 numbers for two players and 113 more for each
further seat; all in ``[-1, 1]``).  Seats are *relative* to the observer (slot 0 is the
observer, slot ``k`` the seat ``k`` places later in seat order).  Option settings are not
encoded (they are fixed for an environment; the action mask carries their effect).

>>> from cardtable.games.rummy import GAME
>>> s = GAME.new_game(3, seed=2, scope="unit")
>>> size = ENCODING.observe(GAME.view(s, 0)).pos
>>> size == ENCODING.observation_size(3) == sum(n for _, n in layout(3))
True
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import Final

from cardtable.core.encoding import Features
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    JOKER0,
    LAYOFF,
    MELD,
    SETJ,
    SWAP,
    TAKE,
    RummyAction,
    card_text,
    parse_face,
)
from cardtable.games.rummy.view import MeldView, RummyView

__all__ = ["ENCODING", "RummyEncoding", "layout"]

CARDS: Final = 108
MAX_MELDS: Final = 36
DRAW_ID: Final = 0
TAKE_CARD: Final = 1
DISCARD_CARD: Final = 109
MELD_ID: Final = 217
LAYOFF_ID: Final = 218
SWAP_ID: Final = 219
HAND_CARD: Final = 220
MELD_INDEX: Final = 328
RUN_JOKER: Final = 364
SET_JOKER: Final = 416
COMMIT: Final = 429
NUM_IDS: Final = 430
HISTORY_CAPACITY: Final = 3072

_PHYS: Final[dict[str, int]] = {card_text(c): c for c in range(CARDS)}
"""Physical card ids by canonical text."""
_MELD_SLOT: Final = 4 + 52
_PHASES: Final[dict[str, int]] = {"DRAW": 0, "PLAY": 1, "OVER": 2}
"""Numbers per meld slot: present, run, own, jokers / 4, then 52 faces."""


def layout(players: int) -> tuple[tuple[str, int], ...]:
    """The observation's sections for ``players`` seats in order: (meaning, length)."""
    n = players
    return (
        ("hand: own cards", CARDS),
        ("known_in_hand: per relative seat, cards everyone saw enter that hand", n * CARDS),
        ("hand_sizes: per relative seat, /20 clipped", n),
        ("discard: cards in the discard pile", CARDS),
        ("discard_depth: per card in the pile, 1 / (1 + depth from the top)", CARDS),
        ("discard_top: the top discard", CARDS),
        ("stock_top: the next stock card when the stock's order is public", CARDS),
        ("stock: size / 108, order public, turnovers / 4 clipped", 3),
        ("taken: the card taken from the pile this turn", CARDS),
        ("obligations: cards that must be melded or laid off this turn", CARDS),
        ("table: every card in a meld", CARDS),
        (
            "melds: per meld index (36 slots) present, run, own, jokers / 4, then the 52 "
            "faces its natural cards and run jokers stand for",
            MAX_MELDS * _MELD_SLOT,
        ),
        ("phase: draw, play, over", 3),
        ("to_act: relative seat", n),
        ("dealer: relative seat", n),
        ("turn: melds made this turn / 4, turns this round / 500 (both clipped)", 2),
        ("scores: per relative seat, / 100 clipped", n),
        ("closes: per relative seat, rounds gone out / 10 clipped", n),
    )


def _cards(f: Features, texts: tuple[str, ...] | None) -> None:
    """A section of :data:`CARDS` slots: 1 for each card of ``texts``."""
    base = f.pos
    f.skip(CARDS)
    if texts:
        data = f.data
        for t in texts:
            data[base + _PHYS[t]] = 1.0


@lru_cache(maxsize=8192)
def _mask(texts: tuple[str, ...] | None) -> int:
    """The physical cards of a tuple of card texts as a mask (memoised: hands, the
    discard pile and the melds repeat from step to step)."""
    m = 0
    for t in texts or ():
        m |= 1 << _PHYS[t]
    return m


_PILE_SIZE: Final = 3 * CARDS
"""The discard pile's sections: its cards, their depths, the top card."""
_LAST_PILES: list[tuple[tuple[str, ...], array[float]]] = []
"""The discard piles last encoded, newest first (a pile often stays for a step or two)."""


def _pile(discard: tuple[str, ...]) -> array[float] | None:
    """The discard pile's sections (``None``: all zero), memoised for the last two."""
    if not discard:
        return None
    for old, block in _LAST_PILES:
        if old == discard:
            return block
    f = Features(_PILE_SIZE)
    data = f.data
    depth = len(discard)
    c = -1
    for text in discard:
        c = _PHYS[text]
        data[c] = 1.0
        data[CARDS + c] = 1 / depth
        depth -= 1
    data[2 * CARDS + c] = 1.0
    _LAST_PILES.insert(0, (discard, data))
    del _LAST_PILES[2:]
    return data


_TABLE_SIZE: Final = CARDS + MAX_MELDS * _MELD_SLOT
"""The table's sections: every card in a meld, then the meld slots."""
_LAST_TABLE: list[tuple[tuple[MeldView, ...], dict[int | None, array[float] | None]]] = []
"""The melds last encoded and their sections per viewing seat (a view shares its melds
with the views before it until a meld changes)."""


def _table(melds: tuple[MeldView, ...], seat: int | None) -> array[float] | None:
    """The table and meld sections of ``melds`` seen from ``seat`` (``None``: all zero),
    memoised for the last melds seen."""
    last = _LAST_TABLE[0] if _LAST_TABLE else None
    if last is None or last[0] is not melds:
        last = (melds, {})
        _LAST_TABLE[:] = [last]
    by_seat = last[1]
    if seat in by_seat:
        return by_seat[seat]
    out: array[float] | None = None
    if melds:
        f = Features(_TABLE_SIZE)
        table = 0
        count = min(len(melds), MAX_MELDS)
        for i in range(count):
            table |= _meld(melds[i].cards)[0]
        f.bits(table, CARDS)
        slot_base = f.pos
        for i in range(count):
            meld = melds[i]
            _, faces, jokers = _meld(meld.cards)
            f.pos = slot_base + i * _MELD_SLOT
            f.number(1.0)
            f.number(1.0 if meld.kind == "run" else 0.0)
            f.number(1.0 if meld.owner == seat else 0.0)
            f.number(jokers / 4)
            f.bits(faces, 52)
        out = f.data[:_TABLE_SIZE]
    by_seat[seat] = out
    return out


@lru_cache(maxsize=4096)
def _meld(cards: tuple[str, ...]) -> tuple[int, int, int]:
    """A meld's physical cards (mask), the faces it stands for (mask) and its jokers."""
    table = faces = jokers = 0
    for text in cards:
        c, face = _slot(text)
        table |= 1 << c
        jokers += c >= JOKER0
        if face >= 0:
            faces |= 1 << face
    return table, faces, jokers


def _slot(text: str) -> tuple[int, int]:
    """A meld slot's physical card and the face it stands for (``-1``: a set joker)."""
    card, _, meaning = text.partition("=")
    c = _PHYS[card]
    if c < JOKER0:
        return c, c % 52
    if meaning.endswith("*"):
        return c, -1
    return c, parse_face(meaning)


class RummyEncoding:
    """The research encoding of Rummy (see the module doc)."""

    num_distinct_actions = NUM_IDS
    """430 ids (see the module doc)."""

    def __reduce__(self) -> str:
        # Pickled as the module's one instance.
        return "ENCODING"

    def action_ids(self, view: RummyView, action: RummyAction) -> tuple[int, ...]:
        """The ids naming ``action`` (see the module doc)."""
        kind = action.kind
        if kind == DRAW:
            return (DRAW_ID,)
        if kind == TAKE:
            return (TAKE_CARD + _PHYS[view.discard[-1 - action.target]],)
        if kind == DISCARD:
            return (DISCARD_CARD + action.cards[0],)
        if kind == MELD:
            cards = sorted(action.cards)
            # A run's jokers stand for distinct faces; a set's all stand for its one rank,
            # named once (the joker cards say how many), so no id repeats.
            meanings = sorted(
                {m for c, m in zip(action.cards, action.meanings, strict=True) if c >= JOKER0}
            )
            return (
                MELD_ID,
                *(HAND_CARD + c for c in cards),
                *(_meaning_id(m) for m in meanings),
                COMMIT,
            )
        if kind == LAYOFF:
            c = action.cards[0]
            ids = (LAYOFF_ID, HAND_CARD + c, MELD_INDEX + action.target)
            return (*ids, _meaning_id(action.meanings[0])) if c >= JOKER0 else ids
        if kind == SWAP:
            return (SWAP_ID, HAND_CARD + action.cards[0], MELD_INDEX + action.target)
        raise ValueError(f"not a Rummy action: {action!r}")

    def id_text(self, action_id: int) -> str:
        """What an id means (``discard 7H'``, ``card JK``, ``meld 3``…)."""
        if action_id == DRAW_ID:
            return "draw"
        if action_id < DISCARD_CARD:
            return f"take {card_text(action_id - TAKE_CARD)}"
        if action_id < MELD_ID:
            return f"discard {card_text(action_id - DISCARD_CARD)}"
        if action_id <= SWAP_ID:
            return ("meld", "lay off", "swap")[action_id - MELD_ID]
        if action_id < MELD_INDEX:
            return f"card {card_text(action_id - HAND_CARD)}"
        if action_id < RUN_JOKER:
            return f"meld {action_id - MELD_INDEX + 1}"
        if action_id < SET_JOKER:
            return f"joker as {card_text(action_id - RUN_JOKER)}"
        if action_id < COMMIT:
            return f"joker as rank {action_id - SET_JOKER + 1}"
        return "commit"

    def observation_size(self, players: int) -> int:
        """The length of an observation for ``players`` seats."""
        return _size(players)

    def observe(self, view: RummyView) -> Features:
        """The view in the layout of :func:`layout`."""
        n = view.players
        me = view.seat or 0
        f = Features(_size(n) + NUM_IDS)
        _cards(f, view.hand)
        known = view.known_in_hand
        for k in range(n):
            _cards(f, known[(me + k) % n])
        sizes = view.hand_sizes
        for k in range(n):
            f.number(sizes[(me + k) % n] / 20)
        pile = _pile(view.discard)
        base = f.pos
        f.skip(_PILE_SIZE)
        if pile is not None:
            f.data[base : base + _PILE_SIZE] = pile
        stock = view.stock
        f.one_hot(_PHYS[stock[0]] if stock else -1, CARDS)
        f.number(view.stock_size / CARDS)
        f.number(0.0 if stock is None else 1.0)
        f.number(view.turnovers / 4)
        taken = view.taken
        f.one_hot(_PHYS[taken] if taken else -1, CARDS)
        _cards(f, view.obligations)
        table = _table(view.melds, view.seat)
        if table is not None:
            f.reserve(_TABLE_SIZE)
            f.data[f.pos : f.pos + _TABLE_SIZE] = table
        f.skip(_TABLE_SIZE)
        f.one_hot(_PHASES.get(view.phase, -1), 3)
        to_act = view.to_act
        f.one_hot(-1 if to_act is None or to_act < 0 else (to_act - me) % n, n)
        f.one_hot(-1 if view.dealer < 0 else (view.dealer - me) % n, n)
        f.number(view.melds_this_turn / 4)
        f.number(view.turn / 500)
        scores = view.scores
        for k in range(n):
            f.number(scores[(me + k) % n] / 100)
        closes = view.closes
        for k in range(n):
            f.number(closes[(me + k) % n] / 10)
        return f

    card_count = CARDS
    """108 physical cards."""

    def hand(self, view: RummyView) -> int:
        """The seat's hand as a mask of physical cards."""
        return _mask(view.hand)

    def private_id(self, action_id: int) -> bool:
        """No secret ids (the card drawn from the stock reaches only the drawer's hand, as
        a received-card token of its information state)."""
        return False

    def history_capacity(self, players: int) -> int:
        """History tokens of a round: with the default 500-turn limit, a draw and a
        discard per turn, the received cards, and the ids of melds and lay-offs."""
        return HISTORY_CAPACITY


_SIZES: dict[int, int] = {}
"""The observation's length per number of seats, once computed."""


def _size(players: int) -> int:
    """The observation's length for ``players`` seats (memoised)."""
    size = _SIZES.get(players)
    if size is None:
        size = _SIZES[players] = sum(k for _, k in layout(players))
    return size


def _meaning_id(meaning: int) -> int:
    """The id of a joker's meaning: a face in a run, or ``SETJ + rank - 1`` in a set."""
    return SET_JOKER + meaning - SETJ if meaning >= SETJ else RUN_JOKER + meaning


ENCODING = RummyEncoding()
"""The encoding :meth:`cardtable.core.game.Game.encoding` finds for Rummy."""
