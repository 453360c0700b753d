"""The event log is localized for every game: each event kind a game emits has its line."""

from __future__ import annotations

import random

import pytest

from cardtable.core.game import Event
from cardtable.games import REGISTRY
from cardtable.server.i18n import translator
from cardtable.server.present import _describe_known, _describe_mastheads, _describe_rummy

DESCRIBERS = {
    "royal-casino": _describe_known,
    "rummy": _describe_rummy,
    "royal-mastheads": _describe_mastheads,
}


def events_of(name: str, seeds: int) -> dict[str, Event]:
    """One event of every kind seen in random matches of a game."""
    game = REGISTRY.get(name)
    seen: dict[str, Event] = {}
    for seed in range(seeds):
        rng = random.Random(seed)
        options = {"deals": 2} if name == "royal-mastheads" else None
        state = game.new_game(game.info.default_players, options, seed=seed)
        while game.to_act(state) is not None:
            legal = game.legal_actions(state)
            state, events = game.apply(state, legal[rng.randrange(len(legal))])
            for e in events:
                seen.setdefault(e.kind, game.redact(e, 0))
    return seen


@pytest.mark.parametrize("name", sorted(DESCRIBERS))
@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_every_event_kind_has_a_localized_line(name: str, lang: str) -> None:
    tr = translator(lang)
    names = ["Jiří", "Ольга", "Ann", "Bob"]
    describe = DESCRIBERS[name]
    for kind, event in events_of(name, 4).items():
        fields = {f: getattr(event, f) for f in event.__dataclass_fields__}
        line = describe(kind, fields, lambda: names[0], names, tr)
        assert line, f"{name}: no line for {kind!r}"
        same = describe(kind, fields, lambda: names[0], names, translator("en"))
        assert line != same, f"{name}: {kind!r} is not translated into {lang}: {line!r}"
