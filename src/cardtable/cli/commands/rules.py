"""``cardtable rules``: a game's options, or its player's guide."""

from __future__ import annotations

import re

import click
from rich.console import Console
from rich.markdown import Markdown

from cardtable.bots import available_bots
from cardtable.cli.common import UserError, get_game

__all__ = ["rules"]


@click.command()
@click.argument("game")
@click.option("--full", is_flag=True, help="Print the player's guide (How to play) instead.")
@click.option(
    "--lang",
    type=click.Choice(["en", "cs", "ru"]),
    default="en",
    show_default=True,
    help="The guide's language (with --full).",
)
def rules(game: str, full: bool, lang: str) -> None:
    """Show a game's title, players, unit and every option with its default; with --full,
    print its player's guide (the aim, the deal, a turn, scoring, the end, every variant)."""
    g = get_game(game)
    info = g.info
    if full:
        guide = g.how_to_play(lang)
        if guide is None:
            raise UserError(f"{info.title} has no guide in {lang!r}")
        # a rule's anchor ``[C6.1](#C6.1)`` reads as the bold rule id in a terminal
        plain = re.sub(r"\[([^\]]+)\]\(#\1\)", r"**\1**", guide)
        Console(highlight=False).print(Markdown(plain, hyperlinks=False))
        return
    has_guide = g.how_to_play("en") is not None
    out = [
        f"{info.title} ({info.name}; aliases: {', '.join(info.aliases) or 'none'})",
        f"players: {info.min_players} to {info.max_players} (default {info.default_players})",
        f"unit of play: {info.unit} (`--unit` plays one {info.unit}; default: a whole match)",
        f"how to play: `cardtable rules {info.name} --full [--lang en|cs|ru]`"
        if has_guide
        else "how to play: this game has no guide",
    ]
    if info.summary:
        out.append(info.summary)
    out.append(f"bots: {', '.join(available_bots(g))}")
    out.append("options (--option name=value):")
    specs = info.options.specs
    out.extend(f"  {spec.describe()}" for spec in specs)
    if not specs:
        out.append("  (none)")
    click.echo("\n".join(out))
