"""Charts of arena results (matplotlib, PNG or SVG by the file's suffix).

With a budget sweep, the chart is the searching bot's win rate against its budget
(simulations per move, log scale) with 95% intervals; otherwise one bar per bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cardtable.arena.stats import Summary

__all__ = ["write_chart"]


def write_chart(
    path: Path,
    summaries: Sequence[Summary],
    budgets: Sequence[int] | None = None,
    title: str = "",
) -> None:
    """Draw the win rates of ``summaries`` into ``path`` (``.png`` or ``.svg``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=120)
    if budgets:
        rates = [s.entrants[0].win_rate for s in summaries]
        lows = [s.entrants[0].win_rate - s.entrants[0].ci95[0] for s in summaries]
        highs = [s.entrants[0].ci95[1] - s.entrants[0].win_rate for s in summaries]
        ax.errorbar(list(budgets), rates, yerr=[lows, highs], marker="o", capsize=4)
        ax.set_xscale("log")
        ax.set_xlabel("ISMCTS simulations per move")
        opponents = ", ".join(summaries[0].config.bots[1:])
        ax.set_ylabel(f"win rate against {opponents}")
    else:
        s = summaries[0]
        names = [e.bot for e in s.entrants]
        rates = [e.win_rate for e in s.entrants]
        err = [
            [e.win_rate - e.ci95[0] for e in s.entrants],
            [e.ci95[1] - e.win_rate for e in s.entrants],
        ]
        ax.bar(names, rates, yerr=err, capsize=4)
        ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_title(title or summaries[0].config.game)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
