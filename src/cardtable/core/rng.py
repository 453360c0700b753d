"""Seeded, derivable randomness: the only source of chance in the rules.

A game never touches the module-level :mod:`random`; it asks for a generator derived from
its seed and a label (the hand number, a purpose), so every deal is reproducible and
independent of how many random numbers were drawn elsewhere.

>>> derive_rng(7, "deal", 1).random() == derive_rng(7, "deal", 1).random()
True
>>> derive_rng(7, "deal", 1).random() == derive_rng(7, "deal", 2).random()
False
"""

from __future__ import annotations

import random

__all__ = ["derive_rng", "shuffled_deck"]


def derive_rng(seed: int, *labels: object) -> random.Random:
    """A generator determined by ``seed`` and the labels only (stable across runs)."""
    key = "/".join([str(seed), *(str(label) for label in labels)])
    return random.Random(key)


def shuffled_deck(seed: int, *labels: object, size: int = 52) -> list[int]:
    """The indices ``0..size-1`` in an order fixed by the seed and labels."""
    deck = list(range(size))
    derive_rng(seed, *labels).shuffle(deck)
    return deck
