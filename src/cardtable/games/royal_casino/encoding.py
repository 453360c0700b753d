"""Royal Casino for learning environments: action ids and the observation layout.

**Actions** (187 ids).  A move is named by a short sequence of ids, so that captures and
builds of any set of cards need no id per subset:

==========  =======  ==========================================================
ids         count    meaning
==========  =======  ==========================================================
0-51        52       play this card from the hand (always the first id)
52          1        trail (the move is complete)
53          1        capture
54-66       13       build a *single* build of value 2-14
67-79       13       build a *multiple* build of value 2-14
80          1        add to a build
81          1        raise a build
82-133      52       take / add to / raise the build whose lowest card is this one
134-185     52       use this loose card
186         1        commit (the move is complete)
==========  =======  ==========================================================

A trail is ``[card, 52]``; a capture ``[card, 53, builds…, loose…, 186]``; a build
``[card, 54+v-2 or 67+v-2, loose…, 186]``; an add ``[card, 80, build, loose…, 186]``; a
raise ``[card, 81, build, loose…, 186]``.  Builds and loose cards come in ascending card
order (so within one move the ids are distinct and ascending after the kind).  The
capture value, a raise's new value and whether it is multiple all follow from the cards.

**Observation** (:func:`layout`; 543 numbers for two players, 653 for three, 655
for four; all in ``[-1, 1]``).  Seats are *relative* to the observer (slot 0 is the
observer, slot ``k`` the seat ``k`` places later in seat order); sides likewise (slot 0 is
the observer's side).  Cards are 52 slots in index order (``suit * 13 + rank - 1``).

>>> from cardtable.games.royal_casino import GAME
>>> s = GAME.new_game(2, seed=2, scope="unit")
>>> size = ENCODING.observe(GAME.view(s, 0)).pos
>>> size == ENCODING.observation_size(2) == sum(n for _, n in layout(2))
True
"""

from __future__ import annotations

from typing import Final

from cardtable.cards import format_card
from cardtable.core.encoding import Features
from cardtable.games.royal_casino.state import Kind, RoyalCasinoAction
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = ["ENCODING", "RoyalCasinoEncoding", "layout"]

PLAY: Final = 0
TRAIL: Final = 52
CAPTURE: Final = 53
BUILD_SINGLE: Final = 54
BUILD_MULTI: Final = 67
ADD: Final = 80
RAISE: Final = 81
BUILD_CARD: Final = 82
LOOSE_CARD: Final = 134
COMMIT: Final = 186
NUM_IDS: Final = 187
_TRAIL_KIND: Final = int(Kind.TRAIL)
_CAPTURE_KIND: Final = int(Kind.CAPTURE)
_BUILD_KIND: Final = int(Kind.BUILD)
_ADD_KIND: Final = int(Kind.ADD)
HISTORY_CAPACITY: Final = 384

_OPTION_FLAGS: tuple[tuple[str, object], ...] = (
    ("direction", "CW"),
    ("rule20", "MOST_SPADES"),
    ("nearTargetMiss", "CAP_AT_20"),
    ("sweeps", "ON"),
    ("lastPlaySweepCounts", True),
    ("partnerBuildInteraction", "ALLOWED"),
    ("raiseAbsorbsLoose", True),
    ("sameValueBuildsCoexist", True),
)
"""Each option flag of the observation: 1 when the option has this value."""


def _sides(players: int) -> int:
    return 2 if players == 4 else players


def layout(players: int) -> tuple[tuple[str, int], ...]:
    """The observation's sections for ``players`` seats in order: (meaning, length)."""
    n, sides = players, _sides(players)
    return (
        ("hand: own cards", 52),
        ("loose: loose cards on the table", 52),
        ("build_cards: cards in builds", 52),
        ("build_lowest: the lowest card of each build (the card that names it)", 52),
        ("build_value: per card, the value of its build / 14", 52),
        ("build_multi: per card, its build is multiple", 52),
        ("build_owner: per relative seat, the cards of the builds it owns", n * 52),
        ("piles: per relative side, the cards it has captured", sides * 52),
        ("sweeps: per relative side, /10 clipped", sides),
        ("scores: per relative side, match score / 21 clipped", sides),
        ("hand_sizes: per relative seat, /4", n),
        ("stock: stock size / 48", 1),
        ("last_capturer: relative seat", n),
        ("dealer: relative seat", n),
        ("turn: relative seat to play", n),
        ("flags: play-off, game over", 2),
        ("options: " + ", ".join(f"{k}={v}" for k, v in _OPTION_FLAGS), len(_OPTION_FLAGS)),
    )


class RoyalCasinoEncoding:
    """The research encoding of Royal Casino (see the module doc)."""

    num_distinct_actions = NUM_IDS
    """187 ids (see the module doc)."""

    def __reduce__(self) -> str:
        # Pickled as the module's one instance.
        return "ENCODING"

    def action_ids(self, view: RoyalCasinoView, action: RoyalCasinoAction) -> tuple[int, ...]:
        """The ids naming ``action`` (see the module doc)."""
        kind = int(action.kind)
        if kind == _TRAIL_KIND:
            return (PLAY + action.card, TRAIL)
        ids = [PLAY + action.card]
        if kind == _CAPTURE_KIND:
            ids.append(CAPTURE)
        elif kind == _BUILD_KIND:
            ids.append((BUILD_MULTI if action.multi else BUILD_SINGLE) + action.value - 2)
        else:
            ids.append(ADD if kind == _ADD_KIND else RAISE)
        chosen = action.builds
        if chosen:
            lowest = []
            builds = view.builds
            for i in range(len(builds)):
                if chosen >> i & 1:
                    lowest.append(_lowest(builds[i].mask))
            lowest.sort()
            for c in lowest:
                ids.append(BUILD_CARD + c)
        loose = action.loose
        c = 0
        while loose:
            if loose & 1:
                ids.append(LOOSE_CARD + c)
            loose >>= 1
            c += 1
        ids.append(COMMIT)
        return tuple(ids)

    def id_text(self, action_id: int) -> str:
        """What an id means (``play 7H``, ``capture``, ``loose 3C``…)."""
        if action_id < TRAIL:
            return f"play {format_card(action_id)}"
        if action_id == TRAIL:
            return "trail"
        if action_id == CAPTURE:
            return "capture"
        if action_id < BUILD_MULTI:
            return f"build single {action_id - BUILD_SINGLE + 2}"
        if action_id < ADD:
            return f"build multiple {action_id - BUILD_MULTI + 2}"
        if action_id == ADD:
            return "add"
        if action_id == RAISE:
            return "raise"
        if action_id < LOOSE_CARD:
            return f"build {format_card(action_id - BUILD_CARD)}"
        if action_id < COMMIT:
            return f"loose {format_card(action_id - LOOSE_CARD)}"
        return "commit"

    def observation_size(self, players: int) -> int:
        """The length of an observation for ``players`` seats."""
        return sum(n for _, n in layout(players))

    def observe(self, view: RoyalCasinoView) -> Features:
        """The view in the layout of :func:`layout`."""
        n = view.players
        sides = 2 if n == 4 else n
        me = view.seat or 0
        my_side = me % 2 if n == 4 else me
        f = Features(_SIZES[n] + NUM_IDS if n in _SIZES else 0)
        f.bits(view.hand or 0, 52)
        f.bits(view.loose, 52)
        in_builds = 0
        lowest = 0
        owners = [0] * n
        for b in view.builds:
            in_builds |= b.mask
            lowest |= b.mask & -b.mask
            owners[(b.owner - me) % n] |= b.mask
        f.bits(in_builds, 52)
        f.bits(lowest, 52)
        for b in view.builds:
            m = b.mask
            scaled = b.value / 14
            multi = 1.0 if b.multi else 0.0
            c = 0
            while m:
                if m & 1:
                    f.at(c, scaled)
                    f.at(52 + c, multi)
                m >>= 1
                c += 1
        f.skip(2 * 52)
        for k in range(n):
            f.bits(owners[k], 52)
        for k in range(sides):
            f.bits(view.piles[(my_side + k) % sides], 52)
        for k in range(sides):
            f.number(view.sweeps[(my_side + k) % sides] / 10)
        for k in range(sides):
            f.number(view.scores[(my_side + k) % sides] / 21)
        for k in range(n):
            f.number(view.hand_sizes[(me + k) % n] / 4)
        f.number(view.stock_size / 48)
        f.one_hot((view.last_capturer - me) % n if view.last_capturer >= 0 else -1, n)
        f.one_hot((view.dealer - me) % n, n)
        f.one_hot((view.turn - me) % n if view.turn >= 0 and not view.over else -1, n)
        f.number(1.0 if view.playoff else 0.0)
        f.number(1.0 if view.over else 0.0)
        options = view.options
        for name, setting in _OPTION_FLAGS:
            f.number(1.0 if options[name] == setting else 0.0)
        return f

    card_count = 52
    """52 cards."""

    def hand(self, view: RoyalCasinoView) -> int:
        """The seat's hand as a card mask."""
        return view.hand or 0

    def private_id(self, action_id: int) -> bool:
        """No secret moves: every id is public once its move is complete."""
        return False

    def history_capacity(self, players: int) -> int:
        """History tokens of a hand: every played card, each with at most its kind, the
        builds and loose cards it takes or joins and a commit, and every dealt card."""
        return HISTORY_CAPACITY


def _lowest(mask: int) -> int:
    c = 0
    while mask and not mask & 1:
        mask >>= 1
        c += 1
    return c


_SIZES: dict[int, int] = {n: sum(k for _, k in layout(n)) for n in (2, 3, 4)}
"""The observation's length per number of seats."""


ENCODING = RoyalCasinoEncoding()
"""The encoding :meth:`cardtable.core.game.Game.encoding` finds for Royal Casino."""
