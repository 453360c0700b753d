"""Arena statistics: wins, Wilson 95% intervals, mean points, duplicate matches, ratings.

Per game, each entrant's **score** is the mean final score of the sides it holds.  When
every entrant holds exactly one side, an entrant **wins** a game when its side is among
the game's winners (shared wins split the point).  When one entrant holds several sides
(one ``hard`` against three ``medium``), entrants are compared by their score instead:
the best scores win (ties split).  A **duplicate match** is one deal over all its
seatings: the entrant with the highest total score over the seatings wins it.  An
entrant's **margin a deal** is its total score over a deal's seatings minus the mean of
the other entrants' totals, averaged over the deals, with its standard error: a finer
measure than who wins the deal, for comparing bots on the same deals.

Ratings are openskill's Plackett–Luce ratings, updated game by game in job order: each
side is a team of the entrants in its seats (partnerships are teams of two), or, when an
entrant holds several sides, each entrant is a team ranked by its score.

>>> wilson(60, 100)
(0.502, 0.691)
>>> mean_and_error([10.0, -2.0, 4.0])
(4.0, 3.464)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from cardtable.arena.core import ArenaConfig, GameResult

__all__ = ["EntrantSummary", "Summary", "game_wins", "mean_and_error", "summarise", "wilson"]

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (rounded to 3 places); (0, 1) when n = 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (rounded to 3 places; the error is 0
    below two values)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    mean = sum(values) / n
    if n < 2:
        return (round(mean, 3), 0.0)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return (round(mean, 3), round(math.sqrt(var / n), 3))


def _entrant_sides(r: GameResult, entrants: int) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(entrants)]
    for i, side in enumerate(r.sides):
        e = r.entrant_of_seat[side[0]]
        if i not in out[e]:
            out[e].append(i)
    return out


def entrant_scores(r: GameResult, entrants: int) -> list[float]:
    """Each entrant's mean side score in one game."""
    held = _entrant_sides(r, entrants)
    return [sum(r.scores[i] for i in h) / len(h) if h else 0.0 for h in held]


def game_wins(r: GameResult, entrants: int) -> list[float]:
    """Each entrant's share of the win in one game (see the module doc)."""
    held = _entrant_sides(r, entrants)
    wins = [0.0] * entrants
    if all(len(h) == 1 for h in held):
        if not r.winners:
            return wins
        share = 1.0 / len(r.winners)
        for w in r.winners:
            for e, h in enumerate(held):
                if w in h:
                    wins[e] += share
        return wins
    scores = entrant_scores(r, entrants)
    best = max(scores)
    top = [e for e, s in enumerate(scores) if s == best]
    for e in top:
        wins[e] = 1.0 / len(top)
    return wins


@dataclass(frozen=True, slots=True)
class EntrantSummary:
    """One entrant's results."""

    bot: str
    games: int
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    mean_points: float
    matches: int
    match_wins: float
    match_win_rate: float
    match_ci95: tuple[float, float]
    rating: float
    mu: float
    sigma: float
    match_margin: tuple[float, float] = (0.0, 0.0)
    """The margin a deal (see the module doc): mean and standard error."""

    def to_json(self) -> dict[str, Any]:
        """The entrant as JSON (``win_rate``, ``ci95``, ``mean_points``, ``rating``, …)."""
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "ci95": list(self.ci95),
            "mean_points": round(self.mean_points, 3),
            "duplicate_matches": self.matches,
            "duplicate_wins": self.match_wins,
            "duplicate_win_rate": round(self.match_win_rate, 4),
            "duplicate_ci95": list(self.match_ci95),
            "duplicate_margin": self.match_margin[0],
            "duplicate_margin_se": self.match_margin[1],
            "rating": round(self.rating, 3),
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """A whole arena run."""

    config: ArenaConfig
    games: int
    units: int
    entrants: tuple[EntrantSummary, ...]
    results: tuple[GameResult, ...]

    def to_json(self, with_games: bool = False) -> dict[str, Any]:
        """The run as JSON: config, totals and one object per bot (games on request)."""
        out: dict[str, Any] = {
            "config": self.config.to_json(),
            "games": self.games,
            "units": self.units,
            "bots": [e.to_json() for e in self.entrants],
        }
        if with_games:
            out["results"] = [r.to_json() for r in self.results]
        return out


def _ratings(results: Sequence[GameResult], entrants: int) -> list[tuple[float, float, float]]:
    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(entrants)]
    for r in results:
        held = _entrant_sides(r, entrants)
        if all(len(h) == 1 for h in held):
            # Sides are the teams; a team lists the distinct entrants in its seats.
            teams_idx = []
            for side in r.sides:
                members: list[int] = []
                for seat in side:
                    e = r.entrant_of_seat[seat]
                    if e not in members:
                        members.append(e)
                teams_idx.append(members)
            flat = [e for t in teams_idx for e in t]
            if len(flat) != len(set(flat)):
                continue  # one entrant in two teams: nothing to learn from this game
            side_scores = [float(s) for s in r.scores]
        else:
            teams_idx = [[e] for e in range(entrants)]
            side_scores = entrant_scores(r, entrants)
        if len(teams_idx) < 2:
            continue
        teams = [[ratings[e] for e in t] for t in teams_idx]
        new = model.rate(teams, scores=side_scores)
        for t, team in zip(teams_idx, new, strict=True):
            for e, rating in zip(t, team, strict=True):
                ratings[e] = rating
    return [(float(x.ordinal()), float(x.mu), float(x.sigma)) for x in ratings]


def summarise(cfg: ArenaConfig, results: Sequence[GameResult]) -> Summary:
    """Win rates with Wilson intervals, mean points, duplicate matches and ratings."""
    k = len(cfg.bots)
    ordered = sorted(results, key=lambda r: r.index)
    wins = [0.0] * k
    points = [0.0] * k
    by_deal: dict[int, list[float]] = {}
    units = 0
    for r in ordered:
        w = game_wins(r, k)
        s = entrant_scores(r, k)
        units += r.units
        acc = by_deal.setdefault(r.deal, [0.0] * k)
        for e in range(k):
            wins[e] += w[e]
            points[e] += s[e]
            acc[e] += s[e]
    match_wins = [0.0] * k
    for totals in by_deal.values():
        best = max(totals)
        top = [e for e, t in enumerate(totals) if t == best]
        for e in top:
            match_wins[e] += 1.0 / len(top)
    margins = [
        mean_and_error(
            [t[e] - (sum(t) - t[e]) / (k - 1) if k > 1 else 0.0 for t in by_deal.values()]
        )
        for e in range(k)
    ]
    ratings = _ratings(ordered, k) if k > 1 else [(0.0, 25.0, 25 / 3)]
    n = len(ordered)
    m = len(by_deal)
    entrants = tuple(
        EntrantSummary(
            cfg.bots[e],
            n,
            wins[e],
            wins[e] / n if n else 0.0,
            wilson(wins[e], n),
            points[e] / n if n else 0.0,
            m,
            match_wins[e],
            match_wins[e] / m if m else 0.0,
            wilson(match_wins[e], m),
            *ratings[e],
            margins[e],
        )
        for e in range(k)
    )
    return Summary(cfg, n, units, entrants, tuple(ordered))
