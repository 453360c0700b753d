"""``cardtable rules GAME --full [--lang L]`` prints the player's guide."""

from __future__ import annotations

import pytest

from cardtable.games import REGISTRY, get_game

from .conftest import Run

HEADINGS = {"en": "how to play", "cs": "jak hrát", "ru": "как играть"}


@pytest.mark.parametrize("name", REGISTRY.names())
@pytest.mark.parametrize("lang", sorted(HEADINGS))
def test_full_prints_the_guide_in_the_language_asked(run: Run, name: str, lang: str) -> None:
    result = run("rules", name, "--full", "--lang", lang)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert HEADINGS[lang] in out.lower()
    assert "options" not in out.splitlines()[0]  # the guide, not the summary
    # rule ids read as plain ids in a terminal, not as Markdown links
    first = {"royal-casino": "C1.1", "rummy": "R1.1", "royal-mastheads": "M-1"}[name]
    assert first in out and f"](#{first})" not in out and "<a " not in out


def test_full_defaults_to_english(run: Run) -> None:
    result = run("rules", "casino", "--full")
    assert result.exit_code == 0
    assert "Royal Casino — how to play" in result.stdout
    assert "10♦" in result.stdout


def test_the_czech_guide_speaks_of_zoliky(run: Run) -> None:
    assert "Žolíky" in run("rules", "rummy", "--full", "--lang", "cs").stdout


def test_an_unknown_language_is_a_usage_error(run: Run) -> None:
    result = run("rules", "rummy", "--full", "--lang", "de")
    assert result.exit_code == 2
    assert "'de' is not one of 'en', 'cs', 'ru'" in result.output


def test_the_summary_says_how_to_read_the_guide(run: Run) -> None:
    result = run("rules", "mastheads")
    assert result.exit_code == 0
    assert "cardtable rules royal-mastheads --full" in result.stdout
    assert get_game("mastheads").how_to_play("ru") is not None


def test_help_explains_full_and_lang(run: Run) -> None:
    result = run("rules", "--help")
    assert result.exit_code == 0
    assert "--full" in result.output and "--lang" in result.output


def test_a_game_without_a_guide_says_so(run: Run, toy: object) -> None:
    result = run("rules", "take", "--full")
    assert result.exit_code == 2
    assert result.stderr == "error: Take has no guide in 'en'\n"


def test_long_lines_wrap_and_lose_nothing(run: Run) -> None:
    out = " ".join(run("rules", "rummy", "--full", "--lang", "cs").stdout.split())
    assert "a nešla by přiložit)." in out
    assert "(Volba *Karet v ruce*.)".replace("*", "") in out
