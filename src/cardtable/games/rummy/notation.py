"""Rummy notation: actions and positions, canonical on output and lenient on input.

Actions (canonical): ``DRAW_STOCK``, ``TAKE_DISCARD``, ``TAKE@2``, ``MELD 5H JK=6H 7H``,
``MELD 7S 7H JK=7*``, ``LAYOFF 8C->M1``, ``LAYOFF JK->M1 as 4H``, ``SWAP 6H<->JK in M2``,
``DISCARD 7H'``.  Input may be lower case and shorter: ``draw``, ``take``, ``take 2``,
``meld 7d 5d 6d``, ``layoff 8c m1``, ``lay jk m1 as 4h``, ``swap 6h m2``, ``discard 7h``.

>>> from cardtable.games.rummy.state import RummyAction, DRAW, TAKE
>>> format_action(RummyAction(DRAW)), format_action(RummyAction(TAKE, target=2))
('DRAW_STOCK', 'TAKE@2')

Positions are ``key: value`` lines (see ``docs/notation-rummy.md``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cardtable.core.errors import (
    AmbiguousActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPositionError,
)
from cardtable.games.rummy.analysis import interpret_meld, meaning_text
from cardtable.games.rummy.melds import meld_meanings, pos_face, valid_composition
from cardtable.games.rummy.rules import slot_text
from cardtable.games.rummy.state import (
    DISCARD,
    DRAW,
    JOKER0,
    LAYOFF,
    MELD,
    OPTIONS,
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
    make_config,
    parse_phys,
)

__all__ = [
    "format_action",
    "format_cards",
    "format_position",
    "parse_action",
    "parse_meaning",
    "parse_position",
]


def format_cards(mask: int) -> str:
    """The cards of a mask in id order (``-`` when empty)."""
    words = []
    while mask:
        low = mask & -mask
        words.append(card_text(low.bit_length() - 1))
        mask ^= low
    return " ".join(words) if words else "-"


def format_action(a: RummyAction) -> str:
    """The canonical text of an action."""
    k = a.kind
    if k == DRAW:
        return "DRAW_STOCK"
    if k == TAKE:
        return "TAKE_DISCARD" if a.target == 0 else f"TAKE@{a.target}"
    if k == MELD:
        return "MELD " + " ".join(
            slot_text(c, m if m >= 0 else c % 52) for c, m in zip(a.cards, a.meanings, strict=False)
        )
    if k == LAYOFF:
        c = a.cards[0]
        text = f"LAYOFF {card_text(c)}->M{a.target + 1}"
        if c >= JOKER0 and a.meanings and a.meanings[0] >= 0:
            text += f" as {meaning_text(a.meanings[0])}"
        return text
    if k == SWAP:
        return f"SWAP {card_text(a.cards[0])}<->{card_text(a.cards[1])} in M{a.target + 1}"
    return f"DISCARD {card_text(a.cards[0])}"


def parse_meaning(text: str) -> int:
    """A joker meaning: ``6H`` (a face) or ``7*`` (a set joker of rank 7)."""
    t = text.strip().upper()
    if t.endswith("*"):
        try:
            face = parse_phys(t[:-1] + "S")
        except ValueError:
            raise InvalidNotationError(f"not a joker meaning: {text!r}") from None
        return SETJ + face % 13
    try:
        face = parse_phys(t)
    except ValueError:
        raise InvalidNotationError(f"not a joker meaning: {text!r}") from None
    if face >= JOKER0 or face >= 52:
        raise InvalidNotationError(f"a joker stands for a plain card, not {text!r}")
    return face


def _card(word: str) -> tuple[int, int]:
    """(physical card, declared meaning or -1) from ``7H`` or ``JK=6H``."""
    base, _, meaning = word.partition("=")
    try:
        card = parse_phys(base)
    except ValueError as e:
        raise InvalidNotationError(str(e)) from None
    if meaning:
        if card < JOKER0:
            raise InvalidNotationError(f"only a joker takes a meaning: {word!r}")
        return card, parse_meaning(meaning)
    return card, -1


def _held(hand: int, card: int, used: int) -> int:
    """The held copy that a typed card refers to (the typed one if not held)."""
    if card >= JOKER0:
        for j in range(JOKER0, JOKER0 + 4):
            if hand >> j & 1 and not used >> j & 1:
                return j
        return card
    f = card % 52
    for c in (card, f, f + 52):
        if hand >> c & 1 and not used >> c & 1:
            return c
    return card


def _meld_no(word: str) -> int:
    m = re.fullmatch(r"M?(\d+)", word)
    if not m or int(m.group(1)) < 1:
        raise InvalidNotationError(f"not a meld: {word!r} (write M1, M2, …)")
    return int(m.group(1)) - 1


def _same_meaning(declared: int, actual: int) -> bool:
    if declared == actual:
        return True
    return 0 <= declared < 52 and actual >= SETJ and actual - SETJ == declared % 13


def _pick(matches: list[RummyAction], text: str) -> RummyAction:
    if len(matches) == 1:
        return matches[0]
    raise AmbiguousActionError(
        f"{text!r} could mean {' or '.join(format_action(m) for m in matches)}; say which"
    )


def parse_action(state: RummyState, text: str, legal: Sequence[RummyAction]) -> RummyAction:
    """Read an action typed in ``state`` (``legal`` = its legal actions).

    A well-formed action that is not legal is returned as typed, so that ``apply`` can say
    which rule forbids it.
    """
    t = text.strip().upper().replace("→", "->").replace("↔", "<->")
    t = re.sub(r"\s+", " ", t)
    if not t:
        raise InvalidNotationError("empty action")
    words = t.replace(",", " ").split()
    verb = words[0]
    m = re.fullmatch(r"TAKE@(\d+)", verb)
    if m:
        return RummyAction(TAKE, target=int(m.group(1)))
    if verb in ("DRAW_STOCK", "DRAW", "D", "STOCK", "DS"):
        if len(words) > 1 and words[1:] != ["STOCK"]:
            raise InvalidNotationError(f"DRAW_STOCK takes nothing more: {text!r}")
        return RummyAction(DRAW)
    if verb in ("TAKE_DISCARD", "TAKE", "T", "PICK", "TD"):
        rest = [w for w in words[1:] if w not in ("DISCARD", "@")]
        if not rest:
            return RummyAction(TAKE, target=0)
        if len(rest) == 1 and rest[0].lstrip("@").isdigit():
            return RummyAction(TAKE, target=int(rest[0].lstrip("@")))
        raise InvalidNotationError(f"write TAKE_DISCARD or TAKE@k: {text!r}")
    hand = state.hands[state.current] if state.phase != Phase.OVER else 0
    if verb in ("DISCARD", "X", "DROP", "DIS"):
        return _parse_discard_action(state, hand, words, text, legal)
    if verb in ("MELD", "M"):
        return _parse_meld_action(state, hand, words, text, legal)
    if verb in ("LAYOFF", "LAY", "L", "ADD"):
        return _parse_layoff_action(state, hand, words, text, legal)
    if verb in ("SWAP", "S"):
        return _parse_swap_action(state, hand, words, text, legal)
    raise InvalidNotationError(
        f"not a Rummy action: {text!r} (DRAW_STOCK, TAKE_DISCARD, TAKE@k, MELD, LAYOFF, SWAP, "
        "DISCARD)"
    )


def _parse_discard_action(
    state: RummyState, hand: int, words: list[str], text: str, legal: Sequence[RummyAction]
) -> RummyAction:
    """Read a DISCARD action (``words`` after the verb's, ``hand`` the cards held)."""
    if len(words) != 2:
        raise InvalidNotationError(f"write DISCARD and one card: {text!r}")
    card, _ = _card(words[1])
    face = card % 52 if card < JOKER0 else 52
    matches = [
        a
        for a in legal
        if a.kind == DISCARD and (a.cards[0] % 52 if a.cards[0] < JOKER0 else 52) == face
    ]
    exact = [a for a in matches if a.cards[0] == card]
    if exact:
        return exact[0]
    if matches:
        return matches[0]
    held = (
        card
        if hand >> card & 1
        else _held(hand & ~(1 << state.taken if state.taken >= 0 else hand), card, 0)
    )
    if not hand >> held & 1:
        held = _held(hand, card, 0)
    return RummyAction(DISCARD, (held,))


def _parse_meld_action(
    state: RummyState, hand: int, words: list[str], text: str, legal: Sequence[RummyAction]
) -> RummyAction:
    """Read a MELD action (``words`` after the verb's, ``hand`` the cards held)."""
    cards = [_card(w) for w in words[1:]]
    if not cards:
        raise InvalidNotationError("MELD needs cards, e.g. MELD 5D 6D 7D")
    nat = sorted(c % 52 for c, _ in cards if c < JOKER0)
    nj = sum(1 for c, _ in cards if c >= JOKER0)
    declared = [mm for c, mm in cards if c >= JOKER0 and mm >= 0]
    matches = []
    for a in legal:
        if a.kind != MELD or len(a.cards) != len(cards):
            continue
        if sorted(c % 52 for c in a.cards if c < JOKER0) != nat:
            continue
        if sum(1 for c in a.cards if c >= JOKER0) != nj:
            continue
        jm = [mm for c, mm in zip(a.cards, a.meanings, strict=True) if c >= JOKER0]
        ok = True
        for d in declared:
            hit = next((x for x in jm if _same_meaning(d, x)), None)
            if hit is None:
                ok = False
                break
            jm.remove(hit)
        if ok:
            matches.append(a)
    if matches:
        return _pick(matches, text)
    used = 0
    phys_cards = []
    for c, _ in cards:
        h = _held(hand, c, used)
        used |= 1 << h
        phys_cards.append(h)
    decl = [mm for _, mm in cards]
    interps, _ = interpret_meld(state.cfg, phys_cards, decl)
    if len(interps) == 1:
        kind, lo, ordered, meanings = interps[0]
        return RummyAction(MELD, ordered, meanings, lo if kind == RUN else 0)
    if len(interps) > 1 and nj:
        raise AmbiguousActionError(f"R8.2: {text!r}: say what each joker stands for (e.g. JK=8H)")
    return RummyAction(MELD, tuple(phys_cards), tuple(decl), -1)


def _parse_layoff_action(
    state: RummyState, hand: int, words: list[str], text: str, legal: Sequence[RummyAction]
) -> RummyAction:
    """Read a LAYOFF action (``words`` after the verb's, ``hand`` the cards held)."""
    joined = " ".join(words[1:]).replace("<-", " ").replace("->", " ").replace(">", " ")
    parts = joined.split()
    meaning = -1
    if "AS" in parts[1:]:
        i = parts.index("AS", 1)
        if i + 2 != len(parts):
            raise InvalidNotationError(f"write LAYOFF JK->M1 as 4H: {text!r}")
        meaning = parse_meaning(parts[i + 1])
        parts = parts[:i]
    if not parts or len(parts) > 2:
        raise InvalidNotationError(f"write LAYOFF card->Mk: {text!r}")
    card, m2 = _card(parts[0])
    if m2 >= 0:
        meaning = m2
    target = _meld_no(parts[1]) if len(parts) == 2 else -1
    face = card % 52 if card < JOKER0 else 52
    matches = [
        a
        for a in legal
        if a.kind == LAYOFF
        and (a.cards[0] % 52 if a.cards[0] < JOKER0 else 52) == face
        and (target < 0 or a.target == target)
        and (meaning < 0 or _same_meaning(meaning, a.meanings[0]))
    ]
    if matches:
        if target < 0 and len({a.target for a in matches}) > 1:
            raise AmbiguousActionError(
                f"R6.4: {text!r} fits several melds; name one: "
                + " or ".join(format_action(a) for a in matches)
            )
        return _pick(matches, text)
    return RummyAction(LAYOFF, (_held(hand, card, 0),), (meaning,), target)


def _parse_swap_action(
    state: RummyState, hand: int, words: list[str], text: str, legal: Sequence[RummyAction]
) -> RummyAction:
    """Read a SWAP action (``words`` after the verb's, ``hand`` the cards held)."""
    joined = " ".join(words[1:]).replace("<->", " ").replace("IN ", " ")
    parts = joined.split()
    if not parts:
        raise InvalidNotationError(f"write SWAP card<->JK in Mk: {text!r}")
    card, _ = _card(parts[0])
    target = -1
    joker = -1
    for p in parts[1:]:
        if p.startswith("JK"):
            joker, _ = _card(p)
        else:
            target = _meld_no(p)
    matches = [
        a
        for a in legal
        if a.kind == SWAP
        and a.cards[0] % 52 == card % 52
        and (target < 0 or a.target == target)
        and (joker < 0 or a.cards[1] == joker)
    ]
    if matches:
        return _pick(matches, text)
    return RummyAction(SWAP, (_held(hand, card, 0), joker), (), target)


# -------------------------------------------------------------------------- positions


def _seats(words: list[str], n: int) -> tuple[int, ...]:
    out = []
    for w in words:
        m = re.fullmatch(r"P(\d+)", w.upper())
        if not m or not 1 <= int(m.group(1)) <= n:
            raise InvalidPositionError(f"not a seat: {w!r}")
        out.append(int(m.group(1)) - 1)
    return tuple(out)


def _meld_line(cards: tuple[int, ...], meanings: tuple[int, ...], kind: int) -> str:
    return " ".join(slot_text(c, m) for c, m in zip(cards, meanings, strict=True))


def format_position(s: RummyState) -> str:
    """The canonical position text (every field, one per line)."""
    n = s.cfg.players
    opts = OPTIONS.format_non_default(s.cfg.options) or "-"
    phase = f"{s.phase.name} P{s.current + 1}"
    last = "-"
    if s.last_scores:
        who = "blocked" if s.last_closer < 0 else f"P{s.last_closer + 1}"
        last = f"{who} " + " ".join(str(x) for x in s.last_scores)
    placed = " ".join(f"P{i + 1}" for i in range(n) if s.placed[i]) or "-"
    seen = [(i, h & s.known) for i, h in enumerate(s.hands) if h & s.known]
    known = "; ".join(f"P{i + 1} {format_cards(k)}" for i, k in seen) or "-"
    lines = [
        "rummy",
        f"players: {n}",
        f"options: {opts}",
        f"seed: {s.seed}",
        f"scope: {s.scope}",
        f"round: {s.round_no}",
        f"dealer: P{s.dealer + 1}",
        f"phase: {phase}",
        f"scores: {' '.join(str(x) for x in s.scores)}",
        f"closes: {' '.join(str(x) for x in s.closes)}",
        f"penalties: {' '.join(str(x) for x in s.penalties)}",
        f"last: {last}",
        f"turn: {s.turn_no}",
        f"turnovers: {s.turnovers}",
        f"stock_public: {'yes' if s.stock_public else 'no'}",
        f"taken: {card_text(s.taken) if s.taken >= 0 else '-'}",
        f"obligations: {format_cards(s.obligations)}",
        f"melds_this_turn: {s.melds_this_turn}",
        f"placed_this_turn: {'yes' if s.placed_this_turn else 'no'}",
        f"placed: {placed}",
        f"known: {known}",
    ]
    if any(s.passed):
        lines.append(
            "passed: "
            + "; ".join(f"P{i + 1} {format_cards(m)}" for i, m in enumerate(s.passed) if m)
        )
    for i in range(n):
        lines.append(f"P{i + 1}: {format_cards(s.hands[i])}")
    lines.append("stock: " + (" ".join(card_text(c) for c in s.stock) or "-"))
    lines.append("discard: " + (" ".join(card_text(c) for c in s.discard) or "-"))
    if s.out:
        lines.append(f"out: {format_cards(s.out)}")
    for i, meld in enumerate(s.melds):
        lines.append(
            f"M{i + 1}(P{meld.owner + 1}): "
            + _meld_line(meld.cards, meld_meanings(meld), meld.kind)
        )
    return "\n".join(lines) + "\n"


_EMPTY = ("", "-", "∅")
_KEYS = {
    "players",
    "options",
    "seed",
    "scope",
    "round",
    "dealer",
    "phase",
    "scores",
    "closes",
    "penalties",
    "last",
    "turn",
    "turnovers",
    "stock_public",
    "taken",
    "obligations",
    "melds_this_turn",
    "placed_this_turn",
    "placed",
    "known",
    "passed",
    "stock",
    "discard",
    "out",
}


def _bool(v: str) -> bool:
    t = v.strip().lower()
    if t in ("yes", "true", "on", "1"):
        return True
    if t in ("no", "false", "off", "0", "-", ""):
        return False
    raise InvalidPositionError(f"not yes/no: {v!r}")


def _ints(v: str, n: int, key: str) -> tuple[int, ...]:
    if v.strip() in _EMPTY:
        return (0,) * n
    try:
        out = tuple(int(x) for x in v.split())
    except ValueError:
        raise InvalidPositionError(f"{key}: whole numbers expected; got {v!r}") from None
    if len(out) != n:
        raise InvalidPositionError(f"{key}: {n} numbers expected; got {len(out)}")
    return out


def _parse_meld(text: str, owner: int, wrap: bool, rule: int, touch: bool) -> Meld:
    cards = [_card(w) for w in text.split()]
    if len(cards) < 3:
        raise InvalidPositionError(f"a meld has at least 3 cards: {text!r}")
    nat = [c for c, _ in cards if c < JOKER0]
    nj = len(cards) - len(nat)
    if not nat or not valid_composition(len(nat), nj, rule):
        raise InvalidPositionError(f"R8.3: bad joker composition: {text!r}")
    ranks = {c % 13 for c in (x % 52 for x in nat)}
    is_set = any(m >= SETJ for _, m in cards) or (len(nat) >= 2 and len(ranks) == 1)
    if is_set:
        r = next(iter(ranks))
        suits = [c % 52 // 13 for c in nat]
        if len(ranks) != 1 or len(set(suits)) != len(suits) or len(cards) > 4:
            raise InvalidPositionError(f"R5.1: not a valid set: {text!r}")
        for c, m in cards:
            if c >= JOKER0 and m not in (-1, SETJ + r):
                raise InvalidPositionError(f"R8.2: a set joker must be {card_text(r)[:-1]}*")
        ordered = tuple(sorted(nat, key=lambda c: c % 52)) + tuple(
            sorted(c for c, _ in cards if c >= JOKER0)
        )
        return Meld(SET, -1, r + 1, ordered, owner)
    first_c, first_m = cards[0]
    first = first_c % 52 if first_c < JOKER0 else first_m
    if first < 0:
        raise InvalidPositionError(f"R8.2: declare the first joker's meaning: {text!r}")
    suit, lo = first // 13, first % 13 + 1
    n = len(cards)
    if n > 13 or (not wrap and lo + n - 1 > 14):
        raise InvalidPositionError(f"R2.2: not a valid run: {text!r}")
    slots = 0
    for i, (c, m) in enumerate(cards):
        f = pos_face(suit, lo + i)
        if (c < JOKER0 and c % 52 != f) or (c >= JOKER0 and m not in (-1, f)):
            raise InvalidPositionError(f"R5.2: not a valid run: {text!r}")
        if c >= JOKER0:
            slots |= 1 << i
    if not touch and slots & (slots >> 1):
        raise InvalidPositionError(f"R8.3: two jokers side by side: {text!r}")
    return Meld(RUN, suit, lo, tuple(c for c, _ in cards), owner)


def parse_position(text: str) -> RummyState:
    """Read a position written by :func:`format_position` (or a shorter one for tests).

    Missing keys take defaults; without a ``stock:`` line the unlisted cards form the stock
    (in card order); with one, they are set aside (``out``).  ``stock: 5D ...`` puts the
    unlisted cards under the listed ones.  Without a ``known:`` line no card is publicly
    known, except the taken card and the obligations of the seat to act (always known).
    """
    fields: dict[str, str] = {}
    hand_lines: dict[int, str] = {}
    meld_lines: list[tuple[int, int, str]] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.lower() == "rummy":
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise InvalidPositionError(f"expected 'key: value'; got {line!r}")
        key = key.strip()
        value = value.strip()
        mh = re.fullmatch(r"[Pp](\d+)", key)
        mm = re.fullmatch(r"[Mm](\d+)\s*\(\s*[Pp](\d+)\s*\)", key)
        if mh:
            hand_lines[int(mh.group(1)) - 1] = value
        elif mm:
            meld_lines.append((int(mm.group(1)) - 1, int(mm.group(2)) - 1, value))
        elif key.lower() in _KEYS:
            fields[key.lower()] = value
        else:
            raise InvalidPositionError(f"unknown position key {key!r}")
    players = fields.get("players", str(max(hand_lines, default=1) + 1))
    try:
        n = int(players)
    except ValueError:
        raise InvalidPositionError(f"players: a whole number expected; got {players!r}") from None
    try:
        opts = OPTIONS.parse_words(
            "" if fields.get("options", "-") in _EMPTY else fields["options"]
        )
        cfg = make_config(n, opts)
    except InvalidOptionError as e:
        raise InvalidPositionError(str(e)) from None
    try:
        return _build(cfg, n, fields, hand_lines, meld_lines)
    except InvalidNotationError as e:
        raise InvalidPositionError(str(e)) from None
    except ValueError as e:
        raise InvalidPositionError(str(e)) from None


def _cards_of(v: str) -> list[int]:
    if v.strip() in _EMPTY:
        return []
    return [_card(w)[0] for w in v.split()]


def _seat_cards(field: str, value: str, n: int) -> list[tuple[int, list[int]]]:
    """A per-seat list of cards (``P2 7H QS; P3 4C``, or ``-`` for none), each seat once:
    the ``known:`` and ``passed:`` fields."""
    out: list[tuple[int, list[int]]] = []
    if value.strip() in _EMPTY:
        return out
    done: set[int] = set()
    for part in value.split(";"):
        words = part.split()
        if not words:
            continue
        seat = _seats(words[:1], n)[0]
        if seat in done:
            raise InvalidPositionError(f"{field}: P{seat + 1} is listed twice")
        done.add(seat)
        out.append((seat, _cards_of(" ".join(words[1:]))))
    return out


def _known(value: str, hands: list[int]) -> int:
    """The ``known:`` field (``P2 7H QS; P3 4C`` or ``-``), each card in that seat's hand."""
    known = 0
    for seat, cards in _seat_cards("known", value, len(hands)):
        for c in cards:
            if not hands[seat] >> c & 1:
                raise InvalidPositionError(f"known: {card_text(c)} is not in P{seat + 1}'s hand")
            known |= 1 << c
    return known


def _passed(value: str, n: int) -> tuple[int, ...]:
    """The ``passed:`` field (``P1 7H; P2 QS 4C`` or ``-``): per seat, the cards it passed
    up this round (anywhere now)."""
    passed = [0] * n
    for seat, cards in _seat_cards("passed", value, n):
        for c in cards:
            passed[seat] |= 1 << c
    return tuple(passed)


class _Pack:
    """The cards placed so far while a position is read: each card once, from the pack."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.seen = 0

    def take(self, cards: list[int], where: str) -> int:
        """Place ``cards`` (found at ``where``); their mask."""
        m = 0
        for c in cards:
            if not self.cfg.all_cards >> c & 1:
                raise InvalidPositionError(f"{card_text(c)} is not in this game's pack ({where})")
            if self.seen >> c & 1:
                raise InvalidPositionError(f"{card_text(c)} appears twice ({where})")
            self.seen |= 1 << c
            m |= 1 << c
        return m

    def rest(self) -> list[int]:
        """The cards of the pack not placed yet, in id order."""
        return [c for c in range(108) if self.cfg.all_cards >> c & 1 and not self.seen >> c & 1]


def _build(
    cfg: Config,
    n: int,
    fields: dict[str, str],
    hand_lines: dict[int, str],
    meld_lines: list[tuple[int, int, str]],
) -> RummyState:
    phase_words = fields.get("phase", "DRAW P1").split()
    if phase_words[0].upper() not in ("DRAW", "PLAY", "OVER"):
        raise InvalidPositionError(f"phase is DRAW, PLAY or OVER; got {phase_words[0]!r}")
    phase = Phase[phase_words[0].upper()]
    current = _seats(phase_words[1:2], n)[0] if len(phase_words) > 1 else 0
    dealer = _seats([fields["dealer"]], n)[0] if "dealer" in fields else (current - 1) % n
    pack = _Pack(cfg)
    hands = [pack.take(_cards_of(hand_lines.get(i, "-")), f"P{i + 1}") for i in range(n)]
    for i in hand_lines:
        if not 0 <= i < n:
            raise InvalidPositionError(f"there is no seat P{i + 1}")
    discard = _cards_of(fields.get("discard", "-"))
    pack.take(discard, "discard")
    melds = _melds_of(pack, n, meld_lines)
    out_listed = pack.take(_cards_of(fields.get("out", "-")), "out")
    stock = _stock_of(pack, fields.get("stock"))
    out = out_listed | (cfg.all_cards & ~pack.seen)
    taken, obl, known = _turn_of(fields, phase, hands[current], current)
    known |= _known(fields.get("known", "-"), hands)
    if phase != Phase.OVER and not hands[current]:
        raise InvalidPositionError(f"P{current + 1} is to act with an empty hand")
    last_closer, last_scores = _last_of(fields.get("last", "-"), n)
    placed_t = fields.get("placed", "-")
    placed_seats = () if placed_t in _EMPTY else _seats(placed_t.split(), n)
    scope = fields.get("scope", "match")
    if scope not in ("match", "unit"):
        raise InvalidPositionError(f"scope is match or unit; got {scope!r}")
    try:
        seed = int(fields.get("seed", "0"))
        ints = {
            k: int(fields.get(k, "0")) for k in ("round", "turn", "turnovers", "melds_this_turn")
        }
    except ValueError as e:
        raise InvalidPositionError(str(e)) from None
    return RummyState(
        cfg=cfg,
        seed=seed,
        scope=scope,
        round_no=ints["round"],
        dealer=dealer,
        phase=phase,
        current=current,
        hands=tuple(hands),
        known=known,
        stock=tuple(stock),
        discard=tuple(discard),
        melds=tuple(melds),
        taken=taken,
        obligations=obl,
        melds_this_turn=ints["melds_this_turn"],
        placed_this_turn=_bool(fields.get("placed_this_turn", "no")),
        placed=tuple(i in placed_seats for i in range(n)),
        turn_no=ints["turn"],
        turnovers=ints["turnovers"],
        stock_public=_bool(fields.get("stock_public", "no")),
        scores=_ints(fields.get("scores", "-"), n, "scores"),
        closes=_ints(fields.get("closes", "-"), n, "closes"),
        penalties=_ints(fields.get("penalties", "-"), n, "penalties"),
        last_closer=last_closer,
        last_scores=last_scores,
        out=out,
        passed=_passed(fields.get("passed", "-"), n),
    )


def _melds_of(pack: _Pack, n: int, meld_lines: list[tuple[int, int, str]]) -> list[Meld]:
    """The melds M1, M2, … of a position, their cards placed."""
    cfg = pack.cfg
    melds: list[Meld] = []
    for idx, (mi, owner, body) in enumerate(sorted(meld_lines)):
        if mi != idx:
            raise InvalidPositionError(f"melds must be numbered M1, M2, … (M{mi + 1})")
        if not 0 <= owner < n:
            raise InvalidPositionError(f"meld owner P{owner + 1} does not exist")
        meld = _parse_meld(body, owner, cfg.wrap, cfg.joker_limit, cfg.touch)
        pack.take(list(meld.cards), f"M{mi + 1}")
        melds.append(meld)
    return melds


def _stock_of(pack: _Pack, stock_text: str | None) -> list[int]:
    """The stock, top first: as listed, completed by the cards not placed after ``...``,
    or (not listed) every card not placed."""
    if stock_text is None:
        stock = pack.rest()
        pack.take(stock, "stock")
        return stock
    rest = stock_text.strip().endswith("...")
    stock = _cards_of(stock_text.replace("...", "")) if stock_text.strip() != "..." else []
    pack.take(stock, "stock")
    if rest:
        more = pack.rest()
        pack.take(more, "stock")
        stock += more
    return stock


def _turn_of(fields: dict[str, str], phase: Phase, hand: int, current: int) -> tuple[int, int, int]:
    """(taken card, obligations, the cards they make known) of the turn in progress."""
    taken_t = fields.get("taken", "-")
    taken = -1 if taken_t in _EMPTY else _card(taken_t)[0]
    obl = 0
    for c in _cards_of(fields.get("obligations", "-")):
        obl |= 1 << c
    if phase == Phase.PLAY:
        if taken >= 0 and not hand >> taken & 1:
            raise InvalidPositionError(
                f"taken card {card_text(taken)} is not in P{current + 1}'s hand"
            )
        if obl & ~hand:
            raise InvalidPositionError("obligated cards must be in the current hand")
        # both were face up: always known (R4.9)
        return taken, obl, obl | (1 << taken if taken >= 0 else 0)
    if taken >= 0 or obl:
        raise InvalidPositionError("taken/obligations only exist in phase PLAY")
    return taken, obl, 0


def _last_of(text: str, n: int) -> tuple[int, tuple[int, ...]]:
    """(closer, round scores) of the last finished round, from ``P1 25 -30`` or
    ``blocked -10 -20``."""
    last_t = text.split()
    if not last_t or last_t[0] in _EMPTY:
        return -1, ()
    last_closer = -1 if last_t[0].lower() == "blocked" else _seats(last_t[:1], n)[0]
    return last_closer, _ints(" ".join(last_t[1:]), n, "last")
