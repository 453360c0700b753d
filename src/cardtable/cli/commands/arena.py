"""``cardtable arena``: bots against each other on duplicate deals, with ratings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from cardtable.arena import ArenaConfig, plan, run_local, summarise
from cardtable.arena.core import order_results
from cardtable.arena.journal import Journal
from cardtable.cli import arena as arena_cli
from cardtable.cli.common import (
    OPTION_HELP,
    UserError,
    get_game,
    parse_bots,
    parse_options,
    progress_bar,
)

__all__ = ["arena"]


@click.command()
@click.argument("game")
@click.option("--bots", required=True, help="The entrants, comma-separated: a,b[,c,d].")
@click.option(
    "--games",
    "-g",
    "count",
    type=click.IntRange(1),
    required=True,
    help="Deals to play; each is replayed once per seating (duplicate deals).",
)
@click.option(
    "--unit",
    type=click.Choice(["hand", "match"]),
    default="hand",
    show_default=True,
    help="Each game is one hand/round/deal, or a whole match.",
)
@click.option("--players", "-n", type=int, help="Number of players (default: from --bots).")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals.")
@click.option("--ray", "ray_address", metavar="ADDRESS|local", help="Run the games on Ray.")
@click.option("--option", "-o", "options", multiple=True, metavar="K=V", help=OPTION_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the JSON results here.")
@click.option(
    "--journal",
    type=click.Path(dir_okay=False),
    help="Write each finished game to this file, and resume from it: a stopped run started "
    "again with the same command plays only the games it lacks (refused if the file is of "
    "another run or other code).",
)
@click.option("--chart", type=click.Path(dir_okay=False), help="Draw win rates (.png/.svg).")
@click.option(
    "--budgets",
    metavar="N,N,…",
    help="A sweep: the first bot becomes ismcts:N for each N (chart: win rate vs budget).",
)
def arena(
    game: str,
    bots: str,
    count: int,
    unit: str,
    players: int | None,
    workers: int,
    seed: int,
    ray_address: str | None,
    options: tuple[str, ...],
    as_json: bool,
    out: str | None,
    journal: str | None,
    chart: str | None,
    budgets: str | None,
) -> None:
    """Pit bots against each other on GAME with duplicate deals and rotated seats.

    Every deal is replayed with the seats rotated so that each bot plays every seat's
    cards; results are the same for a given --seed with any --workers or with --ray.
    Prints win rates with Wilson 95% intervals, duplicate matches won (a deal over all
    its seatings), mean points per game, the margin a deal (a bot's points over a deal's
    seatings minus the others', with its standard error) and openskill ratings.
    """
    g = get_game(game)
    names = parse_bots(g, bots)
    opts = parse_options(g, options)
    sweep = arena_cli.parse_budgets(budgets)
    if chart is not None and Path(chart).suffix.lower() not in (".png", ".svg"):
        raise UserError(f"--chart {chart}: name a .png or .svg file")
    if journal is not None and sweep:
        raise UserError("--journal keeps one run: it cannot be used with --budgets")
    lineups = [tuple(names)] if not sweep else [arena_cli.sweep_bots(names, b) for b in sweep]
    summaries = []
    for entrants in lineups:
        cfg = ArenaConfig(
            g.info.name,
            entrants,
            count,
            seed,
            "hand" if unit == "hand" else "match",
            players,
            opts.to_json(),
        )
        results = _arena_games(
            cfg, workers, ray_address, as_json, Path(journal) if journal else None
        )
        summaries.append(summarise(cfg, results))
    data: dict[str, Any]
    if len(summaries) == 1:
        data = summaries[0].to_json()
    else:
        data = {
            "sweep": [{"budget": b, **s.to_json()} for b, s in zip(sweep, summaries, strict=True)]
        }
    if out is not None:
        Path(out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if chart is not None:
        from cardtable.arena.chart import write_chart

        write_chart(Path(chart), summaries, sweep or None, f"{g.info.title}: {bots}")
    if as_json:
        click.echo(json.dumps(data))
        return
    console = Console(soft_wrap=True)
    for summary in summaries:
        cfg = summary.config
        title = (
            f"{g.info.title} arena: {cfg.deals} deals × {summary.games // max(cfg.deals, 1)} "
            f"seatings = {summary.games} games ({cfg.unit}), seed {cfg.seed}; "
            f"a duplicate match is one deal over all its seatings"
        )
        console.print(arena_cli.summary_table(summary, title))
    if out is not None:
        click.echo(f"results written to {out}", err=True)
    if chart is not None:
        click.echo(f"chart written to {chart}", err=True)


def _arena_games(
    cfg: Any, workers: int, ray_address: str | None, quiet: bool, journal_path: Path | None
) -> Any:
    """Play one arena configuration, with a progress bar and running table unless quiet;
    with a journal, only the jobs it lacks, each recorded as it finishes."""
    jobs = plan(cfg)
    running = arena_cli.RunningTable(cfg)
    journal = Journal.open(journal_path, cfg, jobs) if journal_path is not None else None
    done = list(journal.done.values()) if journal is not None else []
    todo = [j for j in jobs if journal is None or j.index not in journal.done]
    by_index = {j.index: j for j in jobs}
    for r in sorted(done, key=lambda r: r.index):
        running.add(r)

    def record(r: Any) -> None:
        running.add(r)
        if journal is not None:
            journal.record(by_index[r.index], r)

    try:
        if quiet:
            return order_results([*done, *_run_arena_jobs(todo, workers, ray_address, record)])
        with progress_bar() as progress:
            task = progress.add_task(f"{cfg.game} arena", total=len(jobs), completed=len(done))

            def on_result(r: Any) -> None:
                record(r)
                progress.update(task, advance=1, description=f"{cfg.game}: {running.line()}")

            return order_results([*done, *_run_arena_jobs(todo, workers, ray_address, on_result)])
    finally:
        if journal is not None:
            journal.close()


def _run_arena_jobs(jobs: Any, workers: int, ray_address: str | None, on_result: Any) -> Any:
    """Run arena jobs locally (``workers`` processes) or on Ray."""
    if ray_address is not None:
        from cardtable.arena.ray_runner import run_ray

        try:
            return run_ray(jobs, ray_address, on_result)
        except RuntimeError as e:
            raise UserError(str(e)) from None
    return run_local(jobs, workers, on_result)
