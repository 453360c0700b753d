"""cardtable: Royal Casino, Czech Rummy and Royal Mastheads, with bots and a CLI.

The layers, from the bottom: :mod:`cardtable.cards`, :mod:`cardtable.core` (the game
contract), :mod:`cardtable.games` (pure rules), :mod:`cardtable.bots`,
:mod:`cardtable.tables` and :mod:`cardtable.cli`.

An installation built with a C compiler has the hot modules (rules, states, playouts,
determinization, the search) compiled by mypyc as well, next to their sources; Python
imports the compiled ones.  This process imports every module from its Python source
instead (the same games for the same seeds; see docs/performance.md) when

- ``CARDTABLE_PURE=1`` is in the environment when cardtable is first imported, or
- the source of a compiled module changed since it was compiled (an edited checkout not
  rebuilt yet: ``make build`` rebuilds); a warning says so.  Compiled and pure modules are
  never mixed.

:data:`PURE` says which applies, and :func:`compiled_modules` lists the compiled modules
imported so far.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, ModuleSpec
from importlib.machinery import SourceFileLoader as _SourceFileLoader
from types import ModuleType
from typing import Any

__version__ = "0.1.0"


BUILD_RECORD = "_compiled.json"
"""The file (next to this one) where a compiled build records the hash of each source it
compiled (written by setup.py)."""


def _stale_extensions() -> list[str]:
    """The compiled modules whose sources changed since they were compiled."""
    root = os.path.dirname(__file__)
    try:
        with open(os.path.join(root, BUILD_RECORD), encoding="utf-8") as f:
            built: dict[str, str] = json.load(f)
    except (OSError, ValueError):
        return []
    stale = []
    for path, digest in built.items():
        try:
            with open(os.path.join(root, path), "rb") as f:
                if hashlib.sha256(f.read()).hexdigest() != digest:
                    stale.append(path)
        except OSError:
            stale.append(path)
    return stale


PURE = os.environ.get("CARDTABLE_PURE", "") not in ("", "0")
"""True when this process imports cardtable's modules from their Python sources only."""
if not PURE:
    _STALE = _stale_extensions()
    if _STALE:
        PURE = True
        warnings.warn(
            f"cardtable: {', '.join(sorted(_STALE))} changed since it was compiled; "
            "running every module from source (rebuild with `make build`)",
            RuntimeWarning,
            stacklevel=2,
        )


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
