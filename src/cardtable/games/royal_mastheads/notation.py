"""Royal Mastheads notation: actions and positions (see ``docs/notation-royal-mastheads.md``).

Actions: ``pot 2C`` (one card into the pot, M-7) and ``play KS``.  Input is lenient: any
case, ``T`` or ``10`` for ten, suit symbols, and a bare card (``ks``) takes the verb the
phase calls for.

>>> format_action(52 + 14), format_action(51)
('pot 2H', 'play KC')
>>> from cardtable.games.royal_mastheads.rules import new_match
>>> from cardtable.games.royal_mastheads.state import OPTIONS
>>> s, _ = new_match(OPTIONS.defaults(), seed=3)
>>> parse_action(s, "pot 10♦") == parse_action(s, "Td") == 52 + 35
True

A position is one line of ``;``-separated fields; it round-trips exactly.  Seats in it
(the dealer, each trick's winner) are written ``P1`` … ``P4``; version-1 records wrote
``0`` … ``3``, which :func:`migrate_position` rewrites:

>>> parse_position(format_position(s)) == s
True
"""

from __future__ import annotations

from cardtable.cards import format_card, format_mask, mask_of, parse_card
from cardtable.core.errors import CardtableError, InvalidNotationError, InvalidPositionError
from cardtable.core.game import Scope
from cardtable.core.seats import parse_seat, seat_name
from cardtable.games.royal_mastheads.engine import playable, trick_winner
from cardtable.games.royal_mastheads.rules import is_over_after
from cardtable.games.royal_mastheads.scoring import score_deal
from cardtable.games.royal_mastheads.state import (
    BIT,
    OPTIONS,
    POT_BASE,
    SUIT,
    Config,
    DealInfo,
    Phase,
    RoyalMastheadsState,
    Trick,
    config_of,
    pot_owner,
    totals_of,
)

__all__ = [
    "GAME_TAG",
    "V1_OPTION_NAMES",
    "format_action",
    "format_position",
    "migrate_option_name",
    "migrate_position",
    "parse_action",
    "parse_position",
]

GAME_TAG = "royal-mastheads"
"""The first field of every position."""
_FIELDS = (
    "options",
    "scope",
    "seed",
    "deal",
    "dealer",
    "scores",
    "turned",
    "hands",
    "pot",
    "tricks",
    "trick",
)


# -- actions ------------------------------------------------------------------------------
def format_action(action: int) -> str:
    """The canonical text of an action: ``pot 2C`` or ``play KS``."""
    if action >= POT_BASE:
        return "pot " + format_card(action - POT_BASE)
    return "play " + format_card(action)


def _card(text: str) -> int:
    try:
        card = parse_card(text)
    except ValueError as e:
        raise InvalidNotationError(str(e)) from None
    if card >= 52:
        raise InvalidNotationError(f"there are no jokers in Royal Mastheads: {text!r}")
    return card


def parse_action(state: RoyalMastheadsState, text: str) -> int:
    """Read an action; a bare card takes the verb of the phase (``pot`` or ``play``).

    >>> from cardtable.games.royal_mastheads.rules import new_match
    >>> from cardtable.games.royal_mastheads.state import OPTIONS
    >>> s, _ = new_match(OPTIONS.defaults(), seed=3)
    >>> parse_action(s, "pot 2C 3D")
    Traceback (most recent call last):
    ...
    cardtable.core.errors.InvalidNotationError: one card per action: write 'pot 2C', then 'pot 3D'
    """
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidNotationError("empty action; write e.g. 'play KS' or 'pot 2C'")
    verb = words[0].lower()
    if verb in ("pot", "play"):
        cards = words[1:]
    else:
        verb = "pot" if state.phase is Phase.POT else "play"
        cards = words
    if len(cards) != 1:
        if verb == "pot" and len(cards) == 2:
            a, b = (format_card(_card(c)) for c in cards)
            raise InvalidNotationError(f"one card per action: write 'pot {a}', then 'pot {b}'")
        raise InvalidNotationError(f"write one card after {verb!r}, e.g. '{verb} KS'; got {text!r}")
    card = _card(cards[0])
    return card + POT_BASE if verb == "pot" else card


# -- positions ----------------------------------------------------------------------------
def _cards_text(cards: tuple[int, ...]) -> str:
    return " ".join(format_card(c) for c in cards) if cards else "-"


def format_position(state: RoyalMastheadsState) -> str:
    """The canonical one-line text of a position (fields in a fixed order).

    ``royal-mastheads; options …; scope …; seed …; deal …; dealer …; scores …;
    turned …; hands …/…/…/…; pot …; tricks Pw:c c c c, …; trick …`` — see the notation doc.
    """
    info = state.info
    opts = OPTIONS.format_non_default(info.cfg.options) or "-"
    scores = ", ".join(" ".join(str(x) for x in row) for row in info.history) or "-"
    hands = " / ".join(format_mask(h) or "-" for h in state.hands)
    tricks = ", ".join(f"{seat_name(t.winner)}:{_cards_text(t.cards)}" for t in state.tricks)
    return (
        f"{GAME_TAG}; options {opts}; scope {info.scope}; seed {info.seed}; "
        f"deal {info.number}; dealer {seat_name(info.dealer)}; scores {scores}; "
        f"turned {format_card(info.turned)}; hands {hands}; pot {_cards_text(state.pot)}; "
        f"tricks {tricks or '-'}; trick {_cards_text(state.trick)}"
    )


def _bad(reason: str) -> InvalidPositionError:
    return InvalidPositionError(f"not a Royal Mastheads position: {reason}")


def _int(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise _bad(f"{name} must be a whole number; got {text!r}") from None


def _seat(name: str, text: str) -> int:
    try:
        return parse_seat(text, 4)
    except InvalidNotationError as e:
        raise _bad(f"{name}: {e}") from None


def _card_list(name: str, text: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    try:
        return tuple(_card(w) for w in text.split())
    except InvalidNotationError as e:
        raise _bad(f"{name}: {e}") from None


def parse_position(text: str) -> RoyalMastheadsState:
    """Read a position written by :func:`format_position`; reject anything unreachable
    (cards not conserved, wrong hand sizes, a revoke, a wrong trick winner, wrong scores)."""
    fields = _fields_of(text)
    try:
        options = OPTIONS.parse_words("" if fields["options"] == "-" else fields["options"])
    except CardtableError as e:
        raise _bad(f"options: {e}") from None
    cfg = config_of(options)
    scope_text = fields["scope"]
    if scope_text not in ("match", "unit"):
        raise _bad("scope must be 'match' or 'unit'")
    scope: Scope = "match" if scope_text == "match" else "unit"
    seed = _int("seed", fields["seed"])
    number = _int("deal", fields["deal"])
    dealer = _seat("dealer", fields["dealer"])
    if number < 1:
        raise _bad("deal numbers start at 1")
    history = _history_of(fields["scores"])
    turned_cards = _card_list("turned", fields["turned"])
    if len(turned_cards) != 1:
        raise _bad("turned is one card")
    turned = turned_cards[0]
    hand_texts = [h.strip() for h in fields["hands"].split("/")]
    if len(hand_texts) != 4:
        raise _bad("hands are four card lists separated by '/'")
    hand_lists = [_card_list("hands", h) for h in hand_texts]
    hands = [mask_of(cards) for cards in hand_lists]
    pot = _card_list("pot", fields["pot"])
    tricks_raw = _tricks_of(fields["tricks"])
    trick = _card_list("trick", fields["trick"])
    _check_conserved([*hand_lists, pot, *(cards for _, cards in tricks_raw), trick])
    tricks, leader = _checked_tricks(tricks_raw, (dealer + 1) & 3, turned, cfg.ace_high)
    if len(tricks) > 11 or len(trick) > 3 or len(pot) > 8:
        raise _bad("too many cards played")
    phase = _phase_of(hands, dealer, pot, tricks, trick, leader)
    _check_follows(hands, tricks, trick, leader)
    _check_scores(cfg, scope, number, turned, history, phase, tricks, pot)
    hist = tuple(history)
    info = DealInfo(cfg, seed, scope, number, dealer, turned, hist, totals_of(hist))
    final_hands = (hands[0], hands[1], hands[2], hands[3])
    return RoyalMastheadsState(info, phase, final_hands, pot, trick, leader, tuple(tricks))


def _fields_of(text: str) -> dict[str, str]:
    """A position's fields by name: every field of the notation, each once."""
    parts = [p.strip() for p in text.strip().split(";")]
    if not parts or parts[0] != GAME_TAG:
        raise _bad(f"it must start with '{GAME_TAG};'")
    fields: dict[str, str] = {}
    for part in parts[1:]:
        name, _, value = part.partition(" ")
        if name not in _FIELDS:
            raise _bad(f"unknown field {name!r}")
        if name in fields:
            raise _bad(f"field {name!r} is given twice")
        fields[name] = value.strip()
    missing = [f for f in _FIELDS if f not in fields]
    if missing:
        raise _bad(f"missing field(s) {', '.join(missing)}")
    return fields


def _history_of(text: str) -> list[tuple[int, int, int, int]]:
    """The ``scores`` field: four numbers a scored deal, deals separated by commas."""
    history: list[tuple[int, int, int, int]] = []
    if text != "-":
        for row_text in text.split(","):
            row = tuple(_int("scores", w) for w in row_text.split())
            if len(row) != 4:
                raise _bad(f"each deal's scores are four numbers; got {row_text.strip()!r}")
            history.append((row[0], row[1], row[2], row[3]))
    return history


def _tricks_of(text: str) -> list[tuple[int, tuple[int, ...]]]:
    """The ``tricks`` field: ``winner:cards`` a trick, tricks separated by commas."""
    tricks_raw: list[tuple[int, tuple[int, ...]]] = []
    if text != "-":
        for t_text in text.split(","):
            w_text, sep, c_text = t_text.strip().partition(":")
            if not sep:
                raise _bad(f"write a trick as winner:cards; got {t_text.strip()!r}")
            tricks_raw.append((_seat("trick winner", w_text), _card_list("tricks", c_text)))
    return tricks_raw


def _check_conserved(groups: list[tuple[int, ...]]) -> None:
    """Every card once: 52 cards, no duplicates."""
    seen = 0
    count = 0
    for cards in groups:
        for c in cards:
            if seen & BIT[c]:
                raise _bad(f"card {format_card(c)} appears twice")
            seen |= BIT[c]
            count += 1
    if count != 52:
        raise _bad(f"the position holds {count} cards, not 52")


def _checked_tricks(
    tricks_raw: list[tuple[int, tuple[int, ...]]], leader: int, turned: int, ace_high: bool
) -> tuple[list[Trick], int]:
    """The completed tricks, four cards each with winners as the rules say (M-11) and
    leaders chained from ``leader``; and the leader of the trick after them."""
    tricks: list[Trick] = []
    for w, cards in tricks_raw:
        if len(cards) != 4:
            raise _bad("a completed trick has four cards")
        t = (cards[0], cards[1], cards[2], cards[3])
        real = trick_winner(t, leader, turned // 13, ace_high)
        if w != real:
            raise _bad(f"trick {len(tricks) + 1} is won by {seat_name(real)}, not {seat_name(w)}")
        tricks.append(Trick(leader, real, t))
        leader = real
    return tricks, leader


def _phase_of(
    hands: list[int],
    dealer: int,
    pot: tuple[int, ...],
    tricks: list[Trick],
    trick: tuple[int, ...],
    leader: int,
) -> Phase:
    """The phase the cards played say, with every hand the size it must be then."""
    if len(pot) < 8:
        if tricks or trick:
            raise _bad("no card is played before the pot is complete")
        for seat in range(4):
            chosen = sum(1 for i in range(len(pot)) if pot_owner(dealer, i) == seat)
            if hands[seat].bit_count() != 13 - chosen:
                raise _bad(f"{seat_name(seat)} should hold {13 - chosen} cards")
        return Phase.POT
    if len(tricks) < 11:
        for seat in range(4):
            in_trick = 1 if (seat - leader) & 3 < len(trick) else 0
            want = 11 - len(tricks) - in_trick
            if hands[seat].bit_count() != want:
                raise _bad(f"{seat_name(seat)} should hold {want} cards")
        return Phase.PLAY
    if trick:
        raise _bad("no trick is played after the eleventh")
    return Phase.OVER


def _check_follows(
    hands: list[int], tricks: list[Trick], trick: tuple[int, ...], leader: int
) -> None:
    """No revoke (M-10): each card played was playable from the hand its seat held then
    (the hand now with the cards it played from then on)."""
    later = list(hands)
    plays: list[tuple[int, int, int]] = []
    for done in tricks:
        plays.extend((done.player_of(i), done.cards[0], done.cards[i]) for i in range(4))
    plays.extend(((leader + i) & 3, trick[0], trick[i]) for i in range(len(trick)))
    for seat, lead, card in reversed(plays):
        held = later[seat] | BIT[card]
        if not playable(held, SUIT[lead]) >> card & 1:
            played = format_card(card)
            raise _bad(f"{seat_name(seat)} revoked: played {played} holding the suit led")
        later[seat] = held


def _check_scores(
    cfg: Config,
    scope: Scope,
    number: int,
    turned: int,
    history: list[tuple[int, int, int, int]],
    phase: Phase,
    tricks: list[Trick],
    pot: tuple[int, ...],
) -> None:
    """One row of scores per scored deal, none of them ending the game before this deal;
    a finished game includes this deal's row, as the rules score it."""

    def over_after(rows: list[tuple[int, int, int, int]], n: int) -> bool:
        totals = [sum(r[i] for r in rows) for i in range(4)]
        return is_over_after(cfg, scope, n, totals)

    for n in range(1, len(history) + (0 if phase is Phase.OVER else 1)):
        if over_after(history[:n], n):
            raise _bad(f"the game was over after deal {n}")
    if phase is Phase.OVER:
        if len(history) != number:
            raise _bad(f"a finished game after deal {number} has {number} rows of scores")
        real_scores = score_deal(cfg, turned, tricks, pot).scores
        if history[-1] != real_scores:
            raise _bad(f"deal {number} scores {' '.join(map(str, real_scores))}")
        if not over_after(history, number):
            raise _bad("the game is not over yet, so the next deal should be dealt")
    elif len(history) != number - 1:
        raise _bad(f"deal {number} comes after {number - 1} rows of scores")


# -- old record formats -------------------------------------------------------------------
def migrate_position(text: str, version: int) -> str:
    """A position of record format ``version`` in today's notation.

    Version 1 wrote the dealer and each trick's winner as bare seats ``0`` … ``3``
    (``dealer 1``, ``tricks 3:JS …``) and three options in snake case (``ace_points:10``);
    version 2 writes ``P1`` … ``P4`` and ``acePoints:10``.

    >>> migrate_position("royal-mastheads; deal 2; dealer 1; tricks 3:JS 2S 5S 9S, 0:KC", 1)
    'royal-mastheads; deal 2; dealer P2; tricks P4:JS 2S 5S 9S, P1:KC'
    >>> migrate_position("royal-mastheads; options ace_points:10 trumps_bonus:1000; deal 1", 1)
    'royal-mastheads; options acePoints:10 trumpsBonus:1000; deal 1'
    """
    if version >= 2:
        return text
    parts = text.split(";")
    out = [parts[0]]
    for part in parts[1:]:
        lead = part[: len(part) - len(part.lstrip())]
        name, _, value = part.strip().partition(" ")
        if name == "options":
            words = [migrate_option_name(w) for w in value.split()]
            part = f"{lead}options {' '.join(words)}"
        elif name == "dealer":
            part = f"{lead}dealer {_v1_seat('dealer', value)}"
        elif name == "tricks" and value.strip() != "-":
            tricks = []
            for t_text in value.split(","):
                w_text, colon, c_text = t_text.strip().partition(":")
                if not colon:
                    raise _bad(f"write a trick as winner:cards; got {t_text.strip()!r}")
                tricks.append(f"{_v1_seat('trick winner', w_text)}:{c_text}")
            part = f"{lead}tricks {', '.join(tricks)}"
        out.append(part)
    return ";".join(out)


V1_OPTION_NAMES = {
    "ace_points": "acePoints",
    "trumps_bonus": "trumpsBonus",
    "count_bonus": "countBonus",
}
"""The options record format 1 named in snake case, and their names today."""


def migrate_option_name(word: str) -> str:
    """An option word (``name``, ``name:value`` or ``name=value``) of record format 1
    under today's name.

    >>> migrate_option_name("count_bonus:trumps"), migrate_option_name("deals=3")
    ('countBonus:trumps', 'deals=3')
    """
    cut = min((i for i in (word.find(":"), word.find("=")) if i >= 0), default=len(word))
    name = word[:cut]
    return V1_OPTION_NAMES.get(name, name) + word[cut:]


def _v1_seat(name: str, text: str) -> str:
    word = text.strip()
    if not word.isdigit() or not 0 <= int(word) <= 3:
        raise _bad(f"{name} in a version-1 position is a seat 0..3; got {word!r}")
    return seat_name(int(word))
