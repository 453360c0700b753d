"""The guide in a real browser: the table's Rules link, and an illegal move whose error cites
a rule links to the guide opened at that rule, in each language."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.serverproc import ServerProcess


def _rummy_table(page: Any, server: ServerProcess, lang: str) -> None:
    """A one-round Rummy table against the random bot, opened in ``lang``."""
    answer = page.request.post(
        server.url + "/api/tables",
        data={"game": "rummy", "seats": ["human", "bot:random"], "unit": True, "name": "Jiří"},
    )
    assert answer.ok, answer.text()
    page.goto(server.url + answer.json()["url"] + f"?lang={lang}")
    page.wait_for_selector(".status")


# Per language: the error's link, the guide's title ending and the words of rule R4.2.
RULE_LINK = {
    "cs": ("Pravidlo R4.2", " — Jak hrát", "Nejdřív líznout"),
    "en": ("Rule R4.2", " — How to play", "Draw first"),
    "ru": ("Правило R4.2", " — Как играть", "Сначала взять карту"),
}


@pytest.mark.parametrize("lang", sorted(RULE_LINK))
def test_an_illegal_move_links_to_its_rule_in_the_guide(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    link_text, title_end, words = RULE_LINK[lang]
    context = browser.new_context()
    page = context.new_page()
    _rummy_table(page, server, lang)
    # At the start of my turn only a draw is legal: ask to discard instead (R4.2).
    draw = page.locator(".actions button.act[data-act='DRAW_STOCK']")
    draw.wait_for(timeout=15_000)
    card = page.locator(".hand [data-token]").first.get_attribute("data-token")
    page.evaluate(
        "(text) => { document.querySelector(\".actions button.act[data-act='DRAW_STOCK']\")"
        ".dataset.act = text; }",
        f"DISCARD {card}",
    )
    page.locator(f".actions button.act[data-act='DISCARD {card}']").click()
    link = page.locator(".error a.rule-link")
    link.wait_for(timeout=10_000)
    assert "R4.2" in page.locator(".error").inner_text()
    assert link.inner_text() == link_text
    assert link.get_attribute("href") == f"/rules/rummy?lang={lang}#R4.2"
    with context.expect_page() as opened:
        link.click()
    guide = opened.value
    guide.wait_for_load_state()
    assert guide.url.endswith(f"/rules/rummy?lang={lang}#R4.2")
    assert guide.locator("html").get_attribute("lang") == lang
    assert guide.title().endswith(title_end)
    target = guide.locator(":target")
    assert target.get_attribute("id") == "R4.2"
    assert words in guide.evaluate(
        "() => document.getElementById('R4.2').closest('li').textContent"
    )
    # the guide is at that rule: its anchor is on screen
    assert guide.evaluate(
        "() => { const r = document.getElementById('R4.2').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight; }"
    )
    # the move changed nothing: the draw is still what the table offers
    assert page.locator(".actions button.act[data-act='DRAW_STOCK']").count() == 1
    context.close()


def test_the_table_bar_links_the_guide_in_the_page_language(
    server: ServerProcess, browser: Any
) -> None:
    context = browser.new_context()
    page = context.new_page()
    _rummy_table(page, server, "ru")
    link = page.locator(".bar a.rules-link")
    assert link.inner_text() == "Правила"
    assert link.get_attribute("href") == "/rules/rummy?lang=ru"
    with context.expect_page() as opened:
        link.click()
    guide = opened.value
    guide.wait_for_load_state()
    assert guide.locator("h1").first.inner_text().endswith("— как играть")
    assert json.loads(guide.evaluate("() => JSON.stringify(document.documentElement.lang)")) == "ru"
    context.close()
