"""A request for a new table, checked field by field before anything is stored.

The lobby's form and ``POST /api/tables`` both go through :func:`check_new_table`.  Each
problem names its field (``name``, ``timer``, ``game``, ``players``, ``seat.<i>``,
``opt.<option>``) and carries a catalog message, so the form can show it next to the field
in the page's language; ``reason`` keeps the schema's or the game's own English reason for
the JSON API.  The game itself is asked too: a table whose options pass the schema but not
the game (Rummy's ``handSize=999``) is refused here, with the option to blame found by
resetting one option at a time.

>>> from cardtable.games import get_game
>>> from cardtable.server.i18n import translator
>>> try:
...     check_new_table(get_game("rummy"), name=" Ann ", timer="abc", options={"handSize": 999})
... except InvalidRequest as e:
...     print(sorted((p.field, p.text(translator("cs"))) for p in e.problems))
[('opt.handSize', 'Tato hodnota nejde dohromady s ostatním nastavením'), \
('timer', 'Zadejte počet sekund od 0 do 600')]
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as _field

from cardtable.bots import make_bot
from cardtable.core.errors import CardtableError
from cardtable.core.options import Options, OptionSpec
from cardtable.core.registry import AnyGame
from cardtable.server.i18n import Translator
from cardtable.server.names import MAX_NAME, InvalidName, normalize_name

__all__ = ["MAX_NAME", "MAX_TIMER", "InvalidRequest", "NewTable", "Problem", "check_new_table"]

MAX_TIMER = 600
"""The longest move timer, in seconds (0 = none)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong with one field: a catalog message (with its plural form, if any)."""

    field: str
    message: str
    params: Mapping[str, object] = _field(default_factory=dict)
    plural: str | None = None
    reason: str = ""
    """The schema's or the game's own reason (English), when it gave one."""

    def text(self, tr: Translator) -> str:
        """The message in the translator's language."""
        if self.plural is not None:
            num = self.params.get("num", 1)
            return tr.nfmt(
                self.message, self.plural, num if isinstance(num, int) else 1, **self.params
            )
        return tr.fmt(self.message, **self.params)


class InvalidRequest(CardtableError, ValueError):
    """A request for a table with one or more problems (nothing was created)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{p.field}: {p.reason or p.message}" for p in problems))


@dataclass(frozen=True, slots=True)
class NewTable:
    """A checked request: every field valid, and the game accepts the options."""

    game: AnyGame
    players: int
    seats: tuple[str, ...]
    options: Options
    name: str
    timer: float | None
    rated: bool
    hints: bool
    unit: bool


def check_name(raw: object) -> str | Problem:
    """A player name as :func:`~cardtable.server.names.normalize_name` stores it, or the
    problem with it."""
    try:
        return normalize_name(raw)
    except InvalidName as e:
        return Problem("name", e.message, e.params, plural=e.plural)


def check_timer(raw: object) -> float | Problem | None:
    """Seconds per move (``None`` for no timer), or the problem."""
    if raw is None or raw == "":
        return None
    value = math.nan
    if isinstance(raw, int | float | str) and not isinstance(raw, bool):
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
    if not math.isfinite(value) or not 0 <= value <= MAX_TIMER:
        return Problem(
            "timer", "Enter a number of seconds from {min} to {max}", {"min": 0, "max": MAX_TIMER}
        )
    return value if value > 0 else None


def _whole(raw: object) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        text = raw.strip()
        digits = text[1:] if text[:1] in ("+", "-") else text
        if digits.isascii() and digits.isdigit():
            return int(text)
    return None


def _option_problem(spec: OptionSpec, raw: object, reason: str) -> Problem:
    key = "opt." + spec.name
    if spec.type == "bool":
        return Problem(key, "Choose on or off", reason=reason)
    if spec.type == "choice":
        return Problem(key, "Choose one of the offered values", reason=reason)
    if spec.type == "int":
        value = _whole(raw)
        if value is not None and spec.minimum is not None and value < spec.minimum:
            return Problem(
                key, "Enter a whole number of at least {min}", {"min": spec.minimum}, reason=reason
            )
        if value is not None and spec.maximum is not None and value > spec.maximum:
            return Problem(
                key, "Enter a whole number of at most {max}", {"max": spec.maximum}, reason=reason
            )
        return Problem(key, "Enter a whole number", reason=reason)
    return Problem(key, "This value does not fit the other settings", reason=reason)


def _check_options(game: AnyGame, given: Mapping[str, object]) -> Options | list[Problem]:
    schema = game.info.options
    problems: list[Problem] = []
    values: dict[str, object] = {}
    for key, raw in given.items():
        try:
            spec = schema.spec(str(key))
        except CardtableError as e:
            names = [s.name for s in schema.specs]
            close = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
            if close:
                problems.append(
                    Problem(
                        "opt." + str(key),
                        "Unknown option {option}; did you mean {close}?",
                        {"option": key, "close": close[0]},
                        reason=str(e),
                    )
                )
            else:
                problems.append(
                    Problem(
                        "opt." + str(key), "Unknown option {option}", {"option": key}, reason=str(e)
                    )
                )
            continue
        try:
            values[spec.name] = spec.coerce(raw)
        except CardtableError as e:
            problems.append(_option_problem(spec, raw, str(e)))
    if problems:
        return problems
    return schema.validate(values)


def _game_accepts(game: AnyGame, players: int, options: Options) -> str | None:
    """The game's reason for refusing these options, or ``None`` when it accepts them."""
    try:
        game.new_game(players, options, 0)
    except (CardtableError, ValueError) as e:
        return str(e)
    return None


def _blame(game: AnyGame, players: int, options: Options, reason: str) -> list[Problem]:
    """The options to blame for the game's refusal: each one the game refuses on its own
    (with every other option at its default), else the one whose reset to its default
    makes the game accept the rest; else the settings as a whole (on ``players``)."""
    schema = game.info.options
    changed = [s for s in schema.specs if options[s.name] != s.default]
    blamed = []
    for spec in changed:
        alone = schema.validate({spec.name: options[spec.name]})
        own = _game_accepts(game, players, alone)
        if own is not None:
            blamed.append(
                Problem(
                    "opt." + spec.name, "This value does not fit the other settings", reason=own
                )
            )
    if blamed:
        return blamed
    for spec in changed:
        trial = schema.validate({**options.to_json(), spec.name: spec.default})
        if _game_accepts(game, players, trial) is None:
            return [
                Problem(
                    "opt." + spec.name, "This value does not fit the other settings", reason=reason
                )
            ]
    return [Problem("players", "These settings do not fit together", reason=reason)]


def check_new_table(
    game: AnyGame,
    *,
    players: object = None,
    seats: Sequence[object] | None = None,
    options: Mapping[str, object] | None = None,
    name: object = "Player",
    timer: object = None,
    rated: bool = False,
    hints: bool = True,
    unit: bool = False,
    bots: Collection[str] | None = None,
) -> NewTable:
    """Check every field of a request for a table of ``game``; raises :class:`InvalidRequest`
    listing every problem.  ``bots`` limits the bots a seat may name (any bot the game can
    seat when ``None``); missing seats are a person first, then ``bot:random``."""
    info = game.info
    problems: list[Problem] = []
    checked_name = check_name(name)
    if isinstance(checked_name, Problem):
        problems.append(checked_name)
    checked_timer = check_timer(timer)
    if isinstance(checked_timer, Problem):
        problems.append(checked_timer)
    count = info.default_players if players is None or players == "" else _whole(players)
    if count is None or not info.min_players <= count <= info.max_players:
        problems.append(
            Problem(
                "players",
                "Choose from {min} to {max} players",
                {"min": info.min_players, "max": info.max_players},
            )
        )
        count = None
    chosen: list[str] = []
    if count is not None:
        given = list(seats) if seats is not None else []
        if seats is not None and len(given) != count:
            problems.append(
                Problem(
                    "players",
                    "Choose who sits in each of the {num} seat",
                    {"num": count},
                    plural="Choose who sits in each of the {num} seats",
                    reason=f"{count} players need {count} seats; got {len(given)}",
                )
            )
        given += ["human" if i == 0 else "bot:random" for i in range(len(given), count)]
        for i, raw in enumerate(given[:count]):
            seat = raw.strip() if isinstance(raw, str) else ""
            level = seat.removeprefix("bot:")
            ok = seat == "human" or (
                seat.startswith("bot:") and (level in bots if bots is not None else True)
            )
            reason = ""
            if ok and seat != "human" and bots is None:
                try:
                    make_bot(level, game)
                except CardtableError as e:
                    ok, reason = False, str(e)
            if ok:
                chosen.append(seat)
            else:
                problems.append(Problem(f"seat.{i}", "Choose who sits here", reason=reason))
        if len(chosen) == count and "human" not in chosen:
            problems.append(Problem("seat.0", "At least one seat must be for a person"))
    opts = _check_options(game, options or {})
    if isinstance(opts, list):
        problems += opts
    elif count is not None:
        refused = _game_accepts(game, count, opts)
        if refused is not None:
            problems += _blame(game, count, opts, refused)
    if problems or isinstance(opts, list) or count is None or isinstance(checked_name, Problem):
        raise InvalidRequest(problems)
    assert not isinstance(checked_timer, Problem)
    return NewTable(
        game,
        count,
        tuple(chosen),
        opts,
        checked_name,
        checked_timer,
        rated=rated,
        hints=hints and not rated,
        unit=unit,
    )
