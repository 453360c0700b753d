"""Player names, normalized in one place for every way a name comes in.

The lobby form and ``POST /api/tables`` (through :mod:`cardtable.server.forms`), the
websocket's ``sit`` and the storing of a player (:meth:`~cardtable.server.hub.Hub.save_player`)
all call :func:`normalize_name`.  A name is Unicode NFC, trimmed, with inner runs of white
space written as one space, 1 to :data:`MAX_NAME` characters, and holds no control
characters: no C0/C1 controls (NUL, newline, tab…), no line or paragraph separators, no lone
surrogates (which JSON can carry but no database stores) and no invisible format characters
(bidirectional overrides, soft hyphens…) except the zero-width joiners some scripts and emoji
need.  Anything else is refused with :class:`InvalidName`, whose ``message`` is a catalog id,
and nothing is stored.

>>> normalize_name("  Jiří   Novák ")
'Jiří Novák'
>>> normalize_name("Jir\\u030ci\\u0301") == "Jiří"  # decomposed accents are composed (NFC)
True
>>> for raw in ["Eve\\x00", "a\\nb", "", "x" * 41, None]:
...     try:
...         normalize_name(raw)
...     except InvalidName as e:
...         print(e.message)
A name may not contain control characters
A name may not contain control characters
Enter your name
Enter at most {num} character
Enter your name
"""

from __future__ import annotations

import unicodedata

from cardtable.core.errors import CardtableError

__all__ = ["MAX_NAME", "InvalidName", "normalize_name"]

MAX_NAME = 40
"""The longest player name, in characters (code points, after NFC)."""

_REFUSED = frozenset({"Cc", "Cs", "Zl", "Zp", "Cf"})
"""Unicode categories a name may not contain (but see :data:`_JOINERS`)."""
_JOINERS = frozenset({"\u200c", "\u200d"})
"""Zero-width non-joiner and joiner: format characters that scripts and emoji need."""


class InvalidName(CardtableError, ValueError):
    """A name refused: ``message`` is a catalog id (``plural`` its plural id, if any) with
    its ``params``; ``str()`` is the English reason."""

    def __init__(
        self, message: str, params: dict[str, object] | None = None, plural: str | None = None
    ) -> None:
        self.message = message
        self.params = dict(params or {})
        self.plural = plural
        super().__init__((plural or message).format(**self.params))


def normalize_name(raw: object) -> str:
    """The stored form of a player name, or :class:`InvalidName` (see the module)."""
    if not isinstance(raw, str):
        raise InvalidName("Enter your name")
    text = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(ch) in _REFUSED and ch not in _JOINERS for ch in text):
        raise InvalidName("A name may not contain control characters")
    name = " ".join(text.split())
    if not name:
        raise InvalidName("Enter your name")
    if len(name) > MAX_NAME:
        raise InvalidName(
            "Enter at most {num} character",
            {"num": MAX_NAME},
            plural="Enter at most {num} characters",
        )
    return name
