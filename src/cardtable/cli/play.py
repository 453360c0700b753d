"""``cardtable play``: a person plays in the terminal against bots at a :class:`Table`.

The loop shows the human's view (rendered by the game), the events since the last prompt
(redacted for the human's seat by the table), and a numbered list of the legal moves in
canonical notation.  The player answers with a number or the notation; bad input gets a
one-line reason and the same prompt again.  ``q`` (or the end of input) saves the record.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.bots.hints import hint
from cardtable.cli.present import english_catalog, pretty_text, render_message, score_lines
from cardtable.core.errors import CardtableError, InvalidOptionError
from cardtable.core.game import Event, Outcome, Scope
from cardtable.core.registry import AnyGame
from cardtable.core.rng import derive_rng
from cardtable.core.seats import seat_name
from cardtable.tables import Table

__all__ = [
    "MAX_LISTED",
    "PlaySettings",
    "check_record_path",
    "format_outcome",
    "play_game",
]

MAX_LISTED = 30
"""How many legal moves are listed before ``?`` is needed to see them all."""

PROMPT = "your move (number or notation, ? h q):"

HELP_LINE = "type a number or a move; ? lists every move, h asks for a hint, q saves and quits"


@dataclass(frozen=True, slots=True)
class PlaySettings:
    """Everything ``cardtable play`` was asked for, already validated."""

    players: int
    seat: int
    bots: tuple[str, ...]
    seed: int
    options: dict[str, object]
    scope: Scope
    record_path: Path


def seat_specs(players: int, seat: int, bots: Sequence[str]) -> list[str]:
    """The human in ``seat`` (0-based: 1 is P2); bots (cycled through ``bots``) in every
    other seat.

    >>> seat_specs(3, 1, ["greedy", "random"])
    ['bot:greedy', 'human:you', 'bot:random']
    """
    if not 0 <= seat < players:
        raise InvalidOptionError(f"--seat must be P1 to P{players}; got {seat_name(seat)}")
    specs: list[str] = []
    for i in range(players):
        # The bots are handed out in order to the seats other than the human's.
        j = i - 1 if i > seat else i
        specs.append("human:you" if i == seat else f"bot:{bots[j % len(bots)]}")
    return specs


def format_outcome(
    outcome: Outcome, names: Sequence[str], game: AnyGame | None = None
) -> list[str]:
    """Lines describing the result: each side's seats, score and whether it won, then how
    the game ended, in the game's own words when it has them (:meth:`Game.describe_outcome`)."""
    lines = []
    for index, (seats, score) in enumerate(zip(outcome.sides, outcome.scores, strict=True)):
        who = ", ".join(f"{seat_name(s)} ({names[s]})" for s in seats)
        mark = "  WINNER" if index in outcome.winners else ""
        lines.append(f"  {who}: {score}{mark}")
    message = game.describe_outcome(outcome) if game is not None else None
    if game is not None and message is not None:
        lines.append("  " + render_message(message, english_catalog(game.resource_package())))
    elif outcome.detail:
        lines.append(f"  {outcome.detail}")
    return lines


class _Quit(Exception):
    """The player asked to stop (``q`` or end of input)."""


def play_game(
    game: AnyGame,
    settings: PlaySettings,
    read_line: Callable[[], str | None],
    write: Callable[[str], None],
) -> int:
    """Play one game with a human at ``settings.seat``; returns the exit status.

    ``read_line`` returns a line of input or ``None`` at the end of input; ``write``
    prints one line.  The record is saved on ``q``, at the end of input and when the game
    ends.
    """
    table = Table(
        game,
        settings.players,
        settings.seed,
        seat_specs(settings.players, settings.seat, settings.bots),
        settings.options,
        settings.scope,
    )
    me = settings.seat
    names = [str(s) for s in table.seats]
    write(
        f"{game.info.title}: {settings.players} players, you are {seat_name(me)}; "
        f"seed {settings.seed} (replay with --seed {settings.seed})"
    )
    write(HELP_LINE)
    seen = 0
    try:
        while True:
            table.run_bots()
            for _version, event in table.events_since(me, seen):
                _write_event(game, event, settings.players, write)
            seen = table.version
            if table.is_over:
                break
            _human_turn(game, table, me, read_line, write)
    except _Quit:
        _save(table, settings.record_path, write)
        return 0
    write("")
    write(game.render_view(table.view(me)))
    outcome = table.outcome()
    if outcome is not None:
        write("Game over.")
        for line in format_outcome(outcome, names, game):
            write(line)
        write("You won!" if outcome.seat_won(me) else "You did not win this time.")
    _save(table, settings.record_path, write)
    return 0


def _write_event(game: AnyGame, event: Event, players: int, write: Callable[[str], None]) -> None:
    """One log line (cards with suit symbols), or at the end of a hand, round or deal the
    game's score breakdown as a table, a column per side."""
    scores = score_lines(game, event, players)
    if scores is None:
        write(f"  {pretty_text(event.describe())}")
        return
    write("")
    write(scores)


def _human_turn(
    game: AnyGame,
    table: Table,
    me: int,
    read_line: Callable[[], str | None],
    write: Callable[[str], None],
) -> None:
    """Show the table and the moves, and read answers until one move is played."""
    write("")
    write(game.render_view(table.view(me)))
    legal = sorted(table.legal(me), key=game.display_key)
    moves = [(game.format_action(a), a) for a in legal]
    _list_moves(moves, write, MAX_LISTED)
    while True:
        try:
            line = read_line()
        except (KeyboardInterrupt, EOFError):
            line = None
        if line is None:
            write("(end of input)")
            raise _Quit
        text = line.strip()
        if not text:
            continue
        low = text.lower()
        if low in ("q", "quit"):
            raise _Quit
        if low == "?":
            _list_moves(moves, write, len(moves))
            continue
        if low == "h":
            _show_hints(game, table, me, write)
            write(PROMPT)
            continue
        try:
            if text.isdigit():
                number = int(text)
                if not 1 <= number <= len(moves):
                    write(f"no move {number}: choose 1 to {len(moves)}")
                    write(PROMPT)
                    continue
                table.act(me, moves[number - 1][1])
            else:
                table.act(me, text)
        except CardtableError as e:
            write(f"not played: {e}")
            write(PROMPT)
            continue
        return


HINT_SIMULATIONS = 1000
"""The search budget of a hint in ``play`` (simulations)."""


def _show_hints(game: AnyGame, table: Table, me: int, write: Callable[[str], None]) -> None:
    """Print the top three moves of a search from the human's view, with their numbers."""
    try:
        hints = hint(
            game,
            table.view(me),
            table.legal(me),
            HINT_SIMULATIONS,
            derive_rng(table.record.seed, "hint", me, table.version),
        )
    except ValueError as e:
        write(f"no hint: {e}")
        return
    write(f"hints (from your view only; win = ahead at the end of this {game.info.unit}):")
    for i, h in enumerate(hints, 1):
        if h.visits == 0:
            write(f"  {i}. {h.text}  (the only legal move)")
        else:
            write(
                f"  {i}. {h.text}  win {100 * h.win_prob:.0f}%  "
                f"points {h.expected_points:+.1f}  ({h.visits} simulations)"
            )


def _list_moves(moves: Sequence[tuple[str, Any]], write: Callable[[str], None], limit: int) -> None:
    """Print the numbered moves (at most ``limit``) and the prompt."""
    for number, (text, _action) in enumerate(moves[:limit], 1):
        write(f"{number:>3}. {text}")
    if len(moves) > limit:
        write(f"     … {len(moves) - limit} more: type ? to list them all")
    write(PROMPT)


def _save(table: Table, path: Path, write: Callable[[str], None]) -> None:
    """Write the record as JSON; a file problem is reported, not raised."""
    try:
        path.write_text(table.record.dumps() + "\n", encoding="utf-8")
    except OSError as e:
        write(f"could not save the record to {path}: {e.strerror or e}")
        return
    write(f"record saved to {path} (check it with: cardtable replay {path})")


def make_settings(
    game: AnyGame,
    players: int,
    seat: int,
    bots: Sequence[str],
    seed: int,
    options: dict[str, object],
    unit: bool,
    record: str | None,
) -> PlaySettings:
    """Validated settings, with the default record path ``./cardtable-<game>-<seed>.json``."""
    path = Path(record) if record else Path(f"cardtable-{game.info.name}-{seed}.json")
    check_record_path(path)
    scope: Scope = "unit" if unit else "match"
    return PlaySettings(players, seat, tuple(bots), seed, options, scope, path)


def check_record_path(path: Path) -> None:
    """Raise ``InvalidOptionError`` unless the record can be written to ``path``: its folder
    exists and is writable, and ``path`` is not a folder.  Checked before the game starts,
    so a game is never played into a record that cannot be saved."""
    folder = path.parent
    if path.is_dir():
        raise InvalidOptionError(f"--record {path}: is a folder; name a file in it")
    if not folder.is_dir():
        raise InvalidOptionError(f"--record {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InvalidOptionError(f"--record {path}: not writable")


def read_stdin_line() -> str | None:
    """One line of standard input, or ``None`` at its end (works with pipes).

    Input that does not come from a terminal is echoed as ``> line``, so a transcript of
    a piped game reads like a session.
    """
    line = sys.stdin.readline()
    if not line:
        return None
    if not sys.stdin.isatty():
        sys.stdout.write(f"> {line.rstrip()}\n")
    return line
