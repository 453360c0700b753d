"""Seeded, derivable randomness: the only source of chance in the rules.

A game never touches the module-level :mod:`random`; it asks for a generator derived from
its seed and a label (the hand number, a purpose), so every deal is reproducible and
independent of how many random numbers were drawn elsewhere.

>>> derive_rng(7, "deal", 1).random() == derive_rng(7, "deal", 1).random()
True
>>> derive_rng(7, "deal", 1).random() == derive_rng(7, "deal", 2).random()
False

:func:`shuffle` and :func:`randbelow` draw exactly the numbers ``rng.shuffle`` and
``rng.randrange`` draw, and give the same results, but as one compiled loop (this module
is compiled in a compiled installation; see docs/performance.md):

>>> deck, same = list(range(52)), list(range(52))
>>> shuffle(derive_rng(3, "deal"), deck); derive_rng(3, "deal").shuffle(same)
>>> deck == same, randbelow(derive_rng(4), 52) == derive_rng(4).randrange(52)
(True, True)
"""

from __future__ import annotations

import random
from typing import Any, Final

__all__ = ["derive_rng", "randbelow", "shuffle", "shuffled_deck"]

_EXACT: Final = getattr(random.Random, "_randbelow", None) is getattr(
    random.Random, "_randbelow_with_getrandbits", 0
)
"""True where ``random.Random`` draws below ``n`` as :func:`randbelow` does (CPython)."""


def derive_rng(seed: int, *labels: object) -> random.Random:
    """A generator determined by ``seed`` and the labels only (stable across runs)."""
    key = "/".join([str(seed), *[str(label) for label in labels]])
    return random.Random(key)


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (``n`` ≥ 1): the same number from the same generator state."""
    if not _EXACT or type(rng) is not random.Random:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r: int = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: the same order from the same generator state."""
    if not _EXACT or type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    i = len(items) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1


def shuffled_deck(seed: int, *labels: object, size: int = 52) -> list[int]:
    """The indices ``0..size-1`` in an order fixed by the seed and labels."""
    deck = list(range(size))
    shuffle(derive_rng(seed, *labels), deck)
    return deck
