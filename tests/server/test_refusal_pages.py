"""Every refusal and error page sits in the site's frame, in the visitor's language (from
``?lang``, the language cookie or Accept-Language), with a way on; the leaderboard speaks to
players; the lobby's option help cites rules by links, not ids (issue 39, point 7)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.server import test_daily
from tests.server.test_daily import _play_day

HTML = {"Accept": "text/html,application/xhtml+xml"}


client = test_daily.client
"""An in-process server whose daily challenge has two deals played against random bots."""


def framed(html: str, lang: str) -> str:
    """The page's heading, once it is checked to be a whole page of the site in ``lang``."""
    assert html.startswith("<!doctype html>"), html[:80]
    assert f'<html lang="{lang}">' in html
    assert (
        '<header class="top">' in html and '<link rel="stylesheet" href="/static/app.css">' in html
    )
    found = re.search(r"<h1>(.*?)</h1>", html)
    assert found is not None, html
    return found.group(1)


def test_an_unknown_address_is_a_page_of_the_site_in_the_browsers_language(
    client: TestClient,
) -> None:
    r = client.get("/no/such/page", headers={**HTML, "Accept-Language": "cs-CZ,cs;q=0.9"})
    assert r.status_code == 404
    assert framed(r.text, "cs") == "Na této adrese žádná stránka není."
    assert 'href="/">Zpět na úvodní stránku</a>' in r.text
    # the API and clients that do not ask for HTML keep their JSON
    assert client.get("/api/no-such-thing", headers=HTML).json() == {"detail": "Not Found"}
    assert client.get("/no/such/page").json() == {"detail": "Not Found"}
    # a form's address opened as a page (a reload after the form was sent)
    r = client.get("/new", headers={**HTML, "Accept-Language": "ru"})
    assert r.status_code == 405
    assert framed(r.text, "ru") == "По этому адресу страницы нет."
    assert client.get("/new").status_code == 405


def test_a_missing_table_speaks_the_language_the_cookie_remembers(client: TestClient) -> None:
    client.cookies.set("ct_lang", "ru")
    r = client.get("/t/nosuchtable", headers={**HTML, "Accept-Language": "cs"})
    assert r.status_code == 404
    assert framed(r.text, "ru") == "Такого стола нет"
    client.cookies.clear()
    r = client.post("/t/nosuchtable/rematch", headers={"Accept-Language": "ru"})
    assert r.status_code == 404
    assert framed(r.text, "ru") == "Такого стола нет"


def test_a_second_daily_attempt_and_someone_elses_deal_are_framed_and_translated(
    client: TestClient,
) -> None:
    tables = _play_day(client, "eva-token", "Eva", "rummy")
    table = f"/t/{tables[0]}"
    again = client.post(
        "/daily/rummy/start", data={"name": "Eva"}, headers={"Accept-Language": "cs"}
    )
    assert again.status_code == 409
    assert framed(again.text, "cs") == "Dnešní výzvu jste už hráli"
    assert "/daily/rummy/" in again.text  # the way on: the day's board
    client.cookies.clear()
    client.cookies.set("ct_player", "ivan-token")
    other = client.get(table, headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert other.status_code == 403
    heading = framed(other.text, "ru")
    assert heading == "Это раздача ежедневного вызова: она будет видна, когда вы её сыграете."
    replay = client.get(f"/replay/{tables[0]}", headers={"Accept-Language": "cs"})
    assert replay.status_code == 403
    assert framed(replay.text, "cs") == framed(
        client.get(table, headers={"Accept-Language": "cs"}).text, "cs"
    )


@pytest.mark.parametrize("lang", ["en", "cs", "ru"])
def test_the_leaderboard_explains_the_rating_and_says_when_it_is_empty(
    client: TestClient, lang: str
) -> None:
    html = client.get(f"/leaderboard?lang={lang}").text
    framed(html, lang)
    assert "μ" not in html and "σ" not in html
    assert html.count('<p class="muted">') == 3  # one "nobody yet" per game
    assert '<p class="rating-help">' in html


@pytest.mark.parametrize("lang", ["en", "cs", "ru"])
def test_option_help_links_the_rules_instead_of_citing_ids(client: TestClient, lang: str) -> None:
    html = client.get(f"/?lang={lang}").text
    helps = re.findall(r"<small>(.*?)</small>", html, re.S)
    assert helps
    for text in helps:
        words = re.sub(r"<[^>]+>", "", text)
        assert not re.search(r"\([A-Z]{1,2}-?\d", words), words
    assert f'<a class="rule-link" href="/rules/rummy?lang={lang}#R8.3">' in html
