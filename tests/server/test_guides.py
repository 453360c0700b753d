"""How to play: every game's guide in English, Czech and Russian, served at
``/rules/<game>?lang=``, with an anchor for every rule id the game's errors cite."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from cardtable.core.errors import IllegalActionError
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY, get_game
from cardtable.server.errors import error_of
from cardtable.server.guide import guide_page, render_guide, rule_anchors
from cardtable.server.i18n import LANGUAGES, translator
from cardtable.server.messages import error_message
from cardtable.server.pages import game_title
from tests.cli.toy import GAME as TOY
from tests.server.test_features import get
from tests.serverproc import ServerProcess

GAMES = REGISTRY.names()
ROOT = Path(__file__).resolve().parents[2]
TITLE = {"en": "How to play", "cs": "Jak hrát", "ru": "Как играть"}
RULE_ID = re.compile(r'"([A-Z]\d+\.\d+[a-z]?|[A-Z]-\d+)"')


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("guides")).start()
    yield proc
    proc.stop()


def cited_rules(game: AnyGame) -> set[str]:
    """Every rule id written as a string in the game's source (its errors' ``rule``)."""
    package = game.resource_package()
    assert package is not None
    found: set[str] = set()
    for path in Path(str(resources.files(package))).glob("*.py"):
        found.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return found


def guide(game: AnyGame, lang: str) -> str:
    text = game.how_to_play(lang)
    assert text is not None, f"{game.info.name} has no guide in {lang}"
    return text


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_an_error_cites_has_an_anchor_in_every_language(name: str, lang: str) -> None:
    game = get_game(name)
    cited = cited_rules(game)
    assert len(cited) >= 3, cited  # the scan finds the ids (C6.1, R4.5, M-10, …)
    missing = cited - rule_anchors(guide(game, lang))
    assert not missing, f"{name} ({lang}) has no anchor for {sorted(missing)}"


@pytest.mark.parametrize("name", GAMES)
def test_the_three_languages_anchor_the_same_rules(name: str) -> None:
    game = get_game(name)
    anchors = {lang: rule_anchors(guide(game, lang)) for lang in LANGUAGES}
    assert anchors["cs"] == anchors["en"] == anchors["ru"]


def test_the_rule_scan_sees_the_ids_of_illegal_moves() -> None:
    game = get_game("royal-casino")
    state = game.new_game(2, seed=3)
    error = game.explain_illegal(state, game.parse_action(state, "trail 2S"))
    assert error.rule and error.rule in cited_rules(game)


def test_markdown_in_a_guide_cannot_inject_html() -> None:
    html = render_guide('<script>alert(1)</script> [x](javascript:alert(1)) <img src="x">')
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html


def test_a_rule_anchor_is_given_once_and_other_mentions_link_to_it() -> None:
    html = render_guide("[C6.1](#C6.1) first\n\nsee [C6.1](#C6.1)")
    assert html.count('id="C6.1"') == 1 and html.count('href="#C6.1"') == 2


def test_a_mention_before_the_rule_does_not_take_its_anchor() -> None:
    html = render_guide("For example [C6.1](#C6.1).\n\n- [C6.1](#C6.1) An owner cannot trail.")
    assert '<li><a href="#C6.1" class="rule" id="C6.1">C6.1</a> An owner' in html
    assert html.count('id="C6.1"') == 1


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guide_page_in_each_language(server: ServerProcess, name: str, lang: str) -> None:
    game = get_game(name)
    status, html = get(f"{server.url}/rules/{name}?lang={lang}")
    assert status == 200
    assert f'<html lang="{lang}">' in html
    # the game's name as players of that language know it (its catalog's game:<name>)
    assert f"<title>{game_title(game, translator(lang))} — {TITLE[lang]}</title>" in html
    for rule in cited_rules(game):
        assert f'id="{rule}"' in html
    # the language switch stays on the guide
    assert all(f'href="/rules/{name}?lang={other}"' in html for other in LANGUAGES)


def test_the_page_speaks_the_players_vocabulary(server: ServerProcess) -> None:
    assert "žolíky" in get(f"{server.url}/rules/rummy?lang=cs")[1]
    assert "Королевское наказание" in get(f"{server.url}/rules/royal-mastheads?lang=ru")[1]
    casino = get(f"{server.url}/rules/casino?lang=en")[1]
    assert '<span class="pip s-D red">10♦</span>' in casino
    assert '<span class="pip s-C">' in casino


def test_an_unknown_game_is_404_with_a_clear_message(server: ServerProcess) -> None:
    status, html = get(f"{server.url}/rules/poker?lang=cs")
    assert status == 404
    assert "Hra poker tu není." in html
    assert 'href="/"' in html  # the way back to the lobby
    status, html = get(f"{server.url}/rules/%3Cb%3Ex?lang=en")
    assert status == 404
    assert "There is no game called &lt;b&gt;x." in html and "<b>x" not in html


def test_an_unknown_language_falls_back_and_says_so(server: ServerProcess) -> None:
    status, html = get(f"{server.url}/rules/rummy?lang=de", lang="ru")
    assert status == 200
    assert '<html lang="ru">' in html
    assert "Языка «de» здесь нет." in html


def test_a_game_without_a_guide_in_a_language_shows_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("rummy")
    english = game.how_to_play("en")
    monkeypatch.setattr(game, "how_to_play", lambda lang: english if lang == "en" else None)
    page = guide_page(translator("cs"), game, "cs")
    assert page is not None
    assert "Tento návod zatím není v jazyce Čeština; zde je v jazyce English." in page
    assert '<article class="guide" lang="en">' in page


def test_a_game_without_any_guide_has_no_page() -> None:
    assert TOY.how_to_play("en") is None
    assert guide_page(translator("en"), TOY, None) is None


def test_the_lobby_links_every_guide(server: ServerProcess) -> None:
    status, html = get(f"{server.url}/?lang=cs")
    assert status == 200
    for name in GAMES:
        assert f'href="/rules/{name}?lang=cs"' in html


def test_an_illegal_move_error_names_its_rule() -> None:
    client = error_of(IllegalActionError("C6.1", "you own a build, so you may not trail"))
    assert (client.code, client.rule) == ("illegal", "C6.1")
    assert error_message(client.code, client.message, 4, None, client.rule)["rule"] == "C6.1"
    assert error_message("malformed", "no", 4, None)["rule"] is None


def test_nothing_in_the_product_points_outside_the_repository() -> None:
    places = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "src").rglob("*.*")]
    for path in places:
        if path.suffix in (".py", ".md", ".js", ".po", ".html", ".css", ".toml"):
            text = path.read_text(encoding="utf-8")
            assert "shared/rules" not in text and "shared/seeds" not in text, path


def test_how_to_play_reads_only_the_guides_languages() -> None:
    game = get_game("rummy")
    assert game.how_to_play("cs") is not None
    for lang in ("de", "../state", "en.md", ""):
        assert game.how_to_play(lang) is None


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_guide_is_titled_with_the_name_the_lobby_gives_the_game(name: str, lang: str) -> None:
    game = get_game(name)
    heading = guide(game, lang).splitlines()[0]
    assert heading == f"# {game_title(game, translator(lang))} — {TITLE[lang].lower()}", heading
