"""A game that is one module plays in the server: the toy game ``take`` of the CLI tests,
registered and nothing else, at a table with a person and bots of every level."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.games import REGISTRY
from tests.server.test_features import get, play_out
from tests.serverproc import Player, ServerProcess

SERVER_DIR = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "server"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("toy"), module="tests.server.toy_main").start()
    yield proc
    proc.stop()


def test_the_lobby_offers_the_toy_game(server: ServerProcess) -> None:
    status, html = get(server.url + "/")
    assert status == 200
    assert "take" in html


@pytest.mark.parametrize(
    "bots",
    [("bot:random", "bot:easy"), ("bot:medium", "bot:greedy"), ("bot:hard", "bot:ismcts:30")],
)
def test_a_person_plays_the_toy_against_bots(server: ServerProcess, bots: tuple[str, str]) -> None:
    alice = Player(server, "t-toy-alice")
    table = alice.create(game="take", players=3, seats=["human", *bots], unit=True, name="Alice")
    sock = alice.connect(table)
    first = sock.hello()
    assert first["seat"] == 0
    assert first["view"]["pile"] > 0 and first["legal"]
    final = play_out(sock, 0)
    assert final["status"] == "finished"
    assert final["outcome"]["winners"], final["outcome"]
    frames = [json.loads(f) for f in sock.frames]
    log = [e for f in frames if f["type"] in ("state", "update") for e in f["events"]]
    # The log shows the toy's events in its own English (no catalog has its message ids).
    assert any(e["text"].startswith("round scored") for e in log), log[-3:]
    sock.close()


def test_the_table_page_draws_each_game_from_its_own_folder(server: ServerProcess) -> None:
    """app.js knows no game; each game's table.js comes from its own package, and a game
    without one (the toy) is drawn generically."""
    app_js = (SERVER_DIR / "static" / "app.js").read_text(encoding="utf-8")
    for name in (*REGISTRY.names(), "take"):
        assert f'"{name}"' not in app_js, name  # no game named in a comparison
    for name in REGISTRY.names():
        status, script = get(f"{server.url}/games/{name}/table.js")
        assert status == 200 and "window.cardtable" in script, name
    assert get(f"{server.url}/games/take/table.js")[0] == 404
    assert get(f"{server.url}/games/no-such-game/table.js")[0] == 404
    alice = Player(server, "t-toy-page")
    table = alice.create(game="take", players=2, seats=["human", "bot:random"], unit=True)
    status, html = get(f"{server.url}/t/{table}")
    assert status == 200 and '"script": null' in html and "/games/" not in html


def test_a_game_without_a_guide_has_no_rules_page(server: ServerProcess) -> None:
    status, html = get(server.url + "/rules/take?lang=en")
    assert status == 404
    assert "This game has no guide yet." in html
    assert 'href="/rules/take' not in get(server.url + "/")[1]  # and the lobby links none
