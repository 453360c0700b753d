"""cardtable: Royal Casino, Czech Rummy and Royal Mastheads, with bots and a CLI.

The layers, from the bottom: :mod:`cardtable.cards`, :mod:`cardtable.core` (the game
contract), :mod:`cardtable.games` (pure rules), :mod:`cardtable.bots`,
:mod:`cardtable.tables` and :mod:`cardtable.cli`.

An installation built with a C compiler has the hot modules (rules, states, playouts,
determinization, the search) compiled by mypyc as well, next to their sources; Python
imports the compiled ones.  ``CARDTABLE_PURE=1`` in the environment when cardtable is first
imported makes this process import every module from its Python source instead (the same
games for the same seeds; see docs/performance.md).  :func:`compiled_modules` says which
modules of this process are compiled.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, ModuleSpec
from importlib.machinery import SourceFileLoader as _SourceFileLoader
from types import ModuleType
from typing import Any

__version__ = "0.1.0"

PURE = os.environ.get("CARDTABLE_PURE", "") not in ("", "0")
"""True when ``CARDTABLE_PURE`` asked for the pure-Python modules in this process."""


class _SourceFinder:
    """Finds cardtable's modules in their ``.py`` sources only (never a compiled module)."""

    @classmethod
    def find_spec(
        cls, name: str, path: Any = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of a cardtable module's source file, or None for any other module."""
        if not name.startswith("cardtable.") or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (_SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None:
                return spec
        return None


if PURE and _SourceFinder not in sys.meta_path:
    sys.meta_path.insert(0, _SourceFinder)


def compiled_modules() -> list[str]:
    """The names of the cardtable modules imported so far that are compiled extensions.

    >>> import cardtable.games
    >>> PURE <= (compiled_modules() == [])
    True
    """
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("cardtable.")
        and not name.endswith("__mypyc")
        and str(getattr(module, "__file__", "") or "").endswith(tuple(EXTENSION_SUFFIXES))
    )
