"""A game's player's guide ("How to play") as a page of the site.

The guide is Markdown the game ships (:meth:`Game.how_to_play`).  It is rendered with
``markdown-it-py`` with HTML in the source disabled, so the page holds only what Markdown
makes.  A link to itself whose text is its own fragment, ``[C6.1](#C6.1)``, that starts a
paragraph or a list item is where rule C6.1 is stated: it gets ``id="C6.1"``, so a message
citing rule C6.1 links to ``/rules/<game>?lang=…#C6.1``.  The same link inside a sentence is
a mention, a link to that place.  Cards written with suit symbols (``10♦``, ``Q♠``) are
drawn as small card faces.
"""

from __future__ import annotations

import re
from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from cardtable.core.registry import AnyGame
from cardtable.server.i18n import LANGUAGE_NAMES, LANGUAGES, Translator
from cardtable.server.pages import _layout, game_title

__all__ = ["guide_page", "guide_text", "missing_page", "render_guide", "rule_anchors"]

_CARD = re.compile(r"(?<![\w#])(10|[2-9AJQK])([♠♣♥♦])")
_STYLE = (
    "<style>.guide .pip{display:inline-block;border:1px solid #999;border-radius:3px;"
    "padding:0 .2em;background:#fff;color:#111;font-weight:600;white-space:nowrap}"
    ".guide .pip.red{color:#c00}.guide a.rule{font-weight:600;scroll-margin-top:3em}"
    ".guide a.rule:target{background:#ffe58a}"
    ".four-colour .guide .pip.s-D{color:#1546b0}.four-colour .guide .pip.s-C{color:#17692a}</style>"
)


def _rule_anchors(state: StateCore) -> None:
    """Mark every self-link ``[ID](#ID)`` as a rule link, and give the first one that
    starts a paragraph or list item the ``id`` it points at (where the rule is stated)."""
    seen: set[str] = set()
    for block in state.tokens:
        children = block.children or []
        for i, tok in enumerate(children[:-1]):
            href = tok.attrGet("href") if tok.type == "link_open" else None
            if not isinstance(href, str) or not href.startswith("#"):
                continue
            text = children[i + 1]
            if text.type == "text" and text.content == href[1:]:
                tok.attrSet("class", "rule")
                if i == 0 and href[1:] not in seen:
                    seen.add(href[1:])
                    tok.attrSet("id", href[1:])


_MD = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_MD.core.ruler.push("rule_anchors", _rule_anchors)


_SUIT_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _card(match: re.Match[str]) -> str:
    """A card as a small pip in its suit's colour (``s-D``/``s-C`` turn blue/green when the
    reader chose the four-colour deck)."""
    red = " red" if match.group(2) in "♥♦" else ""
    suit = _SUIT_LETTER[match.group(2)]
    return f'<span class="pip s-{suit}{red}">{match.group(0)}</span>'


def render_guide(markdown: str) -> str:
    """A guide's Markdown as safe HTML (raw HTML in the source is shown as text).

    >>> print(render_guide("[C6.1](#C6.1) 10♦"))
    <p><a href="#C6.1" class="rule" id="C6.1">C6.1</a> <span class="pip s-D red">10♦</span></p>
    <BLANKLINE>
    >>> render_guide("<script>x</script>")
    '<p>&lt;script&gt;x&lt;/script&gt;</p>\\n'
    """
    return _CARD.sub(_card, _MD.render(markdown))


def rule_anchors(markdown: str) -> set[str]:
    """The rule ids a guide has anchors for.

    >>> sorted(rule_anchors("[R4.5](#R4.5) and [see](#R4.6)"))
    ['R4.5']
    """
    return set(re.findall(r'<a href="#[^"]*" class="rule" id="([^"]+)">', render_guide(markdown)))


def guide_text(game: AnyGame, lang: str) -> tuple[str, str] | None:
    """The game's guide in ``lang``, or else in the first language it has: ``(language,
    Markdown)``; ``None`` when the game has no guide at all."""
    for candidate in (lang, *LANGUAGES):
        text = game.how_to_play(candidate)
        if text is not None:
            return candidate, text
    return None


def guide_page(tr: Translator, game: AnyGame, asked: str | None) -> str | None:
    """The page ``/rules/<game>`` in the translator's language; ``asked`` is the ``lang``
    the address named (shown in a notice when it is not a language of the site).  ``None``
    when the game has no guide."""
    found = guide_text(game, tr.lang)
    if found is None:
        return None
    lang, text = found
    notes = []
    if asked is not None and asked not in LANGUAGES:
        notes.append(tr.fmt("There is no language '{lang}' here.", lang=asked))
    if lang != tr.lang:
        notes.append(
            tr.fmt(
                "This guide is not written in {language} yet; here it is in {shown}.",
                language=LANGUAGE_NAMES[tr.lang],
                shown=LANGUAGE_NAMES[lang],
            )
        )
    notice = "".join(f'<p class="notice" role="note">{escape(n)}</p>' for n in notes)
    name = game.info.name
    title = f"{game_title(game, tr)} — {tr.gettext('How to play')}"
    body = (
        f'{_STYLE}<nav class="crumbs"><a href="/">{escape(tr.gettext("Back"))}</a></nav>'
        f'{notice}<article class="guide" lang="{lang}">{render_guide(text)}</article>'
    )
    return _layout(tr, title, body, path=f"/rules/{name}")


def missing_page(tr: Translator, message: str) -> str:
    """The page for a guide that is not there: the reason, and the way back to the lobby."""
    body = (
        f'<nav class="crumbs"><a href="/">{escape(tr.gettext("Back"))}</a></nav>'
        f"<h1>{escape(message)}</h1>"
    )
    return _layout(tr, message, body)
