"""Players read words and cards, never notation: every log line, score breakdown and move
label the server makes from a game's ``present`` functions, in every language, over seeded
self-play games of every game (issue 39, point 2).

Notation stays in records, the CLI and the API; these texts are what a page shows.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.core.game import Event
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY
from cardtable.server.i18n import LANGUAGES, Translator, translator
from cardtable.server.present import action_entry, log_entry

NOTATION = {
    "an arrow": re.compile(r"->|<->|→"),
    "a build or meld id": re.compile(r"(?<![\w])[bBmM]\d+(?![\w])"),
    "a bracketed value": re.compile(r"\[[^\]]*\]"),
    "an ASCII card code": re.compile(r"(?<![\w])(?:10|[2-9AJQKT])[SHDC]'?(?![\w])|(?<![\w])JK"),
    "a rule id in parentheses": re.compile(r"\((?:[A-Z]{1,2}-?\d+(?:\.\d+)*[a-z]?[,; ]*)+\)"),
    "a seat id": re.compile(r"(?<![\w])P\d(?![\w])"),
    "a raw message id": re.compile(r"\b(?:action|bd|event|level|game):|\{\w+\}|\.opt\."),
}
"""What must never show through, by what it is."""

ENGINE_VERBS = re.compile(
    r"(?i)\b(?:trail(?:ed)?|capture[sd]?|build|built|raise[sd]?|add(?:ed)?|meld(?:ed)?|"
    r"layoff|laid|swap(?:ped)?|discard(?:ed)?|draw|drew|take|took|pot|play(?:ed)?|single|multi|"
    r"sweep|deal|hand|round|scored|game over)\b"
)
"""English engine words a Czech or Russian page must not show."""

SEATS = {"royal-casino": (2, 3, 4), "rummy": (2, 3), "royal-mastheads": (4,)}
NAMES = ["Ann", "Bob", "Cyril", "Dana"]


def problems(text: str, lang: str) -> list[str]:
    """What in ``text`` is notation (and, in Czech or Russian, English)."""
    found = [what for what, pattern in NOTATION.items() if pattern.search(text)]
    if lang != "en" and ENGINE_VERBS.search(text):
        found.append("an English engine word")
    return found


def self_play(game: AnyGame, players: int, seed: int, options: dict[str, Any]) -> Iterator[Any]:
    """Each state of a random game with its events and the seat to act, until the end or
    a few hundred moves."""
    rng = random.Random(seed)
    state = game.new_game(players, options, seed)
    events: tuple[Event, ...] = ()
    for _ in range(400):
        yield state, events
        if game.outcome(state) is not None:
            return
        state, events = game.apply(state, rng.choice(game.legal_actions(state)))


def texts_of(
    game: AnyGame, players: int, seed: int, options: dict[str, Any], tr: Translator
) -> Iterator[tuple[str, str]]:
    """Every text a page shows of one self-play game: labels of the legal moves (as the seat
    to act sees them), log lines and score breakdowns."""
    names = NAMES[:players]
    for state, events in self_play(game, players, seed, options):
        for event in events:
            for seat in range(players):
                entry = log_entry(game, game.redact(event, seat), names, tr)
                yield "log", entry["text"]
                breakdown = entry.get("breakdown")
                if breakdown is not None:
                    yield "title", breakdown["title"]
                    for row in breakdown["rows"]:
                        yield "row", row["label"]
                        yield from (("cell", str(v)) for v in row["values"])
        if game.outcome(state) is None:
            view = game.view(state, game.to_act(state))
            for action in game.legal_actions(state):
                text = game.format_action(action)
                label = action_entry(text, (), tr, game.describe_action(text, view))["label"]
                yield "action", label


def option_sets(name: str) -> list[dict[str, Any]]:
    """The rule variants whose moves read differently (Rummy's jokers and deep pickups)."""
    if name == "rummy":
        return [{}, {"jokers": True}, {"jokers": True, "discardPickup": "anyWithAbove"}]
    return [{}]


CASES = [
    (name, players, options)
    for name in REGISTRY.names()
    if name in SEATS
    for players in SEATS[name]
    for options in option_sets(name)
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_no_text_a_page_shows_is_notation(
    name: str, players: int, options: dict[str, Any], lang: str
) -> None:
    game = REGISTRY.get(name)
    tr = translator(lang)
    kinds: set[str] = set()
    for seed in range(3):
        for kind, text in texts_of(game, players, seed, options, tr):
            kinds.add(kind)
            found = problems(text, lang)
            assert not found, f"{name} {lang} {kind} {text!r}: {found}"
    assert {"log", "action", "row"} <= kinds


def test_every_move_kind_has_words_in_every_language() -> None:
    """No move falls back to the verb and its notation: each has the game's words."""
    for name in SEATS:
        game = REGISTRY.get(name)
        for options in option_sets(name):
            players = SEATS[name][0]
            for state, _ in self_play(game, players, 5, options):
                if game.outcome(state) is not None:
                    break
                view = game.view(state, game.to_act(state))
                for action in game.legal_actions(state):
                    text = game.format_action(action)
                    message = game.describe_action(text, view)
                    assert message is not None, text
                    for lang in LANGUAGES:
                        assert translator(lang).has(message.id), (lang, message.id)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Postavit 8♣ -> 14 (single): 6♣", "cs"),
        ("Vzít K♦: b1", "cs"),
        ("Подложить 5♥->M1", "ru"),
        ("bere [13] kartou K♥", "cs"),
        ("Směr rozdávání a hry (C1.3)", "cs"),
        ("Раунд M-13 (M-13)", "ru"),
        ("build QS -> 14 (single): 2C", "cs"),
        ("trail JS", "ru"),
    ],
)
def test_the_check_sees_the_notation_the_issue_quotes(text: str, lang: str) -> None:
    assert problems(text, lang)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Postavit 14 z 8♣ a 6♣", "cs"),
        ("Vzít 8♦+6♣ kartou K♦", "cs"),
        ("Подложить 5♥ к 2♥ 3♥ 4♥", "ru"),
        ("Ann takes 🃏(6♥) from the discard pile", "en"),
    ],
)
def test_the_check_lets_words_and_cards_through(text: str, lang: str) -> None:
    assert not problems(text, lang)
