"""The terminal (issue 11): suit symbols in every game's view and log, plurals, a hint
footer that names the game's unit, stable build names, and the score breakdown of every
hand, round and deal as a table with the English words of the game's catalog."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cardtable.cli.play import format_outcome
from cardtable.cli.present import english_catalog, pretty_text, render_message, score_lines
from cardtable.core.game import Event, Outcome
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY, get_game
from cardtable.games.royal_mastheads.events import DealScored
from cardtable.games.rummy.events import RoundEnded

from .conftest import Run

GAMES = REGISTRY.names()
LETTER_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")
"""A card written with a suit letter (``10D``), as the terminal should no longer show it."""


def _play_unit(game: AnyGame, seed: int) -> tuple[object, list[Event]]:
    """One hand/round/deal played at random, with every event."""
    state = game.new_game(game.info.default_players, None, seed, "unit")
    rng = random.Random(seed)
    events: list[Event] = []
    while game.to_act(state) is not None:
        state, new = game.apply(state, rng.choice(game.legal_actions(state)))
        events.extend(new)
    return state, events


def _terminal_game(run: Run, name: str, tmp_path: Path, first: str = "1") -> str:
    """The transcript of a whole unit played in the terminal, the human always answering 1
    (after ``first``)."""
    result = run(
        "play",
        name,
        "--unit",
        "--seed",
        "4",
        "--bots",
        "random",
        "--record",
        str(tmp_path / "rec.json"),
        input="\n".join([first] + ["1"] * 400) + "\n",
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def _log_and_view_lines(out: str) -> list[str]:
    """The transcript without the echoed input, the move lists (canonical notation, what
    one types) and the hints (moves too)."""
    keep = []
    for line in out.splitlines():
        text = line.strip()
        if (
            text.startswith((">", "your move", "record saved", "hints"))
            or re.match(r"^\d+\. ", text)
            or "simulations)" in text
            or "the only legal move" in text
        ):
            continue
        keep.append(line)
    return keep


@pytest.mark.parametrize("name", GAMES)
def test_the_terminal_writes_cards_with_suit_symbols(run: Run, name: str, tmp_path: Path) -> None:
    out = _terminal_game(run, name, tmp_path)
    shown = _log_and_view_lines(out)
    assert any(sym in line for line in shown for sym in "♠♥♦♣")
    lettered = [line for line in shown if LETTER_CARD.search(line)]
    assert lettered == [], lettered[:5]
    assert "Game over." in out


@pytest.mark.parametrize("name", GAMES)
def test_the_end_of_a_unit_prints_the_score_table(run: Run, name: str, tmp_path: Path) -> None:
    game = get_game(name)
    out = _terminal_game(run, name, tmp_path)
    _, events = _play_unit(game, 4)
    table = next(game.score_table(e) for e in events if game.score_table(e) is not None)
    assert table is not None
    catalog = english_catalog(game.resource_package())
    for row in table.rows:
        label = render_message(row.label, catalog)
        assert label != row.label.id  # the catalog has English words for every row
        assert label in out
    assert "┃" in out  # a table, not a one-line score


def test_plurals_in_the_views(run: Run, tmp_path: Path) -> None:
    out = _terminal_game(run, "casino", tmp_path)
    assert not re.search(r"(?<!\d)1 cards", out)
    assert re.search(r"(?<!\d)1 card\b", out)
    mastheads = _terminal_game(run, "mastheads", tmp_path)
    assert "trick(s)" not in mastheads and "deal(s):" not in mastheads
    assert "Scores after 1 deal:" in mastheads


@pytest.mark.parametrize("name", GAMES)
def test_the_hint_footer_names_the_games_unit(run: Run, name: str, tmp_path: Path) -> None:
    game = get_game(name)
    result = run(
        "play",
        name,
        "--seed",
        "2",
        "--record",
        str(tmp_path / "rec.json"),
        input="h\nq\n",
    )
    assert result.exit_code == 0, result.output
    footer = next(line for line in result.stdout.splitlines() if line.startswith("hints"))
    assert footer.endswith(f"ahead at the end of this {game.info.unit}):")


def test_royal_casino_log_names_builds_by_owner_and_value() -> None:
    game = get_game("casino")
    s = game.parse_position(
        "royal-casino 2p; dealer=P2; turn=P1; hands=3D 9S 7H 8C / 4C 9H 2S QS; "
        "loose=5H 2C 4S; builds=[9 S P2: 6H 3C]"
    )
    lines: list[str] = []
    for text in ("build 3D -> 9 (single): 4S 2C", "add 4C -> b2 + 5H", "capture 9S: b1 b2"):
        s, events = game.apply(s, game.parse_action(s, text))
        lines.extend(e.describe() for e in events)
    assert lines[0] == "P1 built a single 9 with 3D on 4S 2C"
    assert lines[1] == "P2 added 4C + 5H to P1's 9-build"
    assert lines[2].startswith("P1 took 2 9-builds with 9S")
    assert not any(re.search(r"\bb\d", line) for line in lines)


def test_royal_casino_raise_names_the_build_it_raised() -> None:
    game = get_game("casino")
    s = game.parse_position("royal-casino 2p; hands=2S QD / 7C; builds=[10 S P2: 6H 4C]")
    _, events = game.apply(s, game.parse_action(s, "raise 2S -> b1=12"))
    assert events[0].describe() == "P1 raised P2's 10-build to 12 with 2S"


def test_rummy_score_table_has_each_card_penalty_going_out_and_doubling() -> None:
    game = get_game("rummy")
    made = RoundEnded(3, 0, True, ("", "QS 7D AH'"), (0, 60), (25, -120), (25, -120))
    text = score_lines(game, made, 2)
    assert text is not None
    assert text.startswith("Round 3 (") and "doubled)" in text.splitlines()[0]
    assert "Q♠ 40, 7♦ 5, A♥' 15" in text
    assert "going out" in text and "+25" in text
    assert "×2" in text and "-120" in text
    plain = RoundEnded(3, -1, False, ("5C", "KD"), (5, 10), (-5, -10), (-5, -10))
    blocked = score_lines(game, plain, 2)
    assert blocked is not None and "×2" not in blocked and "+25" not in blocked


def test_mastheads_score_table_itemises_card_points_pot_and_doubling() -> None:
    game = get_game("mastheads")
    _, events = _play_unit(game, 4)
    scored = next(e for e in events if isinstance(e, DealScored))
    table = game.score_table(scored)
    assert table is not None
    rows = {row.label.id: row.values for row in table.rows}
    for seat, text in enumerate(rows["mastheads.bd.capture_order"]):
        items = [] if text == "—" else str(text).split(", ")
        points = [int(item.rsplit(" ", 1)[1]) for item in items]
        assert sum(points) == rows["mastheads.bd.card_points"][seat]
        assert len(items) == len(scored.captured[seat])
    for seat, value in enumerate(rows["mastheads.bd.pot"]):
        assert (value == "—") == (seat != scored.pot_seat)
    assert any(v != "—" for v in rows["mastheads.bd.doubled"])


def test_royal_casino_score_table_counts_sweeps_before_cancellation() -> None:
    game = get_game("casino")
    for seed in range(40):
        _, events = _play_unit(game, seed)
        tables = [t for t in map(game.score_table, events) if t is not None]
        rows = {r.label.id: r.values for r in tables[0].rows}
        if sum(int(v) for v in rows["bd:swept"]) > sum(int(v) for v in rows["bd:sweeps"]):
            return
    pytest.fail("no hand in 40 where sweeps cancelled")


def test_pretty_text_leaves_builds_melds_and_words() -> None:
    assert pretty_text("P1 took 10D and b2 with AS; M1: JK 7H'") == (
        "P1 took 10♦ and b2 with A♠; M1: JK 7♥'"
    )


def test_outcome_line_uses_the_games_own_words() -> None:
    """The end-of-game lines say how a Royal Mastheads game ended as the game words it
    (``describe_outcome``: "1 deal", "3 deals"), not the record's raw ``deal(s)``."""
    game = get_game("royal-mastheads")
    sides = ((0,), (1,), (2,), (3,))
    names = ["Ann", "Bob", "Cy", "Di"]
    three = format_outcome(Outcome(sides, (1, 2, 3, 4), (3,), "3 deal(s)"), names, game)
    one = format_outcome(Outcome(sides, (1, 2, 3, 4), (2, 3), "1 deal(s), co-winners"), names, game)
    assert three[-1].strip() == "3 deals"
    assert one[-1].strip() == "1 deal, co-winners"
    assert "P4 (Di): 4  WINNER" in three[3]
