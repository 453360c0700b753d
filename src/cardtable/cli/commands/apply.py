"""``cardtable apply``: actions applied to a position, and the position they lead to."""

from __future__ import annotations

import click

from cardtable.cli.common import UserError, get_game, read_position
from cardtable.core.errors import CardtableError

__all__ = ["apply"]


@click.command()
@click.argument("game")
@click.argument("position")
@click.argument("actions", nargs=-1, required=True)
def apply(game: str, position: str, actions: tuple[str, ...]) -> None:
    """Apply ACTIONS in turn to POSITION and print the resulting position.

    POSITION is a file, `-` for standard input, or the position text itself.  An illegal
    action prints its reason on stderr and exits with status 2.
    """
    g = get_game(game)
    state = read_position(g, position)
    for number, text in enumerate(actions, 1):
        try:
            state, _events = g.apply(state, g.parse_action(state, text))
        except CardtableError as e:
            raise UserError(f"action {number} ({text!r}): {e}") from None
    click.echo(g.format_position(state))
