"""What every command shares: finding games, reading options, positions and files, errors.

The CLI is the I/O layer: it reads files and standard input, chooses random seeds and
prints.  Everything it plays goes through :class:`~cardtable.tables.Table` or the game
contract; it never decides legality itself.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from cardtable.bots import available_bots, make_bot
from cardtable.core.errors import CardtableError, InvalidOptionError, InvalidPositionError
from cardtable.core.options import Options
from cardtable.core.registry import AnyGame, Registry
from cardtable.games import REGISTRY

__all__ = [
    "EXIT_BAD_INPUT",
    "OPTION_HELP",
    "FiniteRange",
    "UserError",
    "check_players",
    "default_bot",
    "get_game",
    "parse_bots",
    "parse_options",
    "progress_bar",
    "random_seed",
    "read_position",
    "read_text",
    "registry",
]

OPTION_HELP = "A game option as name=value (repeatable); see `cardtable rules GAME`."
"""The help of every command's ``--option``."""

EXIT_BAD_INPUT = 2
"""The exit status for bad input of any kind (as click uses for usage errors)."""


class UserError(click.ClickException):
    """A one-line message for the user, printed on stderr, with exit status 2."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: Any = None) -> None:
        """Print ``error: message`` on stderr (no traceback, one line)."""
        click.echo(f"error: {self.format_message()}", err=True)


class FiniteRange(click.FloatRange):
    """A :class:`click.FloatRange` that also refuses ``nan`` (which every range check
    lets through, since it compares false with every bound).

    >>> FiniteRange(0.0, 10.0).convert("2.5", None, None)
    2.5
    """

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The number, checked to be finite and in range."""
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


def registry() -> Registry:
    """The registry of games."""
    return REGISTRY


def get_game(name: str) -> AnyGame:
    """The game called ``name`` or an alias; an ``UnknownGameError`` with a suggestion."""
    return registry().get(name)


def parse_options(game: AnyGame, assignments: Sequence[str]) -> Options:
    """Validate ``--option k=v`` values against the game's schema."""
    return game.info.options.parse_assignments(list(assignments))


def check_players(game: AnyGame, players: int | None) -> int:
    """The number of players (the game's default when ``None``), checked against the game."""
    n = game.info.default_players if players is None else players
    game.check_players(n)
    return n


def default_bot(game: AnyGame) -> str:
    """The strongest built-in bot the game offers: ``greedy`` where it exists, else ``random``."""
    return "greedy" if "greedy" in available_bots(game) else "random"


def parse_bots(game: AnyGame, text: str | None) -> list[str]:
    """Read a comma-separated list of bot names; each must exist for the game."""
    names = [n.strip().lower() for n in (default_bot(game) if text is None else text).split(",")]
    if not all(names):
        raise InvalidOptionError(f"write bots as a comma-separated list of names; got {text!r}")
    for name in names:
        make_bot(name, game)  # raises the clear "unknown bot …; did you mean …?" error
    return names


def random_seed() -> int:
    """A fresh seed for a game the user did not seed (printed so it can be replayed)."""
    return random.SystemRandom().randrange(1_000_000)


def read_text(source: str) -> str:
    """The text of a file, or of standard input for ``-``; a clear error if unreadable."""
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{source}: not a text file") from None
    except OSError as e:
        raise UserError(f"{source}: {e.strerror or e}") from None


def _is_file(source: str) -> bool:
    """True when ``source`` names a file (a long multi-line position is not a path)."""
    if "\n" in source or len(source) > 4096:
        return False
    try:
        return Path(source).is_file()
    except OSError:
        return False


def read_position(game: AnyGame, source: str) -> Any:
    """A state from a position file, ``-`` (standard input) or a literal position string."""
    if source == "-" or _is_file(source):
        text = read_text(source).strip()
        where = "standard input" if source == "-" else source
        try:
            return game.parse_position(text)
        except CardtableError as e:
            raise InvalidPositionError(f"{where}: {e}") from None
    try:
        return game.parse_position(source.strip())
    except CardtableError as e:
        raise InvalidPositionError(f"{source!r} is neither a file nor a position ({e})") from None


def progress_bar(counter: str = "{task.completed}/{task.total}") -> Progress:
    """A progress bar on stderr (never mixed with stdout), with ``counter`` (a rich
    format) after the bar."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn(counter),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    )
