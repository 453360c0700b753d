"""``cardtable replay``: a record checked by replaying it."""

from __future__ import annotations

import click

from cardtable.cli.common import get_game, read_text
from cardtable.cli.play import format_outcome
from cardtable.core.errors import InvalidRecordError
from cardtable.core.record import RECORD_VERSION, Record, replay
from cardtable.core.seats import seat_name

__all__ = ["replay_cmd"]


@click.command(name="replay")
@click.argument("record", metavar="RECORD")
def replay_cmd(record: str) -> None:
    """Check a game record (a JSON file, or `-`) and print its final position and outcome."""
    text = read_text(record)
    try:
        rec = Record.loads(text)
    except InvalidRecordError as e:
        raise InvalidRecordError(f"{record}: {e}") from None
    g = get_game(rec.game)
    result = replay(rec, g)
    final = result.final
    outcome = g.outcome(final)
    if rec.result is not None and (outcome is None or dict(rec.result) != outcome.to_json()):
        raise InvalidRecordError("the record's result differs from the replayed outcome")
    click.echo(g.format_position(final))
    old = (
        f" (format version {rec.version}, read as today's)" if rec.version != RECORD_VERSION else ""
    )
    click.echo(f"{g.info.title}: {len(rec.actions)} actions replayed, record OK{old}")
    if outcome is None:
        seat = g.to_act(final)
        who = "nobody" if seat is None else seat_name(seat)
        click.echo(f"the game is not over: {who} is to act")
    else:
        names = list(rec.seats) or [seat_name(i) for i in range(rec.players)]
        click.echo("outcome:")
        for line in format_outcome(outcome, names, g):
            click.echo(line)
