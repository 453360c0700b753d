"""Royal Mastheads: options, the resolved rule configuration, phases and the frozen state.

Cards are dense ints ``0..51`` (``suit * 13 + rank - 1``, suits S H D C); a hand is a
52-bit mask.  An action is an int: ``0..51`` plays that card, ``52..103`` puts card
``action - 52`` into the pot (one card per action, M-7).

Option precedence: ``ruleset`` (``pagat`` or ``russian``) sets every rule the two rulesets
differ in; each individual option (``aces``, ``ace_points``, ``doubled``, ``trumps_bonus``,
``count_bonus``) defaults to the value ``ruleset``, meaning "whatever the ruleset says",
and any other value overrides the ruleset for that one rule.

>>> cfg = config_of(OPTIONS.validate({"ruleset": "russian"}))
>>> cfg.ace_high, cfg.ace_points, cfg.double_trumps, cfg.trumps_bonus, cfg.count_trumps
(True, 10, True, 1000, True)
>>> cfg = config_of(OPTIONS.validate({"ruleset": "russian", "aces": "low"}))
>>> cfg.ace_high, cfg.ace_points
(False, 10)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum
from typing import Any, Final, NamedTuple

from cardtable.core.game import Scope
from cardtable.core.options import Options, OptionSchema, OptionSpec

__all__ = [
    "BIT",
    "DEALS_DEFAULT",
    "NO_CARD",
    "OPTIONS",
    "POT_BASE",
    "RANK",
    "SUIT",
    "SUIT_MASK",
    "Config",
    "DealInfo",
    "Phase",
    "RoyalMastheadsAction",
    "RoyalMastheadsState",
    "Trick",
    "config_of",
    "is_validated",
    "pot_owner",
    "totals_of",
]

POT_BASE: Final = 52
"""Actions ``POT_BASE + card`` put ``card`` into the pot; actions ``0..51`` play a card."""
NO_CARD = -1
"""Marks "no card" where an int is expected."""
DEALS_DEFAULT = 10
"""A set is 10 deals (M-17)."""

BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(52))
"""The mask bit of each card."""
RANK: Final[tuple[int, ...]] = tuple(c % 13 + 1 for c in range(52))
"""The face rank (ace 1 … king 13) of each card."""
SUIT: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
"""The suit (0 spades, 1 hearts, 2 diamonds, 3 clubs) of each card."""
SUIT_MASK: Final[tuple[int, ...]] = tuple(0x1FFF << (13 * s) for s in range(4))
"""The mask of all 13 cards of each suit."""

_RULESET = "ruleset"

OPTIONS = OptionSchema(
    (
        OptionSpec(
            "ruleset",
            "choice",
            "pagat",
            ("pagat", "russian"),
            help="pagat: the original game (default); russian: the Russian page read literally",
        ),
        OptionSpec(
            "aces",
            "choice",
            _RULESET,
            (_RULESET, "low", "high"),
            help="ace rank (M-2): low (pagat) or high (russian); 'ruleset' follows ruleset",
        ),
        OptionSpec(
            "acePoints",
            "choice",
            _RULESET,
            (_RULESET, "-10", "10"),
            help="points per captured ace (M-13): -10 (pagat) or 10 (russian)",
        ),
        OptionSpec(
            "doubled",
            "choice",
            _RULESET,
            (_RULESET, "masthead", "trumps"),
            help="what scores double (M-14): the masthead rank (pagat) or the trump suit",
        ),
        OptionSpec(
            "trumpsBonus",
            "choice",
            _RULESET,
            (_RULESET, "2000", "1000"),
            help="bonus for capturing all 13 trumps (M-15): 2000 (pagat) or 1000 (russian)",
        ),
        OptionSpec(
            "countBonus",
            "choice",
            _RULESET,
            (_RULESET, "mastheads", "trumps"),
            help="25/50 bonus for 3/4 mastheads (pagat) or exactly 3/4 trumps (russian), M-15",
        ),
        OptionSpec(
            "deals",
            "int",
            DEALS_DEFAULT,
            help="deals in a set (M-17)",
            minimum=1,
            maximum=1000,
        ),
        OptionSpec(
            "tiebreak",
            "choice",
            "co-winners",
            ("co-winners", "extra-deals"),
            help="equal highest totals: co-winners, or extra deals until one player leads",
        ),
    )
)
"""The declared options of Royal Mastheads."""


class Phase(IntEnum):
    """Where a deal stands: choosing pot cards, playing tricks, or the game is over."""

    POT = 0
    PLAY = 1
    OVER = 2


@dataclass(frozen=True, slots=True)
class Config:
    """The rules in force, resolved from the options (see the module doc for precedence)."""

    options: Options
    ruleset: str
    ace_high: bool
    """M-2: aces rank above kings (``russian``) rather than below twos (``pagat``)."""
    ace_points: int
    """M-13: points per captured ace, before any masthead doubling."""
    double_trumps: bool
    """M-14: trump-suit cards score double (``russian``); else the masthead rank does."""
    trumps_bonus: int
    """M-15: the bonus for all 13 trumps."""
    count_trumps: bool
    """M-15: the 25/50 bonus counts trump-suit cards (exactly 3 / exactly 4), not mastheads."""
    deals: int
    extra_deals: bool
    text: str = field(default="", compare=False)
    """The options that differ from the defaults as ``k:v`` words (:func:`config_of` fills
    it in): what a view shows, and a cheap key for tables worked out per rule set."""

    @property
    def uses_masthead(self) -> bool:
        """True when the masthead rank affects scoring under these rules."""
        return not self.double_trumps or not self.count_trumps

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


_CONFIGS: dict[Options, Config] = {}


def is_validated(options: Options) -> bool:
    """True for options this game has already validated (and resolved)."""
    return options in _CONFIGS


def config_of(options: Options) -> Config:
    """The resolved configuration of validated options (cached; configs are shared)."""
    cfg = _CONFIGS.get(options)
    if cfg is not None:
        return cfg
    ruleset = str(options["ruleset"])
    russian = ruleset == "russian"

    def pick(name: str, pagat: str, rus: str) -> str:
        value = str(options[name])
        if value == _RULESET:
            return rus if russian else pagat
        return value

    cfg = Config(
        options=options,
        ruleset=ruleset,
        ace_high=pick("aces", "low", "high") == "high",
        ace_points=int(pick("acePoints", "-10", "10")),
        double_trumps=pick("doubled", "masthead", "trumps") == "trumps",
        trumps_bonus=int(pick("trumpsBonus", "2000", "1000")),
        count_trumps=pick("countBonus", "mastheads", "trumps") == "trumps",
        deals=int(options["deals"]),
        extra_deals=options["tiebreak"] == "extra-deals",
        text=OPTIONS.format_non_default(options),
    )
    _CONFIGS[options] = cfg
    return cfg


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, who won, and the four cards in the order played."""

    leader: int
    winner: int
    cards: tuple[int, int, int, int]

    def player_of(self, index: int) -> int:
        """The seat that played ``cards[index]``."""
        return (self.leader + index) & 3

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


@dataclass(frozen=True, slots=True)
class DealInfo:
    """What stays fixed during one deal: rules, seed, deal number, dealer, turned card and
    the scores of the deals already scored."""

    cfg: Config
    seed: int
    scope: Scope
    number: int
    """The deal's number in the set, from 1."""
    dealer: int
    turned: int
    """The card shown to everyone (M-5): its suit is trumps, its rank the masthead rank."""
    history: tuple[tuple[int, int, int, int], ...]
    """Each scored deal's scores by seat (the current deal's too once the game is over)."""
    totals: tuple[int, int, int, int]
    """Each seat's total over ``history`` (kept alongside it, so long sets stay fast)."""

    @property
    def trumps(self) -> int:
        """The trump suit (0..3)."""
        return self.turned // 13

    @property
    def masthead(self) -> int:
        """The masthead rank (1..13)."""
        return self.turned % 13 + 1

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its fields (a compiled frozen class cannot be restored attribute by
        # attribute, which is pickle's default; process pools send these).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


RoyalMastheadsAction = int
"""An action: a card index 0-51 (played to a trick, or put into the pot).

The same name as ``RoyalCasinoAction`` and ``RummyAction`` in the other games."""


class RoyalMastheadsState(NamedTuple):
    """A Royal Mastheads position: an immutable value (a named tuple: no per-instance dict,
    and about three times cheaper to create than a frozen slotted dataclass, which matters
    because one is made on every action; measured, see the decisions doc).

    ``hands`` are card masks by seat; ``pot`` the pot cards in the order chosen (cards
    ``2k`` and ``2k+1`` belong to the seat ``k + 1`` places left of the dealer); ``trick``
    the cards of the current trick from its ``leader``; ``tricks`` the completed tricks.

    Hot paths build it as ``tuple.__new__(RoyalMastheadsState, (...))`` with every field:
    the same value, without the Python frame of the generated ``__new__``.
    """

    info: DealInfo
    phase: Phase
    hands: tuple[int, ...]
    """The four hands by seat (typed as a tuple of any length, which the compiled modules
    keep as one object: a fixed-length tuple type would be unboxed into four C ints on every
    read and boxed again for ``hands[seat]``)."""
    pot: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    tricks: tuple[Trick, ...]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        if self.phase is Phase.PLAY:
            return (self.leader + len(self.trick)) & 3
        if self.phase is Phase.POT:
            return (self.info.dealer + 1 + (len(self.pot) >> 1)) & 3
        return None


def totals_of(history: tuple[tuple[int, int, int, int], ...]) -> tuple[int, int, int, int]:
    """Each seat's total over a history of deal scores.

    >>> totals_of(((702, 7, 6, 0), (-10, 20, 5, 5)))
    (692, 27, 11, 5)
    """
    t = [0, 0, 0, 0]
    for row in history:
        for i in range(4):
            t[i] += row[i]
    return (t[0], t[1], t[2], t[3])


def pot_owner(dealer: int, index: int) -> int:
    """The seat that put the ``index``-th pot card (0..7) into the pot.

    >>> [pot_owner(3, i) for i in range(8)]
    [0, 0, 1, 1, 2, 2, 3, 3]
    """
    return (dealer + 1 + (index >> 1)) & 3
