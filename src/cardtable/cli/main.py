"""The ``cardtable`` command: play, self-play, positions, records, rules and benchmarks.

Every command is generic over the game registry.  Bad input of any kind (arguments,
options, notation, positions, records, files) ends with one line on stderr and exit
status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from cardtable.arena import ArenaConfig, plan, run_local, summarise
from cardtable.arena.core import order_results
from cardtable.arena.journal import Journal
from cardtable.bots import available_bots
from cardtable.cli import arena as arena_cli
from cardtable.cli import bench as bench_mod
from cardtable.cli import common
from cardtable.cli import selfplay as selfplay_mod
from cardtable.cli.common import (
    UserError,
    check_players,
    get_game,
    parse_bots,
    parse_options,
    random_seed,
    read_position,
    read_text,
)
from cardtable.cli.play import format_outcome, make_settings, play_game, read_stdin_line
from cardtable.core.errors import CardtableError, InvalidNotationError, InvalidRecordError
from cardtable.core.game import Scope
from cardtable.core.options import Options
from cardtable.core.record import RECORD_VERSION, Record, replay
from cardtable.core.registry import AnyGame
from cardtable.core.seats import parse_seat, seat_name, side_name

__all__ = ["cli", "main"]

OPTION_HELP = "A game option as name=value (repeatable); see `cardtable rules GAME`."


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


def _stderr() -> Console:
    """A rich console on stderr (progress bars and notes never mix with stdout)."""
    return Console(stderr=True)


# -- the registry ----------------------------------------------------------------------------
@cli.command()
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


@cli.command()
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


# -- playing ---------------------------------------------------------------------------------
@cli.command()
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


@cli.command()
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
        with _progress() as progress:
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


def _progress(counter: str = "{task.completed}/{task.total}") -> Progress:
    """A progress bar on stderr, with ``counter`` (a rich format) after the bar."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn(counter),
        TimeElapsedColumn(),
        console=_stderr(),
    )


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


# -- the arena -------------------------------------------------------------------------------
@cli.command()
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
        with _progress() as progress:
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


# -- positions and records -------------------------------------------------------------------
@cli.command()
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


@cli.command()
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


@cli.command(name="replay")
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


# -- measuring -------------------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.option(
    "--seconds",
    "-t",
    type=common.FiniteRange(min=0.0, max=86_400.0, min_open=True),
    default=10.0,
    show_default=True,
    help="How long to run.",
)
@click.option("--players", "-n", type=int, help="Number of players (default: the game's).")
@click.option("--option", "-o", "options", multiple=True, metavar="K=V", help=OPTION_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object on stdout.")
@click.option(
    "--bot",
    help="Time this bot's decisions (ISMCTS: simulations/s) on fixed mid-game positions.",
)
@click.option(
    "--env", "env", is_flag=True, help="Environment steps/s (PettingZoo, Gymnasium; extra rl)."
)
def bench(
    game: str,
    seconds: float,
    players: int | None,
    options: tuple[str, ...],
    as_json: bool,
    bot: str | None,
    env: bool,
) -> None:
    """Measure random playouts of GAME on one core (or a bot's speed with --bot).

    Each playout is one hand/round/deal from a new seed.  Prints units/s and actions/s
    over the whole loop (legal_actions + random choice + apply) and the median cost in µs
    of one legal_actions, apply and view call.  With --bot, the bot decides in a fixed
    set of mid-game positions (deal i played at random to half its length) until the
    time is used, and the decisions/s and ISMCTS simulations/s are printed.
    """
    g = get_game(game)
    n = check_players(g, players)
    opts = parse_options(g, options)
    if bot is not None:
        parse_bots(g, bot)
        _bench_bot(g, n, bot, seconds, opts, as_json)
        return
    if env:
        _bench_env(g, n, seconds, opts, as_json)
        return
    if as_json:
        result = bench_mod.run_bench(g, n, seconds, opts)
        click.echo(json.dumps(result.to_json()))
        return
    with _progress("{task.completed:.1f}/{task.total:.1f} s") as progress:
        task = progress.add_task(f"{g.info.name} bench", total=seconds)
        result = bench_mod.run_bench(
            g,
            n,
            seconds,
            opts,
            on_progress=lambda t: progress.update(task, completed=min(t, seconds)),
        )
    data = result.to_json()
    click.echo(
        f"{data['game']}, {n} players, random playouts on one core for {result.seconds:.1f} s\n"
        f"  {data['units']}/s      {data['units_per_s']:>12,.1f}   ({result.units_played} "
        f"{data['units']})\n"
        f"  actions/s    {data['actions_per_s']:>12,.1f}   ({result.actions} actions)\n"
        f"  median µs per call: legal_actions {data['legal_actions_us']}, "
        f"apply {data['apply_us']}, view {data['view_us']}\n"
        f"  (playouts use game.playout; the contract loop itself ran "
        f"{result.contract_units_per_s:,.1f} {data['units']}/s)"
    )


def _bench_bot(g: AnyGame, n: int, bot: str, seconds: float, opts: Options, as_json: bool) -> None:
    """``bench --bot``: decisions and simulations per second of one bot."""
    if as_json:
        result = bench_mod.run_bot_bench(g, n, bot, seconds, opts)
        click.echo(json.dumps(result.to_json()))
        return
    with _progress("{task.completed:.1f}/{task.total:.1f} s") as progress:
        task = progress.add_task(f"{g.info.name} bench --bot {bot}", total=seconds)
        result = bench_mod.run_bot_bench(
            g,
            n,
            bot,
            seconds,
            opts,
            on_progress=lambda t: progress.update(task, completed=min(t, seconds)),
        )
    data = result.to_json()
    click.echo(
        f"{data['game']}, {n} players, bot {bot}: {result.decisions} decisions in "
        f"{result.seconds:.1f} s on fixed mid-game positions\n"
        f"  decisions/s   {data['decisions_per_s']:>12,.2f}\n"
        f"  simulations/s {data['simulations_per_s']:>12,.1f}   ({result.simulations} "
        f"simulations, {result.workers} process(es); per core "
        f"{data['simulations_per_s_per_core']:,.1f})"
    )


def _bench_env(g: AnyGame, n: int, seconds: float, opts: Options, as_json: bool) -> None:
    """``bench --env``: steps/s of the learning environments (needs the extra ``rl``)."""
    try:
        from cardtable.rl.bench import run_env_bench
    except ImportError as exc:
        raise click.ClickException(
            f"bench --env needs the extra rl: pip install 'cardtable[rl]' ({exc})"
        ) from exc
    result = run_env_bench(g, n, seconds, opts)
    data = result.to_json()
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(
        f"{data['game']}, {n} players, random masked ids, CPU time\n"
        f"  PettingZoo AEC steps/s {data['aec_steps_per_s']:>12,.1f}   "
        f"({result.aec_steps} steps, {result.aec_episodes} episodes)\n"
        f"  Gymnasium steps/s      {data['gym_steps_per_s']:>12,.1f}   "
        f"({result.gym_steps} steps, {result.gym_episodes} episodes; others: random bots)"
    )


cli.add_command(__import__("cardtable.cli.serve", fromlist=["serve"]).serve)

if __name__ == "__main__":  # pragma: no cover
    main()
