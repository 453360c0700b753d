"""What a player must never read on a page: the engine's notation.

Shared by the browser tests of the table, the replay and the daily comparison.  A page speaks
in words and card glyphs; the notation (``capture 9S: 9H``, ``b1``, ``LAYOFF 8C->M1``, rule
ids) stays in the CLI, the records and the API.

>>> notation_in("Stavba za 14 z 8♣ a 6♣", "cs")
[]
>>> notation_in("Postavit 8♣ -> 14 (single): 6♣ · Vzít K♦: b1 · bere [13] (M-13)", "cs")
['->', 'b1', '[13]', '(M-13)']
>>> notation_in("trail JS", "ru")
['JS', 'trail']
>>> notation_in("trail the jack", "en")  # English words are English on an English page
[]
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["CHECKS", "covered", "hand_outside", "notation_in", "page_notation", "sideways"]

CHECKS: list[tuple[str, re.Pattern[str], bool]] = [
    # (what, pattern, only on a page that is not in English)
    ("arrow", re.compile(r"->|=>"), False),
    ("id", re.compile(r"(?<![\w])[bBmM]\d{1,2}(?![\w])"), False),
    ("bracketed value", re.compile(r"\[\s*-?\d+\s*\]"), False),
    ("rule id", re.compile(r"\((?:[A-Z]{1,3}-?\d+(?:\.\d+)*)\)"), False),
    ("card code", re.compile(r"(?<![\w])(?:10|[2-9AJQK])[SHDC]'?(?![\w])"), False),
    (
        "engine verb",
        re.compile(
            r"(?<![\w])(?:trail|capture|build|layoff|lay off|meld|discard|draw_stock"
            r"|take_discard|DRAW|TAKE|DISCARD|MELD|LAYOFF|play)s?(?![\w])",
            re.IGNORECASE,
        ),
        True,
    ),
]


def notation_in(text: str, lang: str) -> list[str]:
    """Every piece of ``text`` that looks like notation, in the order the checks run."""
    found: list[str] = []
    for _what, pattern, foreign_only in CHECKS:
        if foreign_only and lang == "en":
            continue
        found.extend(m.group(0) for m in pattern.finditer(text))
    return found


def page_notation(page: Any, lang: str) -> list[str]:
    """The visible lines of ``page`` that hold notation (each line once)."""
    text = str(page.evaluate("() => document.body.innerText"))
    return sorted({line.strip() for line in text.splitlines() if notation_in(line, lang)})


def sideways(page: Any) -> int:
    """How far the page scrolls sideways (0 when it fits its width)."""
    return int(
        page.evaluate("() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth)")
    )


def hand_outside(page: Any) -> list[str]:
    """The cards of the hand that reach outside the viewport's width (their labels)."""
    return list(
        page.evaluate(
            """() => Array.from(document.querySelectorAll('.hand .card')).filter((el) => {
                 const r = el.getBoundingClientRect();
                 return r.left < -0.5 || r.right > window.innerWidth + 0.5;
               }).map((el) => el.getAttribute('aria-label'))"""
        )
    )


def covered(page: Any, selector: str) -> list[str]:
    """The elements of ``selector`` that are cut off at the sides or covered by another
    element (each scrolled into view first): their texts."""
    hidden: list[str] = []
    items = page.locator(selector)
    for i in range(items.count()):
        ok = items.nth(i).evaluate(
            """el => {
              el.scrollIntoView({block: "nearest"});
              const r = el.getBoundingClientRect();
              if (r.width === 0 || r.height === 0) return true;  // empty: nothing to read
              if (r.left < -0.5 || r.right > window.innerWidth + 0.5) return false;
              const x = r.left + Math.min(r.width / 2, 12), y = r.top + r.height / 2;
              const hit = document.elementFromPoint(x, y);
              return !!hit && (hit === el || el.contains(hit));
            }"""
        )
        if not ok:
            hidden.append(items.nth(i).inner_text())
    return hidden
