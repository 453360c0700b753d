"""Server-rendered HTML: the lobby (its form generated from each game's option schema), the
table and replay shells, and the player page.  Everything is escaped; no external assets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from html import escape
from importlib import resources
from typing import Any

from cardtable.core.game import Outcome
from cardtable.core.options import OptionSpec
from cardtable.core.present import OptionText
from cardtable.core.registry import AnyGame
from cardtable.server.forms import MAX_NAME, MAX_TIMER
from cardtable.server.i18n import LANGUAGE_NAMES, LANGUAGES, Translator
from cardtable.server.present import render_message
from cardtable.server.store import PlayerGame, TableRow

__all__ = [
    "RATING_EXPLAINED",
    "bdi",
    "daily_compare_page",
    "deck_switch",
    "finished_list",
    "game_title",
    "help_html",
    "lobby_page",
    "message_page",
    "player_page",
    "replay_page",
    "table_page",
    "table_script",
]


RATING_EXPLAINED = (
    "Your rating is how strong we are sure you are: it starts at 0, rises when you win rated "
    "games against strong players and falls when you lose, and it grows as you play, because "
    "each game makes us surer. Only rated games count."
)
"""What the rating means, for players (the leaderboard and the player page)."""


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
<script src="/static/deck.js"></script>
</head>
<body>
<header class="top"><a class="brand" href="/">cardtable</a>
<nav class="langs" aria-label="{escape(tr.gettext("Language"))}">{switch}</nav></header>
<main id="main">{body}</main>
{script}
</body>
</html>"""


def message_page(tr: Translator, text: str, back: tuple[str, str] | None = None) -> str:
    """A refusal or an error in the site's frame and the visitor's language: the reason
    (already translated) and the way on, ``back`` (address and words; by default the lobby).

    >>> from cardtable.server.i18n import translator
    >>> page = message_page(translator("cs"), "Takový stůl tu není")
    >>> '<html lang="cs">' in page and 'href="/">Zpět na úvodní stránku</a>' in page
    True
    """
    href, label = back or ("/", tr.gettext("Back to the lobby"))
    body = (
        f'<section class="message"><h1>{escape(text)}</h1>'
        f'<p><a href="{escape(href)}">{escape(label)}</a></p></section>'
    )
    return _layout(tr, f"{text} — cardtable", body)


def bdi(name: str) -> str:
    """A player's name as HTML, isolated from the text around it (``<bdi>``), so that a
    right-to-left name does not reorder the sentence it stands in.

    >>> bdi("<Ann>")
    '<bdi>&lt;Ann&gt;</bdi>'
    """
    return f"<bdi>{escape(name)}</bdi>"


def _fmt_html(text: str, names: str) -> str:
    """``text`` (a translated sentence with the marker ``\x00`` where the names go) escaped,
    with ``names`` (HTML) in place of the marker."""
    return escape(text).replace("\x00", names)


def deck_switch(tr: Translator) -> str:
    """The four-colour deck switch (``static/deck.js`` makes it work and remembers it)."""
    sample = "".join(f'<span class="s-{s}">{p}</span>' for s, p in zip("SHDC", "♠♥♦♣", strict=True))
    return (
        f'<p class="prefs"><button type="button" class="toggle" data-four-colour'
        f' aria-pressed="false">{escape(tr.gettext("Four-colour deck"))}</button>'
        f' <span class="suit-sample" aria-hidden="true">{sample}</span></p>'
    )


def game_title(game: AnyGame, tr: Translator) -> str:
    """The name players of ``tr``'s language know the game by: the message ``game:<name>``
    of the game's own catalog, else the game's English title."""
    key = f"game:{game.info.name}"
    return tr.gettext(key) if tr.has(key) else game.info.title


def _choice_label(text: OptionText, choice: str, tr: Translator) -> str:
    message = text.choices.get(choice)
    return choice if message is None else render_message(message, (), tr)


def _error_of(errors: Mapping[str, str], field: str) -> tuple[str, str]:
    """The attributes of an invalid control and the message shown beside it."""
    message = errors.get(field)
    if message is None:
        return "", ""
    ident = "err-" + "".join(c if c.isalnum() else "-" for c in field)
    attrs = f' aria-invalid="true" aria-describedby="{ident}"'
    return attrs, f'<span class="field-error" id="{ident}">{escape(message)}</span>'


_RULE = r"[A-Z]{1,2}-?\d+(?:\.\d+)*[a-z]?"
_CITED = re.compile(rf"\s*\(({_RULE}(?:,\s*{_RULE})*)\)")


def help_html(game: AnyGame, text: str, tr: Translator) -> str:
    """An option's help as HTML: its words, and the rules it cites (``(R8.3)``, ``(C10.2,
    SC8)``) not as ids but as one link into the game's guide, to the first of them.

    >>> from cardtable.games import REGISTRY
    >>> from cardtable.server.i18n import translator
    >>> help_html(REGISTRY.get("rummy"), "Jokers in play (R1.4, R8)", translator("en"))
    'Jokers in play <a class="rule-link" href="/rules/rummy?lang=en#R1.4">see the rules</a>'
    """
    cited: list[str] = []

    def cut(found: re.Match[str]) -> str:
        cited.extend(re.split(r",\s*", found.group(1)))
        return ""

    words = escape(_CITED.sub(cut, text).strip())
    if not cited:
        return words
    href = f"/rules/{game.info.name}?lang={tr.lang}#{cited[0]}"
    link = escape(tr.gettext("see the rules"))
    return f'{words} <a class="rule-link" href="{escape(href)}">{link}</a>'


def _option_field(
    game: AnyGame,
    spec: OptionSpec,
    tr: Translator,
    values: Mapping[str, str],
    errors: Mapping[str, str],
) -> str:
    name = f"{game.info.name}.opt.{spec.name}"
    text = game.option_text(spec)
    label = escape(render_message(text.label, (), tr))
    helptext = help_html(game, render_message(text.help, (), tr), tr)
    value = values.get(name, spec.format_value(spec.default))
    invalid, error = _error_of(errors, name)
    if spec.type == "bool":
        checked = " checked" if value.strip().lower() in ("true", "on", "yes", "1") else ""
        control = (
            f'<input type="hidden" name="{name}" value="false">'
            f'<input type="checkbox" name="{name}" value="true"{checked}{invalid}>'
        )
        return f'<label class="opt">{control} {label} <small>{helptext}</small>{error}</label>'
    choices = list(spec.choices) or list(text.choices)
    if choices:
        if value not in choices:
            choices.append(value)  # what the player sent, shown back as it was
        opts = "".join(
            f'<option value="{escape(c)}"{" selected" if c == value else ""}>'
            f"{escape(_choice_label(text, c, tr))}</option>"
            for c in choices
        )
        control = f'<select name="{name}"{invalid}>{opts}</select>'
    elif spec.type == "int":
        lo = "" if spec.minimum is None else f' min="{spec.minimum}"'
        hi = "" if spec.maximum is None else f' max="{spec.maximum}"'
        control = f'<input type="number" name="{name}" value="{escape(value)}"{lo}{hi}{invalid}>'
    else:
        control = f'<input type="text" name="{name}" value="{escape(value)}"{invalid}>'
    return f'<label class="opt">{label} {control} <small>{helptext}</small>{error}</label>'


def _level_choice(tr: Translator, level: str) -> str:
    """A bot level as the lobby offers it: its name, with a word on how it plays where the
    name alone does not say (``level-choice:<level>``)."""
    key = f"level-choice:{level}"
    return tr.gettext(key) if tr.has(key) else tr.gettext(f"level:{level}")


def _game_fieldset(
    game: AnyGame,
    levels: Sequence[str],
    default_bot: str,
    tr: Translator,
    chosen: bool,
    values: Mapping[str, str],
    errors: Mapping[str, str],
) -> str:
    info = game.info
    g = info.name
    players_raw = values.get(f"{g}.players", str(info.default_players))
    try:
        shown = int(players_raw)
    except ValueError:
        shown = info.default_players
    seats = []
    for i in range(info.max_players):
        choices = [("human", tr.gettext("Human"))] + [
            (f"bot:{lv}", tr.fmt("Bot: {level}", level=_level_choice(tr, lv))) for lv in levels
        ]
        field = f"{g}.seat.{i}"
        default = values.get(field, "human" if i == 0 else f"bot:{default_bot}")
        opts = "".join(
            f'<option value="{escape(v)}"{" selected" if v == default else ""}>{escape(t)}</option>'
            for v, t in choices
        )
        hidden = " hidden" if i >= shown else ""
        invalid, error = _error_of(errors, field)
        seats.append(
            f'<label class="seat-choice" data-seat="{i}"{hidden}>'
            f"{escape(tr.fmt('Seat {n}', n=i + 1))} "
            f'<select name="{field}"{invalid}>{opts}</select>{error}</label>'
        )
    options = "".join(_option_field(game, s, tr, values, errors) for s in info.options.specs)
    opened = " open" if any(k.startswith(f"{g}.opt.") for k in errors) else ""
    invalid, error = _error_of(errors, f"{g}.players")
    return f"""<fieldset class="game-form" data-game="{g}"{"" if chosen else " hidden disabled"}>
<legend>{escape(game_title(game, tr))}</legend>
<label>{escape(tr.gettext("Players"))} <input type="number" name="{g}.players"
 value="{escape(players_raw)}" min="{info.min_players}" max="{info.max_players}"
 data-players{invalid}>{error}</label>
<div class="seats">{"".join(seats)}</div>
<details{opened}><summary>{escape(tr.gettext("Rules options"))}</summary>{options}</details>
</fieldset>"""


def _names_of(meta: Mapping[str, Any], tr: Translator) -> list[str]:
    """Who sat at a stored table: people by name, bots by seat and level."""
    names = []
    for i, seat in enumerate(meta.get("seats", [])):
        if seat.get("kind") == "bot":
            level = tr.gettext(f"level:{seat.get('level')}")
            names.append(tr.fmt("Bot {n} ({level})", n=i + 1, level=level))
        else:
            names.append(str(seat.get("name", "?")))
    return names


def _detail_of(
    game: AnyGame | None, result: Mapping[str, Any], names: Sequence[str], tr: Translator
) -> str:
    """How the game ended beyond scores and winners (:meth:`Game.describe_outcome`: the
    number of deals, …) in ``tr``'s language, or ``""``."""
    if game is None:
        return ""
    try:
        outcome = Outcome(
            tuple(tuple(side) for side in result.get("sides", [])),
            tuple(result.get("scores", [])),
            tuple(result.get("winners", [])),
            str(result.get("detail", "")),
        )
    except TypeError:
        return ""
    message = game.describe_outcome(outcome)
    if message is None or not tr.has(message.id):
        return ""
    return render_message(message, names, tr)


def _result_of(
    row: TableRow, names: Sequence[str], tr: Translator, game: AnyGame | None = None
) -> str:
    """A finished table's result in words, as HTML: who won (names in ``<bdi>``), the
    final scores and how the game ended (the game's words for it, when it has some)."""
    result = row.result
    if row.status == "abandoned" or not result:
        return escape(tr.gettext("status:" + row.status))
    sides = result.get("sides", [])
    winners = [
        " + ".join(bdi(names[s] if 0 <= s < len(names) else "?") for s in sides[w])
        for w in result.get("winners", [])
        if 0 <= w < len(sides)
    ]
    scores = " : ".join(str(x) for x in result.get("scores", []))
    detail = _detail_of(game, result, names, tr)
    detail = f' <span class="detail">· {escape(detail)}</span>' if detail else ""
    if not winners:
        return escape(tr.fmt("Draw ({scores})", scores=scores)) + detail
    text = tr.nfmt(
        "Winner: {names} ({scores})",
        "Winners: {names} ({scores})",
        len(winners),
        names="\x00",
        scores=scores,
    )
    return _fmt_html(text, ", ".join(winners)) + detail


def finished_list(tr: Translator, rows: Sequence[TableRow], games: Mapping[str, AnyGame]) -> str:
    """The finished games as a table: date, game, players, result and a replay link."""
    if not rows:
        return f'<p class="muted">{escape(tr.gettext("No finished games yet"))}</p>'
    out = []
    for r in rows:
        game = games.get(r.game)
        title = game_title(game, tr) if game is not None else r.game
        names = _names_of(r.meta, tr)
        when = f"{r.updated_at:%Y-%m-%d %H:%M}" if r.updated_at is not None else ""
        stamp = r.updated_at.isoformat() if r.updated_at is not None else ""
        out.append(
            f'<tr><td><time datetime="{escape(stamp)}">{escape(when)}</time></td>'
            f"<td>{escape(title)}</td><td>{', '.join(bdi(n) for n in names)}</td>"
            f"<td>{_result_of(r, names, tr, game)}</td>"
            f'<td><a href="/replay/{escape(r.id)}">{escape(tr.gettext("Replay"))}</a></td></tr>'
        )
    return (
        f'<table class="list finished"><thead><tr><th>{escape(tr.gettext("Date"))}</th>'
        f"<th>{escape(tr.gettext('Game'))}</th><th>{escape(tr.gettext('Who played'))}</th>"
        f"<th>{escape(tr.gettext('Result'))}</th>"
        f'<th><span class="visually-hidden">{escape(tr.gettext("Replay"))}</span></th></tr></thead>'
        f"<tbody>{''.join(out)}</tbody></table>"
    )


def lobby_page(
    tr: Translator,
    games: Sequence[AnyGame],
    levels: dict[str, list[str]],
    default_bots: dict[str, str],
    name: str,
    recent: Sequence[TableRow],
    me: str | None,
    quick: AnyGame,
    values: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
) -> str:
    """The start page: one-click play (of ``quick``), the new-table form and recent games.
    After a
    refused form, ``values`` are what the player sent and ``errors`` the messages to show
    by each field (by the field's name)."""
    values = values or {}
    errors = errors or {}
    chosen = values.get("game", games[0].info.name if games else "")
    if chosen not in {g.info.name for g in games} and games:
        chosen = games[0].info.name
    game_opts = "".join(
        f'<option value="{g.info.name}"{" selected" if g.info.name == chosen else ""}>'
        f"{escape(game_title(g, tr))}</option>"
        for g in games
    )
    fieldsets = "".join(
        _game_fieldset(
            g,
            levels[g.info.name],
            default_bots[g.info.name],
            tr,
            g.info.name == chosen,
            values,
            errors,
        )
        for g in games
    )
    guides = "".join(
        f'<li><a href="/rules/{g.info.name}?lang={tr.lang}">{escape(game_title(g, tr))}</a></li>'
        for g in games
        if g.how_to_play(tr.lang) is not None or g.how_to_play("en") is not None
    )
    mine = (
        f'<p><a href="/player/{escape(me)}">{escape(tr.gettext("My games and rating"))}</a></p>'
        if me
        else ""
    )
    quick_label = tr.fmt("Play {game} against the computer", game=game_title(quick, tr))
    _, general = _error_of(errors, "form")
    summary = (
        f'<p class="error" role="alert" id="form-errors">'
        f"{escape(tr.gettext('The table was not created: please correct the marked fields.'))}"
        f"{general}</p>"
        if errors
        else ""
    )
    name_invalid, name_error = _error_of(errors, "name")
    timer_invalid, timer_error = _error_of(errors, "timer")
    game_invalid, game_error = _error_of(errors, "game")
    name_value = values.get("name", name)
    checked = {k: " checked" if values.get(k) == "true" else "" for k in ("rated", "unit")}
    body = f"""
<section class="hero">
<h1>{escape(tr.gettext("Card games in your browser"))}</h1>
<form method="post" action="/play"><button class="big" type="submit" id="quick-play">
{escape(quick_label)}</button></form>
<p class="daily-links"><a href="/daily">{escape(tr.gettext("Daily challenge"))}</a> ·
<a href="/leaderboard">{escape(tr.gettext("Leaderboards"))}</a></p>
{mine}
{deck_switch(tr)}
</section>
<section class="new-table">
<h2>{escape(tr.gettext("New table"))}</h2>
<form method="post" action="/new" id="new-table" novalidate>
{summary}
<label>{escape(tr.gettext("Your name"))} <input name="name" value="{escape(name_value)}"
 maxlength="{MAX_NAME}" autocomplete="nickname"{name_invalid}>{name_error}</label>
<label>{escape(tr.gettext("Game"))}
 <select name="game" id="game-select"{game_invalid}>{game_opts}</select>{game_error}</label>
{fieldsets}
<label class="opt"><input type="checkbox" name="rated" value="true"{checked["rated"]}>
 {escape(tr.gettext("Rated (no hints)"))}</label>
<label class="opt"><input type="checkbox" name="unit" value="true"{checked["unit"]}>
 {escape(tr.gettext("One hand only"))}</label>
<label>{escape(tr.gettext("Move timer in seconds (0 = none)"))}
 <input type="number" name="timer" value="{escape(values.get("timer", "0"))}" min="0"
 max="{MAX_TIMER}"{timer_invalid}>{timer_error}</label>
<button type="submit">{escape(tr.gettext("Create table"))}</button>
</form>
</section>
<section class="guides"><h2>{escape(tr.gettext("How to play"))}</h2><ul>{guides}</ul></section>
<section class="finished-games"><h2>{escape(tr.gettext("Finished games"))}</h2>
{finished_list(tr, recent, {g.info.name: g for g in games})}</section>
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


def _boot(mode: str, table_id: str, game: AnyGame, players: int, tr: Translator) -> dict[str, Any]:
    """What ``app.js`` needs before the first message: the game, its sides, its script."""
    has_script = table_script(game) is not None
    return {
        "mode": mode,
        "table": table_id,
        "game": game.info.name,
        "title": game_title(game, tr),
        "sides": [list(side) for side in game.sides(players)],
        "script": f"/games/{game.info.name}/table.js" if has_script else None,
    }


# What app.js draws into, and the live region (outside what it redraws) that reads out each
# new log entry once.
_SHELL = (
    '<div id="app" class="app"><p class="loading">…</p></div>'
    '<div id="announcer" class="visually-hidden" aria-live="polite" aria-atomic="false"></div>'
)


def table_page(tr: Translator, table_id: str, game: AnyGame, players: int) -> str:
    """The table shell; ``app.js`` draws it from the websocket's messages."""
    body = _SHELL + '<script src="/static/sorting.js" defer></script>'
    boot = _boot("table", table_id, game, players, tr)
    return _layout(tr, f"{game_title(game, tr)} — cardtable", body, boot, f"/t/{table_id}")


def _replay_shell(
    tr: Translator, game: AnyGame, boards: Sequence[tuple[str, str]], heading: str, extra: str = ""
) -> str:
    """What ``replay.js`` draws into: ``extra`` (HTML above the viewer), the boot data (the
    game, the tables to show with the names above them, the page's words) and the
    live region that reads out each step's events.  ``heading`` is the page's ``h1``."""
    boot = {
        "game": game.info.name,
        "boards": [{"table": table, "name": name} for table, name in boards],
        "i18n": tr.client_catalog(),
    }
    return (
        '<link rel="stylesheet" href="/static/replay.css">'
        f'<div class="rp-page"><h1 class="rp-title">{escape(heading)}</h1>{extra}{deck_switch(tr)}'
        '<div id="replay" class="rp"><p class="loading">…</p></div></div>'
        '<div id="announcer" class="visually-hidden" aria-live="polite" aria-atomic="false"></div>'
        f'<script id="replay-boot" type="application/json">{_json_script(boot)}</script>'
        '<script src="/static/words.js" defer></script>'
        '<script src="/static/replay.js" defer></script>'
    )


def replay_page(tr: Translator, table_id: str, game: AnyGame) -> str:
    """A finished table's replay: ``replay.js`` fetches its steps and shows them hand by hand
    (a list of hands, a step list and a scrubber, the keyboard, each hand's breakdown)."""
    title = f"{game_title(game, tr)} — {tr.gettext('Replay')}"
    body = _replay_shell(tr, game, [(table_id, "")], title)
    return _layout(tr, title, body, None, f"/replay/{table_id}")


def daily_compare_page(
    tr: Translator,
    game: AnyGame,
    day: str,
    boards: Sequence[tuple[str, str]],
    deals: Sequence[tuple[str, str, bool]],
    back: str,
    path: str,
) -> str:
    """Two players' replays of the same daily deal on one page, two boards that step
    together; ``boards`` are ``(table, player's name)``, ``deals`` the tabs ``(href, label,
    current)`` and ``back`` the day's board."""
    names = " — ".join(name for _, name in boards)
    title = f"{game_title(game, tr)} {day}: {names}"
    here = ' aria-current="page"'
    tabs = "".join(
        f'<a href="{escape(href)}"{here if current else ""}>{escape(label)}</a>'
        for href, label, current in deals
    )
    extra = (
        f'<p class="rp-back"><a href="{escape(back)}">'
        f"{escape(tr.gettext('Back to the leaderboard'))}</a></p>"
        f'<nav class="deal-tabs rp-deals" aria-label="{escape(tr.gettext("Deals"))}">{tabs}</nav>'
    )
    body = _replay_shell(tr, game, boards, title, extra)
    return _layout(tr, title, body, None, path)


def player_page(
    tr: Translator,
    player_id: str,
    name: str,
    games: Sequence[PlayerGame],
    ratings: dict[str, tuple[float, float, int]],
    known: Mapping[str, AnyGame] | None = None,
    extra: str = "",
) -> str:
    """A player's rating per game and their tables (games named as ``tr``'s players know
    them, for the games in ``known``), then ``extra`` (HTML: their history)."""
    known = known or {}

    def title(g: str) -> str:
        return game_title(known[g], tr) if g in known else g

    rates = "".join(
        f"<tr><td>{escape(title(g))}</td><td>{mu - 3 * sigma:.1f}</td><td>{n}</td></tr>"
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
            f'<tr><td><a href="{escape(link)}">{escape(title(pg.game))}</a></td>'
            f"<td>{escape(tr.gettext('status:' + pg.status))}</td><td>{escape(result)}</td>"
            f"<td>{'✓' if pg.rated else ''}</td>"
            f"<td>{pg.updated_at:%Y-%m-%d %H:%M}</td></tr>"
        )
    body = f"""<h1>{bdi(name)}</h1>
<h2>{escape(tr.gettext("Ratings"))}</h2>
<table class="list"><thead><tr><th>{escape(tr.gettext("Game"))}</th>
<th>{escape(tr.gettext("Rating"))}</th><th>{escape(tr.gettext("Rated games"))}</th></tr>
</thead><tbody>{rates}</tbody></table>
<p class="rating-help">{escape(tr.gettext(RATING_EXPLAINED))}</p>
<h2>{escape(tr.gettext("Games"))}</h2>
<table class="list"><thead><tr><th>{escape(tr.gettext("Game"))}</th>
<th>{escape(tr.gettext("Status"))}</th><th>{escape(tr.gettext("Result"))}</th>
<th>{escape(tr.gettext("Rated"))}</th><th></th></tr></thead><tbody>{"".join(rows)}</tbody></table>
{extra}"""
    return _layout(tr, f"{name} — cardtable", body, None, f"/player/{player_id}")
