"""Czech, Russian and English: gettext catalogs read with Babel, plural forms included.

The page's own catalogs are ``locale/<lang>/LC_MESSAGES/messages.po`` next to this module
(English is the source language; its catalog holds the plural forms and a few wordings).
Each registered game brings its own catalogs of the same shape in its package
(:meth:`~cardtable.core.game.Game.resource_package`): its events, options and score rows.
They are merged into one catalog per language.  The page gets
its strings from :meth:`Translator.client_catalog`, which also carries the catalog's plural
expression so the browser picks the same plural form as gettext.

>>> cs = translator("cs")
>>> [cs.nfmt("{num} card", "{num} cards", n) for n in (1, 3, 5)]
['1 karta', '3 karty', '5 karet']
>>> translator("ru").card_name("10D")
'десятка бубен'
>>> negotiate("ru-RU,ru;q=0.9,en;q=0.8"), negotiate("de-DE"), negotiate(None)
('ru', 'en', 'en')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from io import BytesIO
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from cardtable.games import REGISTRY

__all__ = ["LANGUAGES", "Translator", "negotiate", "translator"]

LANGUAGES = ("en", "cs", "ru")
"""The languages of the page, the first being the default."""
LANGUAGE_NAMES = {"en": "English", "cs": "Čeština", "ru": "Русский"}
LOCALE_DIR = Path(__file__).with_name("locale")

_RANKS = {
    "A": "ace",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "10": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
}
_SUITS = {"S": "of spades", "H": "of hearts", "D": "of diamonds", "C": "of clubs"}
_FIELD = re.compile(r"\{(\w+)\}")


def _substitute(template: str, values: dict[str, object]) -> str:
    """``template`` with each ``{name}`` that ``values`` has filled in (others left as they
    are).  The template's pieces are split once and remembered: log lines are rendered for
    every move of every table from a few hundred templates."""
    parts = _PIECES.get(template)
    if parts is None:
        if len(_PIECES) > 10_000:
            _PIECES.clear()
        pieces = _FIELD.split(template)  # literal, field, literal, field, ..., literal
        parts = _PIECES[template] = (pieces[0::2], pieces[1::2])
    literals, fields = parts
    if not fields:
        return template
    out = [literals[0]]
    for name, literal in zip(fields, literals[1:], strict=True):
        value = values.get(name, _MISSING)
        out.append("{" + name + "}" if value is _MISSING else str(value))
        out.append(literal)
    return "".join(out)


_PIECES: dict[str, tuple[list[str], list[str]]] = {}
_MISSING = object()


class Translator:
    """Translations for one language."""

    def __init__(self, lang: str, catalog: Catalog) -> None:
        self.lang = lang
        self.catalog = catalog
        buf = BytesIO()
        write_mo(buf, catalog)
        buf.seek(0)
        self._t = Translations(buf)
        self._has: dict[str, bool] = {}

    def has(self, message: str) -> bool:
        """True when the catalog holds ``message`` (a plural message by its singular id)."""
        known = self._has.get(message)
        if known is None:
            if len(self._has) > 10_000:
                self._has.clear()
            known = self._has[message] = self.catalog.get(message) is not None
        return known

    def gettext(self, message: str) -> str:
        """The translation of ``message`` (the message itself when there is none)."""
        return self._t.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The plural form for ``n`` under this language's plural rule."""
        return self._t.ngettext(singular, plural, n)

    def fmt(self, message: str, **values: object) -> str:
        """Translate, then fill ``{name}`` fields."""
        return _substitute(self.gettext(message), values)

    def nfmt(self, singular: str, plural: str, n: int, **values: object) -> str:
        """Translate a plural message for ``n`` and fill its fields (``{num}`` is ``n``)."""
        return _substitute(self.ngettext(singular, plural, n), {"num": n, **values})

    def card_name(self, token: str) -> str:
        """A card's spoken name (``10D`` → ``ten of diamonds``), for ``aria-label``."""
        if token.rstrip("'") == "JK":
            return self.gettext("joker")
        card = token.rstrip("'")
        rank, suit = card[:-1], card[-1]
        if rank not in _RANKS or suit not in _SUITS:
            return self.gettext("hidden card")
        return self.fmt(
            "{rank} {suit}",
            rank=self.gettext(_RANKS[rank]),
            suit=self.gettext(_SUITS[suit]),
        )

    def client_catalog(self) -> dict[str, Any]:
        """Every message for the page: ``{msgid: str or [plural forms]}`` and the plural rule."""
        messages: dict[str, Any] = {}
        for msg in self.catalog:
            if not msg.id:
                continue
            if isinstance(msg.id, tuple | list):
                strings = (
                    [str(x) for x in msg.string or ()] if not isinstance(msg.string, str) else []
                )
                forms = strings if any(strings) else [msg.id[0], msg.id[1]]
                messages[msg.id[0]] = forms
            else:
                messages[msg.id] = msg.string or msg.id
        cards = {f"{r}{s}": self.card_name(f"{r}{s}") for r in _RANKS for s in _SUITS}
        cards["JK"] = self.gettext("joker")
        cards["??"] = self.gettext("hidden card")
        return {
            "lang": self.lang,
            "plural": self.catalog.plural_expr,
            "messages": messages,
            "cards": cards,
        }


def game_catalog_paths(lang: str, packages: Iterable[str | None]) -> list[Traversable]:
    """The ``messages.po`` of ``lang`` in each package that has one."""
    found: list[Traversable] = []
    for package in packages:
        if package is None:
            continue
        try:
            path = resources.files(package) / "locale" / lang / "LC_MESSAGES" / "messages.po"
        except ModuleNotFoundError:
            continue
        if path.is_file():
            found.append(path)
    return found


def merge_catalog(into: Catalog, other: Catalog) -> None:
    """Add every message of ``other`` to ``into`` (a message already there is replaced)."""
    for msg in other:
        if msg.id:
            into[msg.id] = msg


@cache
def translator(lang: str) -> Translator:
    """The translator of a supported language (English for any other): the page's catalog
    merged with the catalog of every registered game."""
    if lang not in LANGUAGES:
        lang = "en"
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    packages = [game.resource_package() for game in REGISTRY.games()]
    for extra in game_catalog_paths(lang, packages):
        with extra.open("rb") as fh:
            merge_catalog(catalog, read_po(fh, locale=lang))
    return Translator(lang, catalog)


def negotiate(accept_language: str | None) -> str:
    """The best supported language for an ``Accept-Language`` header (default English)."""
    if not accept_language:
        return LANGUAGES[0]
    wanted: list[tuple[float, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if tag:
            wanted.append((q - i * 1e-6, tag.strip()))
    tags = [t for _, t in sorted(wanted, reverse=True)]
    try:
        found = Locale.negotiate(tags, list(LANGUAGES), sep="-")
    except (UnknownLocaleError, ValueError):
        found = None
    return found.language if found is not None else LANGUAGES[0]
