"""``cardtable arena``: the running table shown during a run and the final report."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table as RichTable

from cardtable.arena.core import ArenaConfig, GameResult
from cardtable.arena.stats import Summary, game_wins
from cardtable.core.errors import InvalidOptionError

__all__ = ["RunningTable", "summary_table"]


class RunningTable:
    """Wins so far by bot, for the progress line."""

    def __init__(self, cfg: ArenaConfig) -> None:
        self.cfg = cfg
        self.wins = [0.0] * len(cfg.bots)
        self.games = 0

    def add(self, result: GameResult) -> None:
        """Count one finished game."""
        for i, w in enumerate(game_wins(result, len(self.cfg.bots))):
            self.wins[i] += w
        self.games += 1

    def line(self) -> str:
        """``hard 61.0% · medium 39.0%`` over the games so far."""
        if not self.games:
            return "starting"
        return " · ".join(
            f"{b} {100 * w / self.games:.1f}%"
            for b, w in zip(self.cfg.bots, self.wins, strict=True)
        )


def summary_table(summary: Summary, title: str) -> RichTable:
    """The results: win rate with its 95% interval, duplicate matches, points, the margin a
    deal (with its standard error), rating."""
    table = RichTable(title=title)
    columns = ("bot", "games", "win % (95% CI)", "dup. match % (95% CI)", "points")
    for column in (*columns, "margin/deal", "rating"):
        # An interval may wrap under its rate in a narrow terminal; nothing is cut short.
        table.add_column(
            column, justify="left" if column == "bot" else "right", no_wrap="CI" not in column
        )
    for e in summary.entrants:
        table.add_row(
            e.bot,
            str(e.games),
            f"{100 * e.win_rate:.1f} ({100 * e.ci95[0]:.1f}–{100 * e.ci95[1]:.1f})",
            f"{100 * e.match_win_rate:.1f} ({100 * e.match_ci95[0]:.1f}–"
            f"{100 * e.match_ci95[1]:.1f})",
            f"{e.mean_points:.2f}",
            f"{e.match_margin[0]:+.1f} ± {e.match_margin[1]:.1f}",
            f"{e.rating:.2f}",
        )
    return table


def parse_budgets(text: str | None) -> list[int]:
    """``100,400,1600`` as a list of simulation budgets (empty when not given)."""
    if text is None:
        return []
    budgets = []
    for word in text.split(","):
        try:
            budget = int(word.strip())
        except ValueError:
            raise InvalidOptionError(
                f"--budgets: write simulation counts like 100,400,1600; got {text!r}"
            ) from None
        if budget < 1:
            raise InvalidOptionError(f"--budgets: a budget must be at least 1; got {budget}")
        budgets.append(budget)
    return budgets


def sweep_bots(bots: Sequence[str], budget: int) -> tuple[str, ...]:
    """The entrants of one budget of a sweep: the first bot becomes ``ismcts:BUDGET``."""
    return (f"ismcts:{budget}", *bots[1:])
