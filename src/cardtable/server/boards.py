"""Server-rendered pages of the daily challenge (today's games, a day's board, two replays
side by side), the rating leaderboards and the player page's history: results and a rating
chart drawn as inline SVG (no script, no library).  Everything is escaped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from html import escape

from cardtable.core.registry import AnyGame
from cardtable.server.i18n import Translator
from cardtable.server.pages import RATING_EXPLAINED, _layout, game_title
from cardtable.server.store import Attempt, DayWinner, LeaderRow, RatingPoint

__all__ = [
    "REPLAYS_LATER",
    "RULE",
    "DailyGame",
    "daily_board_page",
    "daily_page",
    "leaderboards_page",
    "player_history",
    "rating_chart",
]


RULE = (
    "Everyone plays the same deals against the same bots. One attempt a day per game; a "
    "challenge left half-way can be resumed the same day (the day is UTC). Nobody sees the "
    "deals before playing them."
)
"""The rules of the daily challenge as the page states them (a catalog message id)."""
REPLAYS_LATER = "Replays open once you have played this challenge (or when the day is over)."
"""Why a day's board shows no replays yet (a catalog message id)."""


@dataclass(frozen=True, slots=True)
class DailyGame:
    """One game of today's challenge as a player sees it: its deals and their attempt
    (with its rank and field size once finished)."""

    game: AnyGame
    deals: int
    attempt: Attempt | None
    rank: int | None = None
    field: int = 0


NOBODY_YET = "Nobody on this board yet: play rated games to be the first."
"""An empty leaderboard."""


def _title(name: str, known: Mapping[str, AnyGame], tr: Translator) -> str:
    return game_title(known[name], tr) if name in known else name


def _board_href(game: str, day: date) -> str:
    return f"/daily/{game}/{day.isoformat()}"


def daily_page(
    tr: Translator,
    day: date,
    games: Sequence[DailyGame],
    past: Sequence[DayWinner],
    name: str,
    known: Mapping[str, AnyGame],
) -> str:
    """Today's challenge of every game (play, resume, or one's result) and past days with
    their winners."""
    cards = []
    for g in games:
        gname = g.game.info.name
        title = escape(game_title(g.game, tr))
        deals = escape(tr.nfmt("{num} deal", "{num} deals", g.deals))
        a = g.attempt
        if a is None:
            action = f"""<form method="post" action="/daily/{gname}/start" class="daily-start">
<label>{escape(tr.gettext("Your name"))} <input name="name" value="{escape(name)}" maxlength="40"
 autocomplete="nickname"></label>
<button type="submit" data-game="{gname}">{escape(tr.gettext("Play today's challenge"))}</button>
</form>"""
        elif not a.finished:
            played = sum(1 for _, _, s in a.deals if s is not None)
            text = tr.fmt("Deal {n} of {m}", n=min(played + 1, a.count), m=a.count)
            action = (
                f'<p>{escape(text)}</p><p><a class="button" href="/daily/{gname}/play">'
                f"{escape(tr.gettext('Resume'))}</a></p>"
            )
        else:
            text = tr.fmt(
                "Your score: {score} — rank {rank} of {field}",
                score=a.score,
                rank=g.rank,
                field=g.field,
            )
            action = f'<p class="daily-result">{escape(text)}</p>'
        board = escape(tr.gettext("Today's leaderboard"))
        cards.append(
            f'<li class="daily-game" id="daily-{gname}"><h3>{title}</h3><p class="muted">{deals}'
            f'</p>{action}<p><a href="{_board_href(gname, day)}">{board}</a></p></li>'
        )
    rows = "".join(
        f'<tr><td><a href="{_board_href(w.game, w.day)}">{w.day.isoformat()}</a></td>'
        f"<td>{escape(_title(w.game, known, tr))}</td>"
        f'<td><a href="/player/{escape(w.winner_id)}">{escape(w.winner)}</a></td>'
        f"<td>{w.score}</td><td>{w.entries}</td></tr>"
        for w in past
    )
    rule = tr.gettext(RULE)
    body = f"""<h1>{escape(tr.fmt("Daily challenge — {date}", date=day.isoformat()))}</h1>
<p>{escape(rule)}</p>
<ul class="daily-games">{"".join(cards)}</ul>
<h2>{escape(tr.gettext("Past days"))}</h2>
<table class="list past-days"><thead><tr><th>{escape(tr.gettext("Date"))}</th>
<th>{escape(tr.gettext("Game"))}</th><th>{escape(tr.gettext("Winner"))}</th>
<th>{escape(tr.gettext("Score"))}</th><th>{escape(tr.gettext("Players"))}</th></tr></thead>
<tbody>{rows}</tbody></table>"""
    return _layout(tr, tr.gettext("Daily challenge") + " — cardtable", body, None, "/daily")


def daily_board_page(
    tr: Translator,
    game: AnyGame,
    day: date,
    ranked: Sequence[tuple[int, float, Attempt]],
    playing: int,
    viewer: str | None,
    may_see: bool,
) -> str:
    """A day's board of one game: rank, player, score, percentile and each deal's score;
    once the viewer may see the deals, links to compare each entry with their own."""
    gname = game.info.name
    rows = []
    for rank, pct, a in ranked:
        deals = " · ".join("–" if s is None else str(s) for _, _, s in a.deals)
        link = ""
        if may_see:
            link = (
                f'<a class="compare" href="{_board_href(gname, day)}/vs/{escape(a.player_id)}">'
                f"{escape(tr.gettext('Replay'))}</a>"
            )
        you = ' class="you"' if a.player_id == viewer else ""
        rows.append(
            f'<tr{you} data-player="{escape(a.player_id)}"><td class="rank">{rank}</td>'
            f'<td><a href="/player/{escape(a.player_id)}">{escape(a.name)}</a></td>'
            f'<td class="score">{a.score}</td><td class="pct">{pct:g} %</td>'
            f"<td>{escape(deals)}</td><td>{link}</td></tr>"
        )
    note = ""
    if playing:
        still = tr.nfmt("{num} player is still playing", "{num} players are still playing", playing)
        note = f"<p>{escape(still)}</p>"
    if not may_see:
        note += f'<p class="muted">{escape(tr.gettext(REPLAYS_LATER))}</p>'
    title = tr.fmt("{game} — daily challenge of {date}", game=game_title(game, tr), date=str(day))
    body = f"""<h1>{escape(title)}</h1>
<p><a href="/daily">{escape(tr.gettext("Daily challenge"))}</a></p>
<table class="list daily-board"><thead><tr><th>{escape(tr.gettext("Rank"))}</th>
<th>{escape(tr.gettext("Player"))}</th><th>{escape(tr.gettext("Score"))}</th>
<th>{escape(tr.gettext("Percentile"))}</th><th>{escape(tr.gettext("Deals"))}</th><th></th></tr>
</thead><tbody>{"".join(rows)}</tbody></table>{note}"""
    return _layout(tr, title, body, None, _board_href(gname, day))


def leaderboards_page(
    tr: Translator, boards: Sequence[tuple[AnyGame, Sequence[LeaderRow]]], min_games: int
) -> str:
    """The rating leaderboard of every game: players with at least ``min_games`` rated
    games, by ``mu - 3 sigma``."""
    parts = []
    for game, rows in boards:
        lines = "".join(
            f'<tr data-player="{escape(r.player_id)}"><td>{i}</td>'
            f'<td><a href="/player/{escape(r.player_id)}">{escape(r.name)}</a></td>'
            f"<td>{r.rating:.1f}</td><td>{r.games}</td></tr>"
            for i, r in enumerate(rows, 1)
        )
        table = (
            f'<table class="list"><thead><tr><th>{escape(tr.gettext("Rank"))}</th>'
            f"<th>{escape(tr.gettext('Player'))}</th><th>{escape(tr.gettext('Rating'))}</th>"
            f"<th>{escape(tr.gettext('Rated games'))}</th></tr></thead>"
            f"<tbody>{lines}</tbody></table>"
            if rows
            else f'<p class="muted">{escape(tr.gettext(NOBODY_YET))}</p>'
        )
        parts.append(
            f'<section id="board-{game.info.name}"><h2>{escape(game_title(game, tr))}</h2>'
            f"{table}</section>"
        )
    note = tr.nfmt(
        "Players with at least {num} rated game.",
        "Players with at least {num} rated games.",
        min_games,
    )
    body = (
        f"<h1>{escape(tr.gettext('Leaderboards'))}</h1><p>{escape(note)}</p>"
        f'<p class="rating-help">{escape(tr.gettext(RATING_EXPLAINED))}</p>' + "".join(parts)
    )
    return _layout(tr, tr.gettext("Leaderboards") + " — cardtable", body, None, "/leaderboard")


def rating_chart(points: Sequence[RatingPoint], label: str) -> str:
    """A line chart of the shown rating (``mu - 3 sigma``) after each rated game, as inline
    SVG with its range written on the axis.

    >>> from datetime import datetime
    >>> svg = rating_chart([RatingPoint(datetime(2026, 1, 1), 25.0, 8.0, 1),
    ...                     RatingPoint(datetime(2026, 1, 2), 27.0, 7.0, 2)], "chart")
    >>> svg.startswith("<svg") and "<polyline" in svg and 'aria-label="chart"' in svg
    True
    """
    w, h, pad = 320, 120, 24
    values = [p.mu - 3 * p.sigma for p in points]
    if not values:
        return ""
    lo, hi = min(values), max(values)
    span = hi - lo or 1.0
    step = (w - 2 * pad) / max(1, len(values) - 1)
    coords = [
        (pad + i * step, h - pad - (v - lo) / span * (h - 2 * pad)) for i, v in enumerate(values)
    ]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5"/>' for x, y in coords)
    return (
        f'<svg class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img"'
        f' aria-label="{escape(label)}"><title>{escape(label)}</title>'
        f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" class="axis"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" class="axis"/>'
        f'<text x="2" y="{pad}" class="tick">{hi:.1f}</text>'
        f'<text x="2" y="{h - pad}" class="tick">{lo:.1f}</text>'
        f'<text x="{w - pad}" y="{h - 6}" class="tick" text-anchor="end">{len(values)}</text>'
        f'<polyline points="{line}" fill="none"/>{dots}</svg>'
    )


def player_history(
    tr: Translator,
    history: Mapping[str, Sequence[RatingPoint]],
    attempts: Sequence[Attempt],
    known: Mapping[str, AnyGame],
) -> str:
    """The player page's history: a rating chart per game and the daily challenge results
    (attempts not finished are left out: their deals are not to be seen)."""
    charts = []
    for game, points in sorted(history.items()):
        title = _title(game, known, tr)
        label = tr.fmt("Rating in {game} after each rated game", game=title)
        charts.append(
            f"<figure><figcaption>{escape(title)}</figcaption>{rating_chart(points, label)}"
            "</figure>"
        )
    rows = "".join(
        f'<tr><td><a href="{_board_href(a.game, a.day)}">{a.day.isoformat()}</a></td>'
        f"<td>{escape(_title(a.game, known, tr))}</td><td>{a.score}</td></tr>"
        for a in attempts
        if a.finished
    )
    return f"""<h2>{escape(tr.gettext("Rating over time"))}</h2>
<div class="charts">{"".join(charts)}</div>
<h2>{escape(tr.gettext("Daily challenge"))}</h2>
<table class="list daily-results"><thead><tr><th>{escape(tr.gettext("Date"))}</th>
<th>{escape(tr.gettext("Game"))}</th><th>{escape(tr.gettext("Score"))}</th></tr></thead>
<tbody>{rows}</tbody></table>"""
