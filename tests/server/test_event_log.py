"""Every game presents itself: each event kind it emits is a message in all three catalogs,
each option has a label and help in all three, its end-of-unit breakdown is rows; the page
renders them without knowing the game.  The toy game gets defaults with nothing added."""

from __future__ import annotations

import importlib
import random
from importlib import resources

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from cardtable.core.game import Event
from cardtable.core.present import CardRef, CardsRef, Message, ScoreTable, SeatRef
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY
from cardtable.games.royal_casino.events import Added, Captured, Raised
from cardtable.games.royal_mastheads.events import PotAwarded
from cardtable.server.i18n import LANGUAGES, translator
from cardtable.server.present import describe_event, event_json, render_message, score_json
from tests.cli.toy import GAME as TOY

NAMES = ["Jiří", "Ольга", "Ann", "Bob"]
GAMES = sorted(REGISTRY.names())


RARE: dict[str, tuple[Event, ...]] = {"royal-mastheads": (PotAwarded(None, ()),)}
"""Events the random games above seldom show: a tie for most tricks."""
OPTIONS: dict[str, dict[str, object]] = {
    "royal-mastheads": {"deals": 2},
    "rummy": {"jokers": True, "jokerSwap": True},
}


def events_of(game: AnyGame, seeds: int) -> dict[tuple[str, str], Event]:
    """One event of every kind and message seen in random matches of a game, as seat 0
    and as a spectator see them."""
    seen: dict[tuple[str, str], Event] = {}
    for seed in range(seeds):
        rng = random.Random(seed)
        options = OPTIONS.get(game.info.name)
        state = game.new_game(game.info.default_players, options, seed=seed)
        while game.to_act(state) is not None:
            legal = game.legal_actions(state)
            state, events = game.apply(state, legal[rng.randrange(len(legal))])
            for e in events:
                for seat in (0, None):
                    shown = game.redact(e, seat)
                    seen.setdefault((e.kind, game.describe_event(shown).id), shown)
    for e in RARE.get(game.info.name, ()):
        seen.setdefault((e.kind, game.describe_event(e).id), e)
    return seen


def game_catalog(game: AnyGame, lang: str) -> Catalog:
    package = game.resource_package()
    assert package is not None
    path = resources.files(package) / "locale" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def messages_of(game: AnyGame, events: dict[tuple[str, str], Event]) -> list[Message]:
    out = [game.describe_event(e) for e in events.values()]
    for e in events.values():
        table = game.score_table(e)
        if table is not None:
            out.append(table.title)
            out += [row.label for row in table.rows]
    for spec in game.info.options.specs:
        text = game.option_text(spec)
        out += [text.label, text.help, *text.choices.values()]
    return out


@pytest.fixture(scope="module", params=GAMES)
def played(request: pytest.FixtureRequest) -> tuple[AnyGame, dict[tuple[str, str], Event]]:
    game = REGISTRY.get(request.param)
    return game, events_of(game, 4)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_of_a_game_is_in_its_own_catalog(
    played: tuple[AnyGame, dict[tuple[str, str], Event]], lang: str
) -> None:
    game, events = played
    catalog = game_catalog(game, lang)
    for message in messages_of(game, events):
        entry = catalog.get(message.id)
        assert entry is not None, f"{game.info.name}: {message.id!r} missing from {lang}"
        strings = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
        if lang != "en":
            assert all(strings), f"{game.info.name}: {message.id!r} untranslated in {lang}"
        assert (message.plural is not None) == isinstance(entry.id, tuple | list), message.id


def test_every_event_kind_has_a_message(
    played: tuple[AnyGame, dict[tuple[str, str], Event]],
) -> None:
    game, events = played
    module = importlib.import_module(f"{game.resource_package()}.events")
    declared = {
        cls.kind
        for name in module.__all__
        if isinstance(cls := getattr(module, name), type) and issubclass(cls, Event)
    }
    assert declared <= {kind for kind, _ in events}, "the random games miss some event kinds"
    for (kind, _), event in events.items():
        message = game.describe_event(event)
        assert not message.id.startswith("event:"), f"{game.info.name}: no message for {kind}"


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_every_event_kind_has_a_localized_line(
    played: tuple[AnyGame, dict[tuple[str, str], Event]], lang: str
) -> None:
    game, events = played
    for (kind, _), event in events.items():
        line = describe_event(game, event, NAMES, translator(lang))
        english = describe_event(game, event, NAMES, translator("en"))
        assert line and "{" not in line, f"{game.info.name}: {kind!r} → {line!r}"
        assert line != english, f"{game.info.name}: {kind!r} is not translated into {lang}"


@pytest.mark.parametrize("lang", ["cs", "ru"])
def test_option_labels_and_help_are_translated(
    played: tuple[AnyGame, dict[tuple[str, str], Event]], lang: str
) -> None:
    game, _ = played
    tr, en = translator(lang), translator("en")
    for spec in game.info.options.specs:
        text = game.option_text(spec)
        label = render_message(text.label, (), tr)
        help_ = render_message(text.help, (), tr)
        assert label != render_message(text.label, (), en), (spec.name, lang)
        assert help_ != render_message(text.help, (), en), (spec.name, lang)
        assert label != spec.name and help_ != spec.help, (spec.name, lang)
        if spec.choices:
            assert set(text.choices) == set(spec.choices)
        else:  # values a form offers for a free-text option: each one valid
            for value in text.choices:
                game.info.options.validate({spec.name: value})
        for choice, message in text.choices.items():
            shown = render_message(message, (), tr)
            assert (shown != message.id and shown != choice) or shown.lstrip("−-").isdigit(), (
                spec.name,
                choice,
                lang,
            )


def test_english_option_texts_are_words_not_ids(
    played: tuple[AnyGame, dict[tuple[str, str], Event]],
) -> None:
    game, _ = played
    en = translator("en")
    for spec in game.info.options.specs:
        text = game.option_text(spec)
        for message in (text.label, text.help, *text.choices.values()):
            assert render_message(message, (), en) != message.id, message.id


def test_messages_shared_by_games_agree() -> None:
    for lang in LANGUAGES:
        seen: dict[str, tuple[str, object]] = {}
        for name in GAMES:
            for entry in game_catalog(REGISTRY.get(name), lang):
                if not entry.id:
                    continue
                key = entry.id if isinstance(entry.id, str) else entry.id[0]
                if key in seen:
                    other, string = seen[key]
                    assert string == entry.string, f"{key!r}: {name} and {other} differ in {lang}"
                seen[key] = (name, entry.string)


def test_cards_are_notation_in_events_and_json(
    played: tuple[AnyGame, dict[tuple[str, str], Event]],
) -> None:
    game, events = played
    for event in events.values():
        for key, value in event_json(event).items():
            flat = value if isinstance(value, list) else [value]
            for item in flat:
                assert not isinstance(item, list) or all(
                    x is None or isinstance(x, str) for x in item
                ), (game.info.name, key, item)
        message = game.describe_event(event)
        for param in message.params.values():
            if isinstance(param, CardRef) and param.card is not None:
                assert isinstance(param.card, str)
            if isinstance(param, CardsRef):
                assert all(c is None or isinstance(c, str) for c in param.cards)


def test_each_game_has_a_score_breakdown_with_translated_rows(
    played: tuple[AnyGame, dict[tuple[str, str], Event]],
) -> None:
    game, events = played
    tables = [(e, t) for e in events.values() if (t := game.score_table(e)) is not None]
    assert tables, f"{game.info.name}: no event carries a score breakdown"
    players = game.info.default_players
    names = NAMES[:players]
    for event, table in tables:
        assert isinstance(table, ScoreTable)
        assert any(row.total for row in table.rows)
        en = score_json(game, event, names, translator("en"))
        assert en is not None
        for lang in ("cs", "ru"):
            local = score_json(game, event, names, translator(lang))
            assert local is not None
            assert (
                local["columns"]
                == en["columns"]
                == [" + ".join(names[s] for s in side) for side in game.sides(players)]
            )
            labels = [row["label"] for row in local["rows"]]
            assert all(
                a != b for a, b in zip(labels, [r["label"] for r in en["rows"]], strict=True)
            )
            assert [r["values"] for r in local["rows"]] == [r["values"] for r in en["rows"]]


def test_seats_and_cards_are_rendered_by_the_page() -> None:
    message = Message(
        "{name} took {cards} with {card}",
        {"name": SeatRef(1), "cards": CardsRef(("9H", None, "b2")), "card": CardRef("10D")},
    )
    assert render_message(message, NAMES, translator("cs")) == "Ольга bere 9♥ ?? b2 kartou 10♦"


def test_the_toy_game_gets_defaults_with_nothing_added() -> None:
    state = TOY.new_game(2, seed=1)
    legal = TOY.legal_actions(state)
    _, events = TOY.apply(state, legal[0])
    (event,) = events
    message = TOY.describe_event(event)
    assert message.id == "event:" + event.kind
    assert {k: v for k, v in message.params.items()} == {
        k: v for k, v in event_json(event).items() if k != "kind"
    }
    assert describe_event(TOY, event, NAMES, translator("cs")) == event.describe()
    assert TOY.score_table(event) is None
    for spec in TOY.info.options.specs:
        text = TOY.option_text(spec)
        assert render_message(text.label, (), translator("ru")) == spec.name
        assert render_message(text.help, (), translator("ru")) == spec.help
        assert [m.id for m in text.choices.values()] == list(spec.choices)
    assert TOY.resource_package() == "tests.cli"


def test_royal_casino_log_names_builds_by_owner_and_value_not_by_number() -> None:
    """Build numbers shift as builds are captured; the log line must stay true later on."""
    casino = REGISTRY.get("royal-casino")
    names = ["Ann", "Bob"]
    added = Added(0, "4C", 2, ("5H",), 1, 9)
    raised = Raised(1, "2D", 1, 9, 11, (), 0)
    taken = Captured(0, "9S", ("9H",), (1, 2), ("9S", "9H", "5D", "4C", "6S", "3H"), False)
    en = translator("en")
    assert describe_event(casino, added, names, en) == "Ann added 4♣ and 5♥ to Bob's 9-build"
    assert describe_event(casino, raised, names, en) == "Bob raised Ann's 9-build to 11 with 2♦"
    assert describe_event(casino, taken, names, en) == "Ann took 9♥ 5♦ 4♣ 6♠ 3♥ with 9♠"
    cs, ru = translator("cs"), translator("ru")
    assert describe_event(casino, added, names, cs) == "Ann přidává 4♣ a 5♥ ke stavbě 9 (Bob)"
    assert describe_event(casino, raised, names, ru) == (
        "Bob повышает постройку 9 (Ann) до 11 картой 2♦"
    )
    for line in (
        describe_event(casino, e, names, t) for e in (added, raised, taken) for t in (en, cs, ru)
    ):
        assert "b1" not in line and "b2" not in line and "[" not in line, line
