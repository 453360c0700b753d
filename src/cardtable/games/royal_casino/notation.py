"""Royal Casino notation: canonical move text and the position format.

Moves (keywords in lower case; input is case-insensitive and accepts ``→`` for ``->``)::

    trail 7C
    capture 9S: 9H 9C [5D 4S] b1        single cards, [groups], builds
    build 8S -> 13 (single): 5H
    build 5S -> 5 (multi): 5H
    add 6S -> b1 + 2H
    raise 2S -> b1=12
    raise 3H -> b1=8 + 4C 4D            a raise that absorbs loose groups (C5.5)

Cards inside a list are written highest rank first, then by suit ♠ ♥ ♦ ♣.  Builds are
numbered ``b1``, ``b2`` … in the order they lie on the table.

A position is one line of ``key=value`` fields separated by ``;`` (see docs/notation.md)::

    royal-casino 2p; turn=P1; dealer=P2; hands=8S KD / 4C 9H; loose=5H 3C; builds=[8 S P1: 5C 3D]

Seats are written ``P1`` … ``Pn`` (the engine's seat 0 is ``P1``); a side of four players
is written by its seats, ``P1+P3``.  Version-1 records wrote ``P0`` … and bare side
numbers: :func:`migrate_position` rewrites such a position.

>>> from cardtable.games.royal_casino import GAME
>>> s = GAME.parse_position("royal-casino 2p; hands=8S KD / 4C; loose=5H 3C")
>>> sorted(GAME.format_action(m) for m in GAME.legal_actions(s))
['build 8S -> 13 (single): 5H', 'capture 8S: [5H 3C]', 'trail 8S', 'trail KD']
>>> GAME.parse_position(GAME.format_position(s)) == s
True
"""

from __future__ import annotations

import re

from cardtable.cards import format_card, iter_mask, parse_card
from cardtable.core.errors import (
    AmbiguousActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPositionError,
)
from cardtable.core.seats import parse_seat, seat_name, side_name
from cardtable.games.royal_casino.rules import legal_actions, partition
from cardtable.games.royal_casino.state import (
    ACE_BITS,
    CAPV,
    OPTIONS,
    VAL,
    Build,
    Kind,
    Phase,
    RoyalCasinoAction,
    RoyalCasinoState,
)

__all__ = [
    "format_build",
    "format_move",
    "format_position",
    "human_cards",
    "migrate_position",
    "parse_move",
    "parse_position",
]

_KEYWORDS = ("trail", "capture", "build", "add", "raise")


def _sort_key(card: int) -> tuple[int, int]:
    return (-VAL[card], card // 13)


def human_cards(mask: int) -> str:
    """Cards of a mask, highest rank first then by suit (the order used in notation)."""
    return " ".join(format_card(c) for c in sorted(iter_mask(mask), key=_sort_key))


def _group_text(groups: tuple[int, ...]) -> list[str]:
    singles = [g for g in groups if g.bit_count() == 1]
    multis = [g for g in groups if g.bit_count() > 1]
    singles.sort(key=lambda g: _sort_key(g.bit_length() - 1))
    multis.sort(key=lambda g: min(_sort_key(c) for c in iter_mask(g)))
    return [human_cards(g) for g in singles] + [f"[{human_cards(g)}]" for g in multis]


def format_move(move: RoyalCasinoAction) -> str:
    """The canonical text of a move.

    >>> format_move(RoyalCasinoAction(Kind.RAISE, 1, 12, False, 1, 0))
    'raise 2S -> b1=12'
    """
    card = format_card(move.card)
    kind = move.kind
    if kind == Kind.TRAIL:
        return f"trail {card}"
    if kind == Kind.CAPTURE:
        groups = partition(move.loose, move.value) if move.loose else ()
        items = _group_text(groups if groups is not None else (move.loose,))
        items += [f"b{i + 1}" for i in iter_mask(move.builds)]
        return f"capture {card}: {' '.join(items)}"
    if kind == Kind.BUILD:
        kind_text = "multi" if move.multi else "single"
        return f"build {card} -> {move.value} ({kind_text}): {human_cards(move.loose)}"
    b = move.builds.bit_length()
    extra = f" + {human_cards(move.loose)}" if move.loose else ""
    if kind == Kind.ADD:
        return f"add {card} -> b{b}{extra}"
    return f"raise {card} -> b{b}={move.value}{extra}"


def _card(word: str) -> int:
    try:
        c = parse_card(word)
    except ValueError as e:
        raise InvalidNotationError(str(e)) from None
    if c >= 52:
        raise InvalidNotationError("Royal Casino is played without jokers")
    return c


def _build_ref(word: str, state: RoyalCasinoState) -> int:
    w = word.lower()
    if not (w.startswith("b") and w[1:].isdigit()):
        raise InvalidNotationError(f"expected a build like b1; got {word!r}")
    i = int(w[1:])
    if not 1 <= i <= len(state.builds):
        have = ", ".join(f"b{k + 1}" for k in range(len(state.builds))) or "none"
        raise InvalidNotationError(f"there is no build {word} on the table (builds: {have})")
    return i - 1


def _tokens(text: str) -> list[str]:
    t = text.replace("→", "->").replace(",", " ").replace("[", " ").replace("]", " ")
    t = t.replace("(", " ").replace(")", " ").replace(":", " ").replace("+", " ")
    t = t.replace("->", " -> ").replace("=", " = ")
    return t.split()


def _unique(state: RoyalCasinoState, pred: str, card: int, kind: Kind | None) -> RoyalCasinoAction:
    options = [
        m for m in legal_actions(state) if m.card == card and (kind is None or m.kind == kind)
    ]
    if len(options) == 1:
        return options[0]
    name = format_card(card)
    if not options:
        raise InvalidNotationError(f"no legal {pred} with {name}")
    shown = "; ".join(format_move(m) for m in options[:4])
    more = f" … ({len(options)} in all)" if len(options) > 4 else ""
    raise AmbiguousActionError(f"'{pred} {name}' could be: {shown}{more}")


def parse_move(state: RoyalCasinoState, text: str) -> RoyalCasinoAction:
    """Read a move in ``state``.  A bare card, or a keyword and a card alone, is accepted
    when exactly one legal move fits it.  The move is not checked for legality here."""
    words = _tokens(text)
    if not words:
        raise InvalidNotationError("empty move; moves are trail, capture, build, add, raise")
    head = words[0].lower()
    if head not in _KEYWORDS:
        try:
            card = parse_card(head)
        except ValueError:
            raise InvalidNotationError(
                f"unknown move {words[0]!r}; moves are trail, capture, build, add, raise"
            ) from None
        if len(words) == 1:
            return _unique(state, "move", card, None)
        raise InvalidNotationError(f"start with a move word: e.g. 'capture {words[0]}: …'")
    if len(words) < 2:
        raise InvalidNotationError(f"'{head}' needs a card from your hand, e.g. '{head} 7C'")
    card = _card(words[1])
    rest = words[2:]
    if head == "trail":
        if rest:
            raise InvalidNotationError("a trail names one card only")
        return RoyalCasinoAction(Kind.TRAIL, card)
    if head == "capture":
        if not rest:
            return _unique(state, "capture", card, Kind.CAPTURE)
        loose = 0
        builds = 0
        for w in rest:
            if w.lower().startswith("b") and w[1:].isdigit():
                builds |= 1 << _build_ref(w, state)
            else:
                c = _card(w)
                if loose >> c & 1:
                    raise InvalidNotationError(f"{format_card(c)} is listed twice")
                loose |= 1 << c
        return RoyalCasinoAction(Kind.CAPTURE, card, CAPV[card], False, builds, loose)
    if not rest or rest[0] != "->":
        if not rest:
            return _unique(state, head, card, Kind[head.upper()])
        raise InvalidNotationError(f"write '{head} {format_card(card)} -> …'")
    rest = rest[1:]
    if head == "build":
        if not rest or not rest[0].isdigit():
            raise InvalidNotationError("write the build's value: 'build 8S -> 13: 5H'")
        value = int(rest[0])
        rest = rest[1:]
        multi: bool | None = None
        if rest and rest[0].lower() in ("single", "multi", "multiple", "s", "m"):
            multi = rest[0].lower() in ("multi", "multiple", "m")
            rest = rest[1:]
        loose = _cards_mask(rest)
        if multi is None:
            total = VAL[card] + sum(VAL[c] for c in iter_mask(loose))
            multi = total != value
        return RoyalCasinoAction(Kind.BUILD, card, value, multi, 0, loose)
    if not rest:
        raise InvalidNotationError(f"name the build: '{head} {format_card(card)} -> b1'")
    i = _build_ref(rest[0], state)
    rest = rest[1:]
    b = state.builds[i]
    if head == "add":
        return RoyalCasinoAction(Kind.ADD, card, b.value, True, 1 << i, _cards_mask(rest))
    value = b.value + VAL[card]
    if rest and rest[0] == "=":
        if len(rest) < 2 or not rest[1].isdigit():
            raise InvalidNotationError("write the new value: 'raise 2S -> b1=12'")
        value = int(rest[1])
        rest = rest[2:]
    loose = _cards_mask(rest)
    return RoyalCasinoAction(Kind.RAISE, card, value, bool(loose), 1 << i, loose)


def _cards_mask(words: list[str]) -> int:
    mask = 0
    for w in words:
        c = _card(w)
        if mask >> c & 1:
            raise InvalidNotationError(f"{format_card(c)} is listed twice")
        mask |= 1 << c
    return mask


# -- positions ----------------------------------------------------------------------------------
def format_build(build: Build) -> str:
    """A build as ``[8 S P1: 5C 3D]`` or ``[7 M P2: 7C | 4D 3H]``."""
    kind = "M" if build.multi else "S"
    comps = " | ".join(human_cards(c) for c in build.comps)
    return f"[{build.value} {kind} {seat_name(build.owner)}: {comps}]"


def _seat_list(values: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in values)


def _sides(players: int) -> tuple[tuple[int, ...], ...]:
    """The seats of each side: partners P1+P3 and P2+P4 with four players."""
    return ((0, 2), (1, 3)) if players == 4 else tuple((i,) for i in range(players))


def _side_names(players: int) -> list[str]:
    return [side_name(side) for side in _sides(players)]


def format_position(state: RoyalCasinoState) -> str:
    """The canonical position text (every field, fixed order)."""
    fields = [f"royal-casino {state.players}p"]
    opts = OPTIONS.format_non_default(state.options)
    if opts:
        fields.append(f"options={opts}")
    fields.append(f"scope={state.scope}")
    fields.append(f"seed={state.seed}")
    fields.append(f"hand={state.hand_no}")
    fields.append(f"dealer={seat_name(state.dealer)}")
    fields.append("turn=-" if state.turn < 0 else f"turn={seat_name(state.turn)}")
    fields.append(f"scores={_seat_list(state.scores)}")
    if state.playoff:
        fields.append("playoff=1")
    fields.append("hands=" + " / ".join(human_cards(h) or "-" for h in state.hands))
    fields.append("stock=" + (" ".join(format_card(c) for c in state.stock) or "-"))
    fields.append("loose=" + (human_cards(state.loose) or "-"))
    fields.append("builds=" + (" ".join(format_build(b) for b in state.builds) or "-"))
    fields.append("piles=" + " / ".join(human_cards(p) or "-" for p in state.piles))
    fields.append(f"sweeps={_seat_list(state.sweeps)}")
    last = state.last_capturer
    fields.append("last=-" if last < 0 else f"last={seat_name(last)}")
    if state.phase == Phase.OVER:
        names = _side_names(state.players)
        fields.append("winners=" + (" ".join(names[w] for w in state.winners) or "-"))
    if state.last_hand_points:
        fields.append(f"points={_seat_list(state.last_hand_points)}")
    return "; ".join(fields)


def _bad(msg: str) -> InvalidPositionError:
    return InvalidPositionError(msg)


def _pos_cards(text: str, what: str) -> list[int]:
    text = text.strip()
    if text in ("", "-"):
        return []
    out = []
    for w in text.replace(",", " ").split():
        try:
            c = parse_card(w)
        except ValueError as e:
            raise _bad(f"{what}: {e}") from None
        if c >= 52:
            raise _bad(f"{what}: Royal Casino has no jokers")
        out.append(c)
    return out


def _pos_mask(text: str, what: str) -> int:
    m = 0
    for c in _pos_cards(text, what):
        if m >> c & 1:
            raise _bad(f"{what}: {format_card(c)} is listed twice")
        m |= 1 << c
    return m


def _seat(text: str, players: int, what: str) -> int:
    try:
        return parse_seat(text, players)
    except InvalidNotationError as e:
        raise _bad(f"{what}: {e}") from None


def _parse_winners(text: str, players: int) -> tuple[int, ...]:
    names = [n.upper() for n in _side_names(players)]
    winners = []
    for word in text.split():
        if word.upper() not in names:
            raise _bad(f"winners are sides ({' '.join(_side_names(players))}); got {word!r}")
        winners.append(names.index(word.upper()))
    return tuple(winners)


def _ints(text: str, n: int, what: str) -> tuple[int, ...]:
    words = text.replace(",", " ").replace("/", " ").split()
    try:
        values = tuple(int(w) for w in words)
    except ValueError:
        raise _bad(f"{what} must be whole numbers; got {text.strip()!r}") from None
    if len(values) != n:
        raise _bad(f"{what} needs {n} numbers; got {len(values)}")
    return values


def _parse_builds(text: str, players: int) -> tuple[Build, ...]:
    text = text.strip()
    if text in ("", "-"):
        return ()
    builds: list[Build] = []
    pos = 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        if text[pos] != "[":
            raise _bad(f"builds: expected '[' at {text[pos:]!r}")
        end = text.find("]", pos)
        if end < 0:
            raise _bad("builds: a '[' is not closed")
        builds.append(_parse_build(text[pos + 1 : end], players, len(builds) + 1))
        pos = end + 1
    return tuple(builds)


def _parse_build(body: str, players: int, number: int) -> Build:
    what = f"build b{number}"
    head, sep, cards_text = body.partition(":")
    if not sep:
        raise _bad(f"{what}: write it as [V S|M Pk: cards]")
    parts = head.split()
    if len(parts) != 3 or not parts[0].isdigit() or parts[1].upper() not in ("S", "M"):
        raise _bad(f"{what}: write it as [V S|M Pk: cards]; got [{body}]")
    value = int(parts[0])
    if not 2 <= value <= 14:
        raise _bad(f"{what}: a build is worth 2 to 14")
    multi = parts[1].upper() == "M"
    owner = _seat(parts[2], players, f"{what} owner")
    comps = tuple(_pos_mask(c, what) for c in cards_text.split("|"))
    if any(not c for c in comps):
        raise _bad(f"{what}: an empty component")
    mask = 0
    for c in comps:
        if mask & c:
            raise _bad(f"{what}: a card is listed twice")
        mask |= c
    if not multi:
        if len(comps) != 1 or sum(VAL[c] for c in iter_mask(mask)) != value:
            raise _bad(f"{what}: a single build's cards must add up to {value}")
    else:
        for comp in comps:
            lone_ace = value == 14 and comp.bit_count() == 1 and comp & ACE_BITS
            if not lone_ace and sum(VAL[c] for c in iter_mask(comp)) != value:
                raise _bad(f"{what}: component {human_cards(comp)} is not worth {value}")
        if len(comps) < 2:
            raise _bad(f"{what}: a multiple build has two or more components")
    return Build(value, multi, owner, mask, comps)


_FIELDS = (
    "options",
    "scope",
    "seed",
    "hand",
    "dealer",
    "turn",
    "scores",
    "playoff",
    "hands",
    "stock",
    "loose",
    "builds",
    "piles",
    "sweeps",
    "last",
    "winners",
    "points",
    "players",
)


def parse_position(text: str) -> RoyalCasinoState:
    """Read a position; omitted fields take defaults (P1 to move, empty table, 0–0 …).

    Hand-made positions may leave cards out (a scenario need not place all 52).
    """
    header, fields = _position_fields(text)
    players = _position_players(header, fields)
    try:
        options = OPTIONS.parse_words(fields.get("options", ""))
    except InvalidOptionError as e:
        raise _bad(f"options: {e}") from None
    scope = fields.get("scope", "match")
    if scope not in ("match", "unit"):
        raise _bad("scope must be 'match' or 'unit'")
    seed_text = fields.get("seed", "0")
    if not seed_text.lstrip("-").isdigit():
        raise _bad("seed must be a whole number")
    hand_text = fields.get("hand", "1")
    if not hand_text.isdigit() or int(hand_text) < 1:
        raise _bad("hand must be a number from 1")
    step = 1 if options["direction"] == "CCW" else -1
    over = fields.get("turn", "P1").strip() == "-"
    turn = -1 if over else _seat(fields.get("turn", "P1"), players, "turn")
    if "dealer" in fields:
        dealer = _seat(fields["dealer"], players, "dealer")
    else:
        dealer = (max(turn, 0) - step) % players
    sides = 2 if players == 4 else players
    hands, stock, loose, builds, piles = _position_cards(fields, players)
    sweeps = _ints(fields["sweeps"], sides, "sweeps") if "sweeps" in fields else (0,) * sides
    scores = _ints(fields["scores"], sides, "scores") if "scores" in fields else (0,) * sides
    last_text = fields.get("last", "-").strip()
    last = -1 if last_text == "-" else _seat(last_text, players, "last")
    playoff = fields.get("playoff", "0").strip() in ("1", "true", "yes")
    winners: tuple[int, ...] = ()
    if over:
        w = fields.get("winners", "-").strip()
        winners = () if w == "-" else _parse_winners(w, players)
    elif not hands[turn]:
        raise _bad(f"{seat_name(turn)} is to move but holds no cards")
    points = _ints(fields["points"], sides, "points") if "points" in fields else ()
    return RoyalCasinoState(
        players=players,
        options=options,
        scope="unit" if scope == "unit" else "match",
        seed=int(seed_text),
        hand_no=int(hand_text),
        dealer=dealer,
        turn=turn,
        phase=Phase.OVER if over else Phase.PLAY,
        hands=hands,
        stock=stock,
        loose=loose,
        builds=builds,
        piles=piles,
        sweeps=sweeps,
        last_capturer=last,
        scores=scores,
        playoff=playoff,
        winners=winners,
        last_hand_points=points,
    )


def _position_fields(text: str) -> tuple[list[str], dict[str, str]]:
    """The header words and the ``key=value`` fields of a position, each key once."""
    parts = [p.strip() for p in text.strip().split(";")]
    if not parts or not parts[0]:
        raise _bad("empty position")
    header = parts[0].split()
    if not header or header[0].lower() not in ("royal-casino", "casino"):
        raise _bad("a Royal Casino position starts with 'royal-casino'")
    fields: dict[str, str] = {}
    for part in parts[1:]:
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in _FIELDS:
            raise _bad(f"unknown field {part.split('=')[0].strip()!r} in the position")
        if key in fields:
            raise _bad(f"field {key!r} is given twice")
        fields[key] = value.strip()
    return header, fields


def _position_players(header: list[str], fields: dict[str, str]) -> int:
    """The number of players: from the header (``2p``), ``players=``, the hands, else 2."""
    players = 0
    if len(header) > 1:
        h = header[1].lower().removesuffix("p")
        if not h.isdigit():
            raise _bad(f"expected the number of players like '2p'; got {header[1]!r}")
        players = int(h)
    elif "players" in fields:
        players = int(fields["players"]) if fields["players"].isdigit() else 0
    elif "hands" in fields:
        players = len(fields["hands"].split("/"))
    else:
        players = 2
    if players not in (2, 3, 4):
        raise _bad("Royal Casino is for 2, 3 or 4 players")
    return players


def _position_cards(
    fields: dict[str, str], players: int
) -> tuple[tuple[int, ...], tuple[int, ...], int, tuple[Build, ...], tuple[int, ...]]:
    """The hands, stock, loose cards, builds and piles of a position, every card at most
    once."""
    sides = 2 if players == 4 else players
    hand_texts = fields.get("hands", "").split("/") if "hands" in fields else []
    if len(hand_texts) > players:
        raise _bad(f"hands: {len(hand_texts)} hands for {players} players")
    hands = [_pos_mask(h, f"hand of {seat_name(i)}") for i, h in enumerate(hand_texts)]
    hands += [0] * (players - len(hands))
    stock = _pos_cards(fields.get("stock", "-"), "stock")
    loose = _pos_mask(fields.get("loose", "-"), "loose")
    builds = _parse_builds(fields.get("builds", "-"), players)
    pile_texts = fields.get("piles", "").split("/") if "piles" in fields else []
    if len(pile_texts) > sides:
        raise _bad(f"piles: {len(pile_texts)} piles for {sides} sides")
    side_names = _side_names(players)
    piles = [_pos_mask(p, f"pile of {side_names[i]}") for i, p in enumerate(pile_texts)]
    piles += [0] * (sides - len(piles))
    seen = 0
    places: list[tuple[str, int]] = [(f"hand of {seat_name(i)}", h) for i, h in enumerate(hands)]
    places += [("loose", loose)] + [(f"b{i + 1}", b.mask) for i, b in enumerate(builds)]
    places += [(f"pile of {side_names[i]}", p) for i, p in enumerate(piles)]
    stock_mask = 0
    for c in stock:
        if stock_mask >> c & 1:
            raise _bad(f"stock: {format_card(c)} is listed twice")
        stock_mask |= 1 << c
    places.append(("stock", stock_mask))
    for name, mask in places:
        if seen & mask:
            dup = human_cards(seen & mask)
            raise _bad(f"{dup} appears twice in the position (again in {name})")
        seen |= mask
    return tuple(hands), tuple(stock), loose, builds, tuple(piles)


# -- old record formats ---------------------------------------------------------------------
_V1_SEAT_FIELDS = ("dealer", "turn", "last")
_V1_BUILD_OWNER = re.compile(r"(\[\s*\d+\s+[SMsm]\s+)[Pp]?(\d+)(\s*:)")


def migrate_position(text: str, version: int) -> str:
    """A position of record format ``version`` in today's notation.

    Version 1 numbered seats from ``P0`` (``dealer=P1; turn=P0``, build owners
    ``[8 S P0: …]``) and wrote the winners as side numbers (``winners=0``); version 2
    writes ``P1`` … and the winning sides by their seats (``winners=P1`` or ``P1+P3``).

    >>> migrate_position("royal-casino 2p; dealer=P1; turn=P0; builds=[8 S P1: 5C 3D]", 1)
    'royal-casino 2p; dealer=P2; turn=P1; builds=[8 S P2: 5C 3D]'
    """
    if version >= 2:
        return text
    parts = text.strip().split(";")
    header = parts[0].split()
    players = 0
    if len(header) > 1 and header[1].lower().removesuffix("p").isdigit():
        players = int(header[1].lower().removesuffix("p"))
    for part in parts[1:]:
        key, _, value = part.partition("=")
        if not players and key.strip().lower() == "hands":
            players = len(value.split("/"))
    players = players or 2
    out = [parts[0]]
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        name = key.strip().lower()
        if sep and name in _V1_SEAT_FIELDS and value.strip() != "-":
            part = f"{key}={_v1_seat(value)}"
        elif sep and name == "builds":
            part = f"{key}={_V1_BUILD_OWNER.sub(_v1_owner, value)}"
        elif sep and name == "winners" and value.strip() != "-":
            names = _side_names(players)
            words = value.split()
            if not all(w.isdigit() and int(w) < len(names) for w in words):
                raise _bad(f"winners: expected side numbers in a version-1 position; got {value!r}")
            part = f"{key}=" + " ".join(names[int(w)] for w in words)
        out.append(part)
    return ";".join(out)


def _v1_seat(value: str) -> str:
    word = value.strip().upper().removeprefix("P")
    if not word.isdigit():
        raise _bad(f"expected a seat P0, P1 … in a version-1 position; got {value.strip()!r}")
    return seat_name(int(word))


def _v1_owner(m: re.Match[str]) -> str:
    return f"{m.group(1)}{seat_name(int(m.group(2)))}{m.group(3)}"
