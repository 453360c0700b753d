"""The uniformly random bot, for every game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

__all__ = ["RandomBot"]


class RandomBot:
    """Picks a legal action uniformly at random.

    >>> RandomBot().choose(None, ["a", "b", "c"], random.Random(1))
    'a'
    """

    name = "random"

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """A uniformly random legal action."""
        return legal[rng.randrange(len(legal))]
