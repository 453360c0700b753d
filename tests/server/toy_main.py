"""``cardtable`` with the toy game of the CLI tests registered: the server test of a game
that lives in one module and is added to the registry, nothing else.

Run as ``python -m tests.server.toy_main serve --port N``.
"""

from __future__ import annotations

from cardtable.cli.main import main
from cardtable.games import REGISTRY
from tests.cli.toy import GAME as TOY

if __name__ == "__main__":
    REGISTRY.register(TOY)
    main()
