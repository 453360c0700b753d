"""The finished games list: how a game ended in the reader's language (Royal Mastheads'
number of deals as a proper plural), and every name isolated with ``<bdi>``."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from cardtable.games import REGISTRY
from cardtable.server.i18n import translator
from cardtable.server.pages import finished_list
from cardtable.server.store import TableRow

GAMES = {g.info.name: g for g in (REGISTRY.get(n) for n in REGISTRY.names())}


def _row(game: str, detail: str, winners: list[int], names: list[str]) -> TableRow:
    seats = [{"kind": "human", "name": n} for n in names]
    return TableRow(
        id="t1",
        game=game,
        players=len(names),
        seed=1,
        scope="match",
        options={},
        seats=[f"human:{n}" for n in names],
        start=None,
        meta={"seats": seats},
        status="finished",
        result={
            "sides": [[i] for i in range(len(names))],
            "scores": [10 * i for i in range(len(names))],
            "winners": winners,
            "detail": detail,
        },
        updated_at=datetime(2026, 1, 2, 3, 4, tzinfo=UTC),
    )


def _detail(html: str) -> str:
    found = re.search(r'<span class="detail">· ([^<]*)</span>', html)
    assert found is not None, html
    return found.group(1)


MASTHEADS = ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["1 deal", "2 deals", "5 deals", "21 deals"]),
        ("cs", ["1 rozdání", "2 rozdání", "5 rozdání", "21 rozdání"]),
        ("ru", ["1 раздача", "2 раздачи", "5 раздач", "21 раздача"]),
    ],
)
def test_royal_mastheads_deals_are_a_plural_in_each_language(
    lang: str, expected: list[str]
) -> None:
    tr = translator(lang)
    shown = [
        _detail(finished_list(tr, [_row("royal-mastheads", f"{n} deal(s)", [3], MASTHEADS)], GAMES))
        for n in (1, 2, 5, 21)
    ]
    assert shown == expected
    assert not any("(s)" in s for s in shown)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "3 deals, co-winners"),
        ("cs", "3 rozdání, více vítězů"),
        ("ru", "3 раздачи, несколько победителей"),
    ],
)
def test_a_shared_win_says_so(lang: str, expected: str) -> None:
    html = finished_list(
        translator(lang),
        [_row("royal-mastheads", "3 deal(s), co-winners", [1, 3], MASTHEADS)],
        GAMES,
    )
    assert _detail(html) == expected


def test_a_detail_the_game_has_no_words_for_shows_none() -> None:
    html = finished_list(translator("en"), [_row("royal-casino", "??", [0], ["A", "B"])], GAMES)
    assert 'class="detail"' not in html and "Winner: <bdi>A</bdi> (0 : 10)" in html


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["a single hand", "a match to 21 points"]),
        ("cs", ["jedno kolo", "hra do 21 bodů"]),
        ("ru", ["один кон", "партия до 21 очка"]),
    ],
)
def test_royal_casino_says_what_was_played(lang: str, expected: list[str]) -> None:
    tr = translator(lang)
    shown = [
        _detail(finished_list(tr, [_row("royal-casino", detail, [0], ["A", "B"])], GAMES))
        for detail in ("one hand", "match to 21")
    ]
    assert shown == expected


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["last round: Bob went out", "last round blocked"]),
        ("cs", ["poslední kolo: Bob dohrává", "poslední kolo je zablokované"]),
        ("ru", ["последний раунд: Bob выходит", "последний раунд заблокирован"]),
    ],
)
def test_rummy_names_who_went_out_last(lang: str, expected: list[str]) -> None:
    tr = translator(lang)
    names = ["Ann", "Bob", "Cy"]
    shown = [
        _detail(finished_list(tr, [_row("rummy", detail, [1], names)], GAMES))
        for detail in ("last round: P2 went out", "last round: blocked")
    ]
    assert shown == expected


def test_every_name_is_isolated() -> None:
    names = ["<b>Ann</b>", "אבי", "Cy", "Di"]
    html = finished_list(
        translator("en"), [_row("royal-mastheads", "1 deal(s)", [1], names)], GAMES
    )
    assert "<bdi>&lt;b&gt;Ann&lt;/b&gt;</bdi>, <bdi>אבי</bdi>, <bdi>Cy</bdi>, <bdi>Di</bdi>" in html
    assert "Winner: <bdi>אבי</bdi> (0 : 10 : 20 : 30)" in html
    assert "<b>Ann" not in html
