"""The base install carries every library the product imports on its way to start.

``make play`` installs ``cardtable`` without extras and starts the server; a module that
imports a library only an extra brings (``orjson`` once came only with ``[server]``)
breaks it on a fresh machine while the suite, installed with every extra, stays green.
This test reads every module-level import of the package (imports inside functions, the
optional integrations, are left out) and checks that each third-party one is provided by
the base dependencies or what they require in turn.
"""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

import cardtable

PACKAGE = Path(cardtable.__file__).resolve().parent
OPTIONAL = ("rl",)
"""Subpackages that need an extra (``cardtable[rl]``) and say so in their docs."""


def _requirement_name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _base_closure() -> set[str]:
    """The distributions a plain ``pip install cardtable`` brings."""
    seen: set[str] = set()
    todo = [
        r
        for r in metadata.requires("cardtable") or []
        if "extra ==" not in r and "extra==" not in r
    ]
    while todo:
        req = todo.pop()
        marker = req.split(";", 1)[1] if ";" in req else ""
        if "extra" in marker:
            continue
        name = _requirement_name(req)
        if name in seen:
            continue
        seen.add(name)
        extras = re.search(r"\[([^\]]+)\]", req.split(";", 1)[0])
        wanted = {e.strip() for e in extras.group(1).split(",")} if extras else set()
        try:
            reqs = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for sub in reqs:
            sub_marker = sub.split(";", 1)[1] if ";" in sub else ""
            extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", sub_marker)
            if extra is None or extra.group(1) in wanted:
                todo.append(sub.split(";", 1)[0])
    return seen


def _module_level_imports(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_every_module_level_import_comes_with_the_base_install() -> None:
    provided = _base_closure()
    distributions = metadata.packages_distributions()
    missing: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in OPTIONAL:
            continue
        for name in _module_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if name in sys.stdlib_module_names or name in ("cardtable", "__future__"):
                continue
            dists = {d.lower().replace("_", "-") for d in distributions.get(name, [])}
            if not dists & provided:
                missing.setdefault(name, set()).add(rel.as_posix())
    assert not missing, f"imported at module level but not in the base dependencies: {missing}"


def test_the_check_sees_a_library_that_only_an_extra_brings() -> None:
    """The check can fail: numpy comes only with the ``rl`` extra."""
    provided = _base_closure()
    assert "numpy" not in provided and "click" in provided and "starlette" in provided
