"""The ``cardtable`` commands, one module each; :mod:`cardtable.cli.main` assembles them."""

from __future__ import annotations

import click

from cardtable.cli.commands.apply import apply
from cardtable.cli.commands.arena import arena
from cardtable.cli.commands.bench import bench
from cardtable.cli.commands.games import games
from cardtable.cli.commands.legal import legal
from cardtable.cli.commands.play import play
from cardtable.cli.commands.replay import replay_cmd
from cardtable.cli.commands.rules import rules
from cardtable.cli.commands.selfplay import selfplay
from cardtable.cli.commands.serve import serve

__all__ = ["COMMANDS"]

COMMANDS: tuple[click.Command, ...] = (
    games,
    rules,
    play,
    selfplay,
    arena,
    legal,
    apply,
    replay_cmd,
    bench,
    serve,
)
"""Every command of the group, in the order the docs present them."""
