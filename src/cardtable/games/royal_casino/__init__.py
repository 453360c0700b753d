"""Royal Casino, the Dominican fishing game (rules: shared/rules/royal-casino.md)."""

from cardtable.games.royal_casino.game import GAME, RoyalCasino
from cardtable.games.royal_casino.state import Build, Kind, Move, RCState

__all__ = ["GAME", "Build", "Kind", "Move", "RCState", "RoyalCasino"]
