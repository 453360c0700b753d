"""Learning environments over the games' research encodings (optional extra ``rl``).

:func:`aec_env` gives a PettingZoo AEC environment (every seat an agent), :func:`gym_env`
a Gymnasium environment (one seat learns, cardtable bots play the others).  Both learn a
game only through the registry and :meth:`cardtable.core.game.Game.encoding`; the action
ids and observation layouts are documented in each game's ``encoding`` module and in
``docs/rl.md``.
"""

from cardtable.rl.aec import CardtableAECEnv, aec_env
from cardtable.rl.common import ILLEGAL_PENALTY, reward_of
from cardtable.rl.single import CardtableGymEnv, gym_env

__all__ = [
    "ILLEGAL_PENALTY",
    "CardtableAECEnv",
    "CardtableGymEnv",
    "aec_env",
    "gym_env",
    "reward_of",
]
