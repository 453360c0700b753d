"""Server-rendered HTML: the lobby (its form generated from each game's option schema), the
table and replay shells, and the player page.  Everything is escaped; no external assets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from importlib import resources
from typing import Any

from cardtable.core.options import OptionSpec
from cardtable.core.present import OptionText
from cardtable.core.registry import AnyGame
from cardtable.server.i18n import LANGUAGE_NAMES, LANGUAGES, Translator
from cardtable.server.present import render_message
from cardtable.server.store import PlayerGame, TableRow

__all__ = ["lobby_page", "player_page", "replay_page", "table_page"]


def _json_script(data: object) -> str:
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _layout(
    tr: Translator, title: str, body: str, boot: dict[str, Any] | None = None, path: str = "/"
) -> str:
    current = ' aria-current="true"'
    switch = " ".join(
        f'<a href="{escape(path)}?lang={lang}" lang="{lang}" hreflang="{lang}"'
        f"{current if lang == tr.lang else ''}>{LANGUAGE_NAMES[lang]}</a>"
        for lang in LANGUAGES
    )
    script = ""
    if boot is not None:
        boot = {**boot, "i18n": tr.client_catalog()}
        script = (
            f'<script id="boot" type="application/json">{_json_script(boot)}</script>'
            + (
                f'<script src="{escape(own)}" defer></script>'
                if (own := boot.get("script"))
                else ""
            )
            + '<script src="/static/app.js" defer></script>'
        )
    return f"""<!doctype html>
<html lang="{tr.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/static/app.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body>
<header class="top"><a class="brand" href="/">cardtable</a>
<nav class="langs" aria-label="{escape(tr.gettext("Language"))}">{switch}</nav></header>
<main id="main">{body}</main>
{script}
</body>
</html>"""


def _choice_label(text: OptionText, choice: str, tr: Translator) -> str:
    message = text.choices.get(choice)
    return choice if message is None else render_message(message, (), tr)


def _option_field(game: AnyGame, spec: OptionSpec, tr: Translator) -> str:
    name = f"{game.info.name}.opt.{spec.name}"
    text = game.option_text(spec)
    label = escape(render_message(text.label, (), tr))
    helptext = escape(render_message(text.help, (), tr))
    if spec.type == "bool":
        checked = " checked" if spec.default else ""
        control = (
            f'<input type="hidden" name="{name}" value="false">'
            f'<input type="checkbox" name="{name}" value="true"{checked}>'
        )
        return f'<label class="opt">{control} {label} <small>{helptext}</small></label>'
    if spec.type == "choice":
        opts = "".join(
            f'<option value="{escape(c)}"{" selected" if c == spec.default else ""}>'
            f"{escape(_choice_label(text, c, tr))}</option>"
            for c in spec.choices
        )
        control = f'<select name="{name}">{opts}</select>'
    elif spec.type == "int":
        lo = "" if spec.minimum is None else f' min="{spec.minimum}"'
        hi = "" if spec.maximum is None else f' max="{spec.maximum}"'
        control = f'<input type="number" name="{name}" value="{spec.default}"{lo}{hi}>'
    else:
        control = f'<input type="text" name="{name}" value="{escape(str(spec.default))}">'
    return f'<label class="opt">{label} {control} <small>{helptext}</small></label>'


def _game_fieldset(
    game: AnyGame, levels: Sequence[str], default_bot: str, tr: Translator, first: bool
) -> str:
    info = game.info
    g = info.name
    seats = []
    for i in range(info.max_players):
        choices = [("human", tr.gettext("Human"))] + [
            (f"bot:{lv}", tr.fmt("Bot: {level}", level=tr.gettext(f"level:{lv}"))) for lv in levels
        ]
        default = "human" if i == 0 else f"bot:{default_bot}"
        opts = "".join(
            f'<option value="{escape(v)}"{" selected" if v == default else ""}>{escape(t)}</option>'
            for v, t in choices
        )
        hidden = " hidden" if i >= info.default_players else ""
        seats.append(
            f'<label class="seat-choice" data-seat="{i}"{hidden}>'
            f"{escape(tr.fmt('Seat {n}', n=i + 1))} "
            f'<select name="{g}.seat.{i}">{opts}</select></label>'
        )
    options = "".join(_option_field(game, s, tr) for s in info.options.specs)
    return f"""<fieldset class="game-form" data-game="{g}"{"" if first else " hidden"}>
<legend>{escape(info.title)}</legend>
<label>{escape(tr.gettext("Players"))} <input type="number" name="{g}.players"
 value="{info.default_players}" min="{info.min_players}" max="{info.max_players}"
 data-players></label>
<div class="seats">{"".join(seats)}</div>
<details><summary>{escape(tr.gettext("Rules options"))}</summary>{options}</details>
</fieldset>"""


def lobby_page(
    tr: Translator,
    games: Sequence[AnyGame],
    levels: dict[str, list[str]],
    default_bots: dict[str, str],
    name: str,
    recent: Sequence[TableRow],
    me: str | None,
) -> str:
    """The start page: one-click play, the new-table form and recent games."""
    game_opts = "".join(
        f'<option value="{g.info.name}">{escape(g.info.title)}</option>' for g in games
    )
    fieldsets = "".join(
        _game_fieldset(g, levels[g.info.name], default_bots[g.info.name], tr, i == 0)
        for i, g in enumerate(games)
    )
    rows = "".join(
        f'<li><a href="/replay/{escape(r.id)}">{escape(r.game)}</a> '
        f"<small>{escape(tr.gettext('status:' + r.status))}</small></li>"
        for r in recent
    )
    guides = "".join(
        f'<li><a href="/rules/{g.info.name}?lang={tr.lang}">{escape(g.info.title)}</a></li>'
        for g in games
        if g.how_to_play(tr.lang) is not None or g.how_to_play("en") is not None
    )
    mine = (
        f'<p><a href="/player/{escape(me)}">{escape(tr.gettext("My games and rating"))}</a></p>'
        if me
        else ""
    )
    body = f"""
<section class="hero">
<h1>{escape(tr.gettext("Card games in your browser"))}</h1>
<form method="post" action="/play"><button class="big" type="submit" id="quick-play">
{escape(tr.gettext("Play Royal Casino against the computer"))}</button></form>
{mine}
</section>
<section class="new-table">
<h2>{escape(tr.gettext("New table"))}</h2>
<form method="post" action="/new" id="new-table">
<label>{escape(tr.gettext("Your name"))} <input name="name" value="{escape(name)}"
 maxlength="40" autocomplete="nickname"></label>
<label>{escape(tr.gettext("Game"))}
 <select name="game" id="game-select">{game_opts}</select></label>
{fieldsets}
<label class="opt"><input type="checkbox" name="rated" value="true">
 {escape(tr.gettext("Rated (no hints)"))}</label>
<label class="opt"><input type="checkbox" name="unit" value="true">
 {escape(tr.gettext("One hand only"))}</label>
<label>{escape(tr.gettext("Move timer in seconds (0 = none)"))}
 <input type="number" name="timer" value="0" min="0" max="600"></label>
<button type="submit">{escape(tr.gettext("Create table"))}</button>
</form>
</section>
<section class="guides"><h2>{escape(tr.gettext("How to play"))}</h2><ul>{guides}</ul></section>
<section><h2>{escape(tr.gettext("Finished games"))}</h2><ul>{rows}</ul></section>
<script src="/static/lobby.js" defer></script>
"""
    return _layout(tr, "cardtable", body)


def table_script(game: AnyGame) -> str | None:
    """The game's own drawing of the middle of the table (``static/table.js`` in its
    package), or ``None`` when it has none (``app.js`` then draws its cards generically)."""
    package = game.resource_package()
    if package is None:
        return None
    try:
        found = resources.files(package).joinpath("static", "table.js")
        return found.read_text(encoding="utf-8") if found.is_file() else None
    except ModuleNotFoundError:
        return None


def _boot(mode: str, table_id: str, game: AnyGame, players: int) -> dict[str, Any]:
    """What ``app.js`` needs before the first message: the game, its sides, its script."""
    has_script = table_script(game) is not None
    return {
        "mode": mode,
        "table": table_id,
        "game": game.info.name,
        "title": game.info.title,
        "sides": [list(side) for side in game.sides(players)],
        "script": f"/games/{game.info.name}/table.js" if has_script else None,
    }


def table_page(tr: Translator, table_id: str, game: AnyGame, players: int) -> str:
    """The table shell; ``app.js`` draws it from the websocket's messages."""
    body = '<div id="app" class="app"><p class="loading">…</p></div>'
    boot = _boot("table", table_id, game, players)
    return _layout(tr, f"{game.info.title} — cardtable", body, boot, f"/t/{table_id}")


def replay_page(tr: Translator, table_id: str, game: AnyGame, players: int) -> str:
    """The replay shell; ``app.js`` fetches the steps."""
    body = '<div id="app" class="app"><p class="loading">…</p></div>'
    boot = _boot("replay", table_id, game, players)
    return _layout(tr, f"{game.info.title} — replay", body, boot, f"/replay/{table_id}")


def player_page(
    tr: Translator,
    player_id: str,
    name: str,
    games: Sequence[PlayerGame],
    ratings: dict[str, tuple[float, float, int]],
) -> str:
    """A player's rating per game and their tables."""
    rates = "".join(
        f"<tr><td>{escape(g)}</td><td>{mu - 3 * sigma:.1f}</td><td>{mu:.1f} ± {sigma:.1f}</td>"
        f"<td>{n}</td></tr>"
        for g, (mu, sigma, n) in sorted(ratings.items())
    )
    rows = []
    for pg in games:
        result = ""
        if pg.result:
            won = any(pg.seat in pg.result["sides"][w] for w in pg.result.get("winners", []))
            result = tr.gettext("won") if won else tr.gettext("lost")
        link = f"/replay/{pg.table_id}" if pg.status != "playing" else f"/t/{pg.table_id}"
        rows.append(
            f'<tr><td><a href="{escape(link)}">{escape(pg.game)}</a></td>'
            f"<td>{escape(tr.gettext('status:' + pg.status))}</td><td>{escape(result)}</td>"
            f"<td>{'✓' if pg.rated else ''}</td>"
            f"<td>{pg.updated_at:%Y-%m-%d %H:%M}</td></tr>"
        )
    body = f"""<h1>{escape(name)}</h1>
<h2>{escape(tr.gettext("Ratings"))}</h2>
<table class="list"><thead><tr><th>{escape(tr.gettext("Game"))}</th>
<th>{escape(tr.gettext("Rating"))}</th><th>μ ± σ</th><th>{escape(tr.gettext("Games"))}</th></tr>
</thead><tbody>{rates}</tbody></table>
<h2>{escape(tr.gettext("Games"))}</h2>
<table class="list"><thead><tr><th>{escape(tr.gettext("Game"))}</th>
<th>{escape(tr.gettext("Status"))}</th><th>{escape(tr.gettext("Result"))}</th>
<th>{escape(tr.gettext("Rated"))}</th><th></th></tr></thead><tbody>{"".join(rows)}</tbody></table>"""
    return _layout(tr, f"{name} — cardtable", body, None, f"/player/{player_id}")
