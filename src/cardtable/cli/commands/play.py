"""``cardtable play``: a game against the computer in the terminal."""

from __future__ import annotations

import sys

import click

from cardtable.cli.common import (
    OPTION_HELP,
    UserError,
    check_players,
    get_game,
    parse_bots,
    parse_options,
    random_seed,
)
from cardtable.cli.play import make_settings, play_game, read_stdin_line
from cardtable.core.errors import InvalidNotationError
from cardtable.core.seats import parse_seat

__all__ = ["play"]


@click.command()
@click.argument("game")
@click.option("--players", "-n", type=int, help="Number of players (default: the game's).")
@click.option(
    "--seat", default="P1", show_default=True, help="Your seat, P1 to Pn (P1 plays first)."
)
@click.option("--bots", help="Bots for the other seats, comma-separated (default: greedy).")
@click.option("--seed", type=int, help="Seed of the deal (default: random, and printed).")
@click.option("--option", "-o", "options", multiple=True, metavar="K=V", help=OPTION_HELP)
@click.option("--unit", is_flag=True, help="Play one hand/round/deal instead of a match.")
@click.option("--record", type=click.Path(dir_okay=False), help="Where `q` saves the record.")
def play(
    game: str,
    players: int | None,
    seat: str,
    bots: str | None,
    seed: int | None,
    options: tuple[str, ...],
    unit: bool,
    record: str | None,
) -> None:
    """Play GAME in the terminal against the computer.

    Each turn shows the table, what happened since your last move, and a numbered list of
    your legal moves.  Type a number or a move in the game's notation; `?` lists every
    move, `h` asks for a hint, `q` saves the record and quits.  The record is also saved
    at the end of the game.
    """
    g = get_game(game)
    n = check_players(g, players)
    try:
        my_seat = parse_seat(seat, n)
    except InvalidNotationError as e:
        raise UserError(f"--seat: {e}") from None
    opts = parse_options(g, options)
    bot_names = parse_bots(g, bots)
    settings = make_settings(
        g, n, my_seat, bot_names, random_seed() if seed is None else seed, dict(opts), unit, record
    )
    status = play_game(g, settings, read_stdin_line, click.echo)
    sys.exit(status)
