"""``cardtable bench``: random playouts, a bot's decisions or the environments, timed."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

import click

from cardtable.cli import bench as bench_mod
from cardtable.cli.common import (
    OPTION_HELP,
    FiniteRange,
    check_players,
    get_game,
    parse_bots,
    parse_options,
    progress_bar,
)
from cardtable.core.options import Options
from cardtable.core.registry import AnyGame

__all__ = ["bench"]

R = TypeVar("R")
Progress = Callable[[float], None] | None
"""What the runs call with the seconds elapsed (``None``: nothing to show)."""


@click.command()
@click.argument("game")
@click.option(
    "--seconds",
    "-t",
    type=FiniteRange(min=0.0, max=86_400.0, min_open=True),
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
    result = _timed(
        f"{g.info.name} bench",
        seconds,
        as_json,
        lambda on_progress: bench_mod.run_bench(g, n, seconds, opts, on_progress=on_progress),
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
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


def _timed(label: str, seconds: float, quiet: bool, run: Callable[[Progress], R]) -> R:
    """``run(on_progress)``, with a progress bar of the ``seconds`` it runs unless
    ``quiet`` (``--json``: nothing but the JSON object is printed)."""
    if quiet:
        return run(None)
    with progress_bar("{task.completed:.1f}/{task.total:.1f} s") as bar:
        task = bar.add_task(label, total=seconds)
        return run(lambda t: bar.update(task, completed=min(t, seconds)))


def _bench_bot(g: AnyGame, n: int, bot: str, seconds: float, opts: Options, as_json: bool) -> None:
    """``bench --bot``: decisions and simulations per second of one bot."""
    result = _timed(
        f"{g.info.name} bench --bot {bot}",
        seconds,
        as_json,
        lambda on_progress: bench_mod.run_bot_bench(
            g, n, bot, seconds, opts, on_progress=on_progress
        ),
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
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
