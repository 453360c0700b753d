"""Registers the built-in bots (imported by the package :mod:`cardtable.bots`).

Every bot here plays every game through its kit: ``random``; ``greedy`` for the games
whose kit has a greedy policy; the levels ``easy`` and ``medium`` (the greedy policy, or
random moves without one), ``hard``, ``expert`` and ``ismcts:N`` (search, which every game
supports: each can deal a state from a view and has a search profile, generic by default).
"""

from __future__ import annotations

from cardtable.bots.base import Bot, register_bot, register_param_bot
from cardtable.bots.levels import (
    EXPERT_FACTOR,
    EXPERT_SECONDS,
    HARD_SECONDS,
    GreedyLevelBot,
    ISMCTSBot,
    expert_simulations,
    expert_workers,
    hard_nodes,
    hard_simulations,
    parse_budget,
)
from cardtable.bots.random_bot import RandomBot
from cardtable.core.errors import InvalidOptionError
from cardtable.core.registry import AnyGame

__all__: list[str] = []


def _has_greedy(game: AnyGame) -> bool:
    return game.greedy_policy() is not None


def _greedy(game: AnyGame) -> Bot:
    policy = game.greedy_policy()
    if policy is None:
        raise InvalidOptionError(f"{game.info.title} has no greedy bot")
    return policy


def _ismcts(game: AnyGame, arg: str) -> ISMCTSBot:
    sims, millis = parse_budget(arg)
    return ISMCTSBot(game, sims, millis, name=f"ismcts:{arg}")


def _hard(game: AnyGame) -> ISMCTSBot:
    return ISMCTSBot(
        game,
        hard_simulations(game),
        name="hard",
        solver_nodes=hard_nodes(game),
        cap_seconds=HARD_SECONDS,
    )


def _expert(game: AnyGame) -> ISMCTSBot:
    solver = game.search_profile().solver
    return ISMCTSBot(
        game,
        expert_simulations(game),
        workers=expert_workers(),
        name="expert",
        solver_nodes=hard_nodes(game) * EXPERT_FACTOR,
        worlds=solver.worlds * EXPERT_FACTOR if solver is not None else 0,
        cap_seconds=EXPERT_SECONDS,
        expert_profile=True,
    )


register_bot("random", "*", lambda game: RandomBot())
register_bot("greedy", "*", _greedy, supports=_has_greedy)
register_bot("easy", "*", lambda game: GreedyLevelBot(game, "easy", 0.25))
register_bot("medium", "*", lambda game: GreedyLevelBot(game, "medium", 0.0))
register_bot("hard", "*", _hard)
register_bot("expert", "*", _expert)
register_param_bot("ismcts", "*", _ismcts)
