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
The modules are compiled in four extensions (one per game, one for the rest), built in
parallel on every core.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig

from setuptools import setup

COMPILED = [
    "src/cardtable/core/rng.py",
    "src/cardtable/games/royal_casino/state.py",
    "src/cardtable/games/royal_casino/moves.py",
    "src/cardtable/games/royal_casino/engine.py",
    "src/cardtable/games/royal_casino/rules.py",
    "src/cardtable/games/royal_casino/playout.py",
    "src/cardtable/games/royal_casino/scoring.py",
    "src/cardtable/games/royal_casino/determinize.py",
    "src/cardtable/games/royal_casino/view.py",
    # Royal Casino's endgame solver (exact final deals, sampled worlds before them)
    "src/cardtable/games/royal_casino/endgame.py",
    "src/cardtable/games/rummy/state.py",
    "src/cardtable/games/rummy/melds.py",
    "src/cardtable/games/rummy/plays.py",
    "src/cardtable/games/rummy/natural.py",
    "src/cardtable/games/rummy/board.py",
    "src/cardtable/games/rummy/rules.py",
    "src/cardtable/games/rummy/playout.py",
    "src/cardtable/games/rummy/determinize.py",
    "src/cardtable/games/rummy/view.py",
    "src/cardtable/games/royal_mastheads/state.py",
    "src/cardtable/games/royal_mastheads/rules.py",
    "src/cardtable/games/royal_mastheads/scoring.py",
    "src/cardtable/games/royal_mastheads/engine.py",
    "src/cardtable/games/royal_mastheads/deal_playout.py",
    "src/cardtable/games/royal_mastheads/determinize.py",
    "src/cardtable/games/royal_mastheads/view.py",
    "src/cardtable/bots/ismcts.py",
    # The research encodings: what a learning environment spends its steps in (rl/).
    "src/cardtable/core/encoding.py",
    "src/cardtable/games/royal_casino/encoding.py",
    "src/cardtable/games/rummy/encoding.py",
    "src/cardtable/games/royal_mastheads/encoding.py",
]
"""The modules compiled: the rules, states, fast playouts, determinization and the ISMCTS
core (what a playout or a search spends its time in; the rest gains little)."""


_EXT = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def _compiler() -> str | None:
    """The C compiler the build would use, if it and Python's C headers are installed."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    headers = os.path.join(sysconfig.get_paths()["include"], "Python.h")
    return shutil.which(cc.split()[0]) if os.path.exists(headers) else None


def _record(compiled: list[str]) -> None:
    """Write the hash of each compiled source to ``cardtable/_compiled.json``, so that a
    process can tell a source edited since (cardtable/__init__.py).  For a pure build,
    remove the record and any compiled module an earlier build left next to the sources
    (an editable install is then pure throughout)."""
    record = os.path.join("src", "cardtable", "_compiled.json")
    if not compiled:
        if os.path.exists(record):
            os.remove(record)
        stems = [path[: -len(".py")] for path in COMPILED]
        stems += [f"src/cardtable/_{name}__mypyc" for name in _GROUP_NAMES]
        for stem in stems:
            for built in (stem + _EXT, stem + "__mypyc" + _EXT):
                if os.path.exists(built):
                    os.remove(built)
        return
    hashes = {}
    for path in compiled:
        with open(path, "rb") as f:
            hashes[os.path.relpath(path, "src/cardtable")] = hashlib.sha256(f.read()).hexdigest()
    with open(record, "w", encoding="utf-8") as f:
        json.dump(hashes, f, indent=1, sort_keys=True)


_BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
"""The setup.py commands that build extensions.  pip also runs setup.py to read the
metadata (``egg_info``, ``dist_info``); compiling is skipped then, as mypyc would type-check
and translate every module each time for nothing."""


def _extensions() -> list[object]:
    """The mypyc extensions, or none for a pure install."""
    if not _BUILDS.intersection(sys.argv[1:]):
        return []
    extensions = _mypyc_extensions()
    _record(COMPILED if extensions else [])
    return extensions


def _mypyc_extensions() -> list[object]:
    """The mypyc extensions, or none when compiling is off or impossible."""
    if os.environ.get("CARDTABLE_PURE", "") not in ("", "0"):
        return []
    if _compiler() is None:
        print(
            "cardtable: no C compiler or no Python headers found; installing pure Python",
            file=sys.stderr,
        )
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
            separate=_groups(),
        )
    )


_GROUP_NAMES = ("core", "royal_casino", "rummy", "royal_mastheads")


def _groups() -> list[tuple[list[str], str | None]]:
    """The compiled modules in one extension per game and one for the rest.  Each extension
    carries its own copy of mypyc's runtime (about 1.5 s of gcc): one per module (24)
    doubled the build's CPU time, and one for all would leave a core idle."""
    groups: dict[str, list[str]] = {}
    for path in COMPILED:
        parts = path.split("/")
        name = parts[3] if parts[2] == "games" else "core"
        groups.setdefault(name, []).append(path)
    return [(paths, f"cardtable._{name}") for name, paths in groups.items()]


setup(
    ext_modules=_extensions(),
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
