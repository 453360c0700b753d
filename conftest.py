"""pytest set-up for the whole tree (tests/ and the doctests in src/).

In a compiled installation (see setup.py) a hot module's doctests are collected from its
source file, but importing the module loads the compiled extension next to it.  Both are
the same module, so pytest's check that a collected file imports as itself is relaxed
(``PY_IGNORE_IMPORTMISMATCH``); the doctests then run against the compiled code.
"""

import os

os.environ.setdefault("PY_IGNORE_IMPORTMISMATCH", "1")
