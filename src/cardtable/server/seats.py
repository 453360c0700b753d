"""Who sits where at a live table: the server's metadata stored beside the game record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.bots.base import available_bots
from cardtable.core.registry import AnyGame

__all__ = ["Meta", "Seat", "fallback_level", "levels"]

LEVEL_ORDER = ("easy", "medium", "hard", "expert")
"""The bot levels people choose from, weakest first."""


@dataclass(slots=True)
class Seat:
    """Who sits in a seat: ``human`` (with its owner's player id once taken) or ``bot``."""

    kind: str
    name: str
    owner: str | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The seat as stored in the table's metadata."""
        return {"kind": self.kind, "name": self.name, "owner": self.owner, "level": self.level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """Read :meth:`to_json`."""
        return cls(data["kind"], data["name"], data.get("owner"), data.get("level"))


@dataclass(slots=True)
class Meta:
    """The server's part of a table: seats, timer, hints, and when owners were last seen.

    ``daily`` marks a deal of the daily challenge (``{game, day, deal, deals}``: only its
    player may watch it while the day lasts); ``next`` is the table that follows this one
    (a rematch), where its clients move.
    """

    seats: list[Seat]
    timer: float | None = None
    hints: bool = True
    unit: bool = False
    gone_since: dict[int, float] = field(default_factory=dict)
    daily: dict[str, Any] | None = None
    next: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The metadata as stored (``gone_since`` is this process's knowledge only)."""
        return {
            "seats": [s.to_json() for s in self.seats],
            "timer": self.timer,
            "hints": self.hints,
            "unit": self.unit,
            "daily": self.daily,
            "next": self.next,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meta:
        """Read :meth:`to_json`."""
        return cls(
            [Seat.from_json(s) for s in data["seats"]],
            data.get("timer"),
            bool(data.get("hints", True)),
            bool(data.get("unit", False)),
            daily=data.get("daily"),
            next=data.get("next"),
        )


def levels(game: AnyGame) -> list[str]:
    """The bots that can sit at ``game``: the levels weakest first, then the others."""
    names = available_bots(game)
    return [n for n in LEVEL_ORDER if n in names] + [n for n in names if n not in LEVEL_ORDER]


def fallback_level(game: AnyGame) -> str:
    """The bot that takes over a seat: ``medium`` when it exists, else greedy or random."""
    names = available_bots(game)
    for level in ("medium", "greedy", "random"):
        if level in names:
            return level
    return names[0]
