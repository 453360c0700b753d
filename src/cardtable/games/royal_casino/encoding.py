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

from cardtable.cards import format_card
from cardtable.core.encoding import Features
from cardtable.games.royal_casino.state import Kind, RoyalCasinoAction
from cardtable.games.royal_casino.view import RoyalCasinoView

__all__ = ["ENCODING", "RoyalCasinoEncoding", "layout"]

PLAY = 0
TRAIL = 52
CAPTURE = 53
BUILD_SINGLE = 54
BUILD_MULTI = 67
ADD = 80
RAISE = 81
BUILD_CARD = 82
LOOSE_CARD = 134
COMMIT = 186
NUM_IDS = 187
HISTORY_CAPACITY = 384

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

    def action_ids(self, view: RoyalCasinoView, action: RoyalCasinoAction) -> tuple[int, ...]:
        """The ids naming ``action`` (see the module doc)."""
        kind = action.kind
        if kind == Kind.TRAIL:
            return (PLAY + action.card, TRAIL)
        ids = [PLAY + action.card]
        if kind == Kind.CAPTURE:
            ids.append(CAPTURE)
        elif kind == Kind.BUILD:
            ids.append((BUILD_MULTI if action.multi else BUILD_SINGLE) + action.value - 2)
        else:
            ids.append(ADD if kind == Kind.ADD else RAISE)
        lowest = sorted(
            _lowest(view.builds[i].mask) for i in range(len(view.builds)) if action.builds >> i & 1
        )
        ids += [BUILD_CARD + c for c in lowest]
        loose = action.loose
        while loose:
            low = loose & -loose
            ids.append(LOOSE_CARD + low.bit_length() - 1)
            loose ^= low
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
        sides = _sides(n)
        me = view.seat or 0
        my_side = me % 2 if n == 4 else me

        def rel(seat: int) -> int:
            return (seat - me) % n

        f = Features()
        f.bits(view.hand or 0, 52)
        f.bits(view.loose, 52)
        in_builds = 0
        lowest = 0
        owners = [0] * n
        for b in view.builds:
            in_builds |= b.mask
            lowest |= b.mask & -b.mask
            owners[rel(b.owner)] |= b.mask
        f.bits(in_builds, 52)
        f.bits(lowest, 52)
        for b in view.builds:
            m = b.mask
            while m:
                low = m & -m
                c = low.bit_length() - 1
                f.at(c, b.value / 14)
                f.at(52 + c, float(b.multi))
                m ^= low
        f.skip(2 * 52)
        for k in range(n):
            f.bits(owners[k], 52)
        order = [(my_side + k) % sides for k in range(sides)]
        for side in order:
            f.bits(view.piles[side], 52)
        f.numbers(view.sweeps[side] / 10 for side in order)
        f.numbers(view.scores[side] / 21 for side in order)
        f.numbers(view.hand_sizes[(me + k) % n] / 4 for k in range(n))
        f.number(view.stock_size / 48)
        f.one_hot(rel(view.last_capturer) if view.last_capturer >= 0 else -1, n)
        f.one_hot(rel(view.dealer), n)
        f.one_hot(rel(view.turn) if view.turn >= 0 and not view.over else -1, n)
        f.numbers((view.playoff, view.over))
        f.numbers(view.options[k] == v for k, v in _OPTION_FLAGS)
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
    return (mask & -mask).bit_length() - 1


ENCODING = RoyalCasinoEncoding()
"""The encoding :meth:`cardtable.core.game.Game.encoding` finds for Royal Casino."""
