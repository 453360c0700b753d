"""A rematch in real browsers: the player starts it, a spectator is moved there."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.serverproc import Player, ServerProcess


def _play_out(player: Player, table: str) -> None:
    """Play the person's seat (first legal move) to the end over a websocket."""
    sock = player.connect(table)
    msg = sock.hello()
    while msg["status"] == "playing":
        if msg["to_act"] == msg["seat"] and msg["legal"]:
            sock.send({"type": "act", "action": msg["legal"][0]["text"], "version": msg["version"]})
        msg = sock.until(lambda m: m["type"] == "update")
    sock.stack.close()


def _record(server: ServerProcess, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/record/{table}", timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def test_rematch_same_seats_new_seed_and_the_spectator_follows(
    server: ServerProcess, browser: Any
) -> None:
    eva = Player(server, "eva-rematch-token")
    old = eva.create(
        game="royal-casino", seats=["human", "bot:greedy"], unit=True, name="Eva", timer=60
    )
    _play_out(eva, old)
    context = browser.new_context()
    context.add_cookies([{"name": "ct_player", "value": eva.token, "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/t/{old}?lang=en")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server.url}/t/{old}?lang=en")
    watcher.wait_for_selector(".status")
    assert watcher.locator("#rematch").count() == 0  # spectators cannot start one
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: "/t/" in url and old not in url)
    new = page.url.split("?")[0].rsplit("/", 1)[1]
    assert new != old
    watcher.wait_for_url(f"**/t/{new}")  # moved there without a click
    watcher.wait_for_selector(".seats")
    page.wait_for_selector(".hand .card")
    assert page.locator(".seat.you").inner_text().strip().startswith("Eva (you)")
    assert watcher.locator(".hand .card").count() == 0  # still only watching
    _play_out(eva, new)
    before, after = _record(server, old), _record(server, new)
    assert after["seed"] != before["seed"]
    assert (after["seats"], after["options"], after["scope"]) == (
        before["seats"],
        before["options"],
        before["scope"],
    )
