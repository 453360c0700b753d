"""``cardtable selfplay``: bots play each other; the results table."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table as RichTable

from cardtable.cli import selfplay as selfplay_mod
from cardtable.cli.common import (
    OPTION_HELP,
    check_players,
    get_game,
    parse_bots,
    parse_options,
    progress_bar,
    random_seed,
)
from cardtable.core.game import Scope
from cardtable.core.seats import side_name

__all__ = ["selfplay"]


@click.command()
@click.argument("game")
@click.option("--games", "-g", "count", type=click.IntRange(1), required=True, help="Games.")
@click.option("--bots", default="random", show_default=True, help="Bots by seat, cycled.")
@click.option("--players", "-n", type=int, help="Number of players (default: the game's).")
@click.option("--seed", type=int, help="Seed of game 0; game i uses seed+i (default: random).")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True)
@click.option("--records", type=click.Path(file_okay=False), help="Write each record here.")
@click.option("--unit", is_flag=True, help="Each game is one hand/round/deal, not a match.")
@click.option("--option", "-o", "options", multiple=True, metavar="K=V", help=OPTION_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
def selfplay(
    game: str,
    count: int,
    bots: str,
    players: int | None,
    seed: int | None,
    workers: int,
    records: str | None,
    unit: bool,
    options: tuple[str, ...],
    as_json: bool,
) -> None:
    """Let bots play GAME against each other and print the results.

    Game i is seeded SEED+i, so results are the same for any number of --workers.  The
    game's invariants are checked after every action; failures are counted (and must be
    0).
    """
    g = get_game(game)
    n = check_players(g, players)
    opts = parse_options(g, options)
    bot_names = parse_bots(g, bots)
    base = random_seed() if seed is None else seed
    scope: Scope = "unit" if unit else "match"
    jobs = [
        selfplay_mod.SelfplayJob(
            g.info.name, n, base + i, tuple(bot_names), dict(opts), scope, records is not None
        )
        for i in range(count)
    ]
    if as_json:
        results = selfplay_mod.run_selfplay(jobs, workers, lambda r: None)
    else:
        with progress_bar() as progress:
            task = progress.add_task(f"{g.info.name} self-play", total=count)
            results = selfplay_mod.run_selfplay(jobs, workers, lambda r: progress.advance(task))
    summary = selfplay_mod.summarise(g.info.name, n, base, scope, bot_names, g.sides(n), results)
    if records is not None:
        written = selfplay_mod.write_records(Path(records), g.info.name, results)
        if not as_json:
            click.echo(f"{written} records written to {records}", err=True)
    if as_json:
        click.echo(summary.dumps())
    else:
        _print_summary(summary)
    if summary.invariant_failures:
        sys.exit(1)


def _print_summary(summary: selfplay_mod.Summary) -> None:
    """The results table of a self-play run."""
    data = summary.to_json()
    table = RichTable(
        title=f"{summary.game}: {summary.games} {'units' if summary.scope == 'unit' else 'games'}"
        f", {summary.players} players, seeds {summary.seed}..{summary.seed + summary.games - 1}"
    )
    for column in ("side", "bots", "wins", "win %", "mean points"):
        table.add_column(column, justify="right" if column not in ("side", "bots") else "left")
    for side in data["results"]:
        share = 100 * side["wins"] / summary.games if summary.games else 0.0
        table.add_row(
            side_name(side["seats"]),
            ",".join(side["bots"]),
            str(side["wins"]),
            f"{share:.1f}",
            f"{side['mean_points']:.2f}",
        )
    items = sorted({k for side in data["results"] for k in side["mean_item_points"]})
    by_item = RichTable(title="mean per game, item by item (from the scoring events)")
    by_item.add_column("item")
    for side in data["results"]:
        by_item.add_column(side_name(side["seats"]), justify="right")
    for item in items:
        by_item.add_row(
            item, *(f"{side['mean_item_points'][item]:.2f}" for side in data["results"])
        )
    console = Console(soft_wrap=True)
    console.print(table)
    if items:
        console.print(by_item)
    console.print(
        f"actions: {summary.actions}   units played: {summary.units}   "
        f"invariant failures: {summary.invariant_failures}",
        markup=False,
        highlight=False,
    )
    for message in summary.failure_messages:
        console.print(f"  {message}", markup=False, highlight=False)
