"""``cardtable games``: the games in the registry."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table as RichTable

from cardtable.cli import common

__all__ = ["games"]


@click.command()
def games() -> None:
    """List the games, with their aliases, players and unit of play."""
    table = RichTable(title="cardtable games")
    for column in ("name", "title", "aliases", "players", "unit"):
        table.add_column(column)
    for game in common.registry().games():
        info = game.info
        table.add_row(
            info.name,
            info.title,
            ", ".join(info.aliases),
            f"{info.min_players}-{info.max_players} (default {info.default_players})",
            info.unit,
        )
    Console(soft_wrap=True).print(table)
