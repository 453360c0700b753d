"""The ``cardtable`` command: play, self-play, positions, records, rules and benchmarks.

Every command is generic over the game registry and lives in a module of its own
(:mod:`cardtable.cli.commands`); this module only assembles them into the group.  Bad
input of any kind (arguments, options, notation, positions, records, files) ends with one
line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from cardtable.cli.commands import COMMANDS
from cardtable.cli.common import UserError
from cardtable.core.errors import CardtableError

__all__ = ["cli", "main"]


class _Group(click.Group):
    """A group that turns cardtable's input errors into one-line messages with status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; ``CardtableError`` and ``OSError`` become :class:`UserError`."""
        try:
            return super().invoke(ctx)
        except CardtableError as e:
            raise UserError(str(e)) from None
        except BrokenPipeError:
            # The reader of our output went away (``| head``): stop quietly.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)
        except OSError as e:
            where = f"{e.filename}: " if e.filename else ""
            raise UserError(f"{where}{e.strerror or e}") from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardtable")
def cli() -> None:
    """cardtable: Royal Casino, Czech Rummy and Royal Mastheads in the terminal.

    Play against the computer, let bots play each other, inspect positions and records,
    and measure the engines.  Run `cardtable games` for the games and
    `cardtable COMMAND --help` for each command.
    """


def main() -> None:
    """The console entry point: every error, click's usage errors too, is one line."""
    try:
        status = cli.main(prog_name="cardtable", standalone_mode=False)
    except click.ClickException as e:
        hint = ""
        if isinstance(e, click.UsageError) and e.ctx is not None:
            hint = f" (see '{e.ctx.command_path} --help')"
        click.echo(f"error: {e.format_message()}{hint}", err=True)
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("error: aborted", err=True)
        sys.exit(1)
    sys.exit(status if isinstance(status, int) else 0)


for _command in COMMANDS:
    cli.add_command(_command)

if __name__ == "__main__":  # pragma: no cover
    main()
