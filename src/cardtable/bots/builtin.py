"""Registers the built-in bots (imported once, lazily, by :mod:`cardtable.bots.base`)."""

from __future__ import annotations

from cardtable.bots.base import register_bot, register_param_bot
from cardtable.bots.levels import (
    EXPERT_FACTOR,
    HARD_SIMULATIONS,
    GreedyLevelBot,
    ISMCTSBot,
    expert_workers,
    parse_budget,
)
from cardtable.bots.random_bot import RandomBot
from cardtable.bots.royal_casino_greedy import RoyalCasinoGreedyBot
from cardtable.bots.royal_mastheads_greedy import MastheadsGreedyBot
from cardtable.bots.rummy_greedy import RummyGreedyBot
from cardtable.core.registry import AnyGame

register_bot("random", "*", lambda game: RandomBot())
register_bot("greedy", "royal-casino", lambda game: RoyalCasinoGreedyBot())
register_bot("greedy", "royal-mastheads", lambda game: MastheadsGreedyBot())
register_bot("greedy", "rummy", lambda game: RummyGreedyBot())

# -- levels (issue 5): easy / medium / hard / expert for every game with a determinizer ------
SEARCH_GAMES = ("royal-casino", "royal-mastheads", "rummy")


def _ismcts(game: AnyGame, arg: str) -> ISMCTSBot:
    sims, millis = parse_budget(arg)
    return ISMCTSBot(game, sims, millis, name=f"ismcts:{arg}")


for _g in SEARCH_GAMES:
    register_bot("easy", _g, lambda game: GreedyLevelBot(game, "easy", 0.25))
    register_bot("medium", _g, lambda game: GreedyLevelBot(game, "medium", 0.0))
    register_bot(
        "hard", _g, lambda game: ISMCTSBot(game, HARD_SIMULATIONS[game.info.name], name="hard")
    )
    register_bot(
        "expert",
        _g,
        lambda game: ISMCTSBot(
            game,
            HARD_SIMULATIONS[game.info.name] * EXPERT_FACTOR,
            workers=expert_workers(),
            name="expert",
        ),
    )
    register_param_bot("ismcts", _g, _ismcts)
