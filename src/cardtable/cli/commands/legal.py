"""``cardtable legal``: every legal action in a position."""

from __future__ import annotations

import click

from cardtable.cli.common import get_game, read_position

__all__ = ["legal"]


@click.command()
@click.argument("game")
@click.argument("position")
def legal(game: str, position: str) -> None:
    """Print every legal action in POSITION, in canonical notation, one per line, sorted.

    POSITION is a file, `-` for standard input, or the position text itself.
    """
    g = get_game(game)
    state = read_position(g, position)
    for text in sorted(g.format_action(a) for a in g.legal_actions(state)):
        click.echo(text)
