"""Bots at a table are named short ("Computer 2 (grabber)"); the lobby's seat choice says
how the greedy bot plays ("grabber (takes what it can)"), in each language."""

from __future__ import annotations

import pytest

from cardtable.games import REGISTRY
from cardtable.server.i18n import translator
from cardtable.server.messages import seat_names
from cardtable.server.pages import lobby_page
from cardtable.server.seats import Meta, Seat

SHORT = {"en": "Computer 2 (grabber)", "cs": "Počítač 2 (chamtivec)", "ru": "Компьютер 2 (жадина)"}
CHOICE = {
    "en": "Computer: grabber (takes what it can)",
    "cs": "chamtivec (bere, co může)",
    "ru": "жадина (берёт всё, что может)",
}


@pytest.mark.parametrize("lang", ["en", "cs", "ru"])
def test_a_greedy_bot_has_a_short_name_at_the_table(lang: str) -> None:
    meta = Meta([Seat("human", "Ann"), Seat("bot", "", level="greedy")])
    names = seat_names(meta, translator(lang))
    assert names == ["Ann", SHORT[lang]]
    assert names[1].count("(") == 1  # no parentheses inside parentheses


@pytest.mark.parametrize("lang", ["en", "cs", "ru"])
def test_the_lobby_says_how_the_greedy_bot_plays(lang: str) -> None:
    game = REGISTRY.get("royal-casino")
    html = lobby_page(
        translator(lang),
        [game],
        {"royal-casino": ["greedy"]},
        {"royal-casino": "greedy"},
        "Ann",
        [],
        None,
        game,
    )
    assert CHOICE[lang] in html
