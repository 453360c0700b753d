"""Load a script of ``scripts/`` or ``examples/`` as a module, for the tests of its parts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
"""The repository's root."""


def load_script(relative: str) -> ModuleType:
    """The module of the script at ``relative`` (to the repository's root), executed once
    per call and registered in ``sys.modules`` under its file's stem (a script's
    dataclasses look their module up there)."""
    path = ROOT / relative
    # As when run, the script's own folder is on the path (a script may import its siblings).
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
