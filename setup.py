"""Build cardtable, with its hot modules compiled by mypyc when that is possible.

``pip install .`` and ``pip install -e .`` (what ``make play`` and ``make test`` run) compile
the modules listed in ``COMPILED`` to C extensions next to their sources; the pure-Python
sources stay in the package and are what runs wherever no extension was built:

- ``CARDTABLE_PURE=1`` at build time: nothing is compiled (a pure install);
- no C compiler found, or mypyc not importable: a pure install, with a warning;
- ``CARDTABLE_PURE=1`` at run time selects the pure modules of a compiled install (see
  ``cardtable/__init__.py`` and docs/performance.md).

``MYPYC_OPT_LEVEL`` (default 2 here: about as fast as 3 for this code, and quicker to
compile) and ``MYPYC_DEBUG_LEVEL`` (default 0) set the C compiler's ``-O`` and ``-g``.
Each module is its own extension (``separate=True``), so ``setup.py build_ext -j2``
compiles them on both cores.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from setuptools import setup

COMPILED = [
    "src/cardtable/core/rng.py",
    "src/cardtable/games/royal_casino/state.py",
    "src/cardtable/games/royal_casino/rules.py",
    "src/cardtable/games/royal_casino/playout.py",
    "src/cardtable/games/royal_casino/view.py",
    "src/cardtable/games/rummy/melds.py",
    "src/cardtable/games/rummy/rules.py",
    "src/cardtable/games/rummy/playout.py",
    "src/cardtable/games/rummy/view.py",
    "src/cardtable/games/royal_mastheads/state.py",
    "src/cardtable/games/royal_mastheads/rules.py",
    "src/cardtable/games/royal_mastheads/scoring.py",
    "src/cardtable/games/royal_mastheads/playout.py",
    "src/cardtable/games/royal_mastheads/deal_playout.py",
    "src/cardtable/games/royal_mastheads/determinize.py",
    "src/cardtable/games/royal_mastheads/view.py",
    "src/cardtable/bots/ismcts.py",
]
"""The modules compiled: the rules, states, fast playouts, determinization and the ISMCTS
core (what a playout or a search spends its time in; the rest gains little)."""


def _compiler() -> str | None:
    """The C compiler the build would use, if one is installed."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def _extensions() -> list[object]:
    """The mypyc extensions, or none for a pure install."""
    if os.environ.get("CARDTABLE_PURE", "") not in ("", "0"):
        return []
    if _compiler() is None:
        print("cardtable: no C compiler found; installing pure Python", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("cardtable: mypyc is not available; installing pure Python", file=sys.stderr)
        return []
    return list(
        mypycify(
            COMPILED,
            opt_level=os.environ.get("MYPYC_OPT_LEVEL", "2"),
            debug_level=os.environ.get("MYPYC_DEBUG_LEVEL", "0"),
            separate=True,
        )
    )


setup(ext_modules=_extensions())
