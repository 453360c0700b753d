"""Train a small masked policy on Royal Casino, then measure it in the arena.

The learner is a one-hidden-layer network in plain numpy (no deep-learning library): the
observation of :func:`cardtable.rl.gym_env` goes through 64 ReLU units to one logit per
action id; ids the mask forbids get no probability.  It is trained by REINFORCE with a
learned value baseline (the policy-gradient method with the fewest moving parts) on
whole hands against the ``random`` and ``greedy`` bots, half the episodes each, from both
seats.  The reward is the environment's: +1 for winning the hand, -1 for losing it, 0 for a
tie, nothing before the end.

Then the trained policy becomes a bot — a function of the seat's *view*, like every
cardtable bot: it walks the move's id sequence (:class:`cardtable.core.encoding.Decision`)
taking the most probable id at each step — and plays the arena against ``random`` and
against ``greedy``: duplicate deals (each deal played from both seats), win rates with
Wilson 95% intervals.

Run it (the lead's ten-minute measurement)::

    python examples/train_royal_casino.py --minutes 10 --eval-deals 500 --workers 2 \\
        --out casino-policy.npz

It prints a JSON report: the training (episodes, steps, the mean reward of the last
episodes against each bot) and the arena results of the trained policy and, for reference,
of the untrained one.  Training runs in one process; ``--workers 2`` plays the arena in two.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.arena.core import ArenaConfig, plan, run_local
from cardtable.arena.stats import summarise
from cardtable.bots import register_bot
from cardtable.core.encoding import Decision, observation
from cardtable.core.registry import AnyGame
from cardtable.rl import gym_env

GAME = "royal-casino"
HIDDEN = 64
Array = npt.NDArray[np.float32]


class Policy:
    """The network: observation -> 64 ReLU units -> one logit per id, and a value."""

    def __init__(self, inputs: int, actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        f32 = np.float32
        self.params: dict[str, Array] = {
            "w1": rng.normal(0.0, (2.0 / inputs) ** 0.5, (inputs, HIDDEN)).astype(f32),
            "b1": np.zeros(HIDDEN, f32),
            "w2": rng.normal(0.0, 0.01, (HIDDEN, actions)).astype(f32),
            "b2": np.zeros(actions, f32),
            "wv": np.zeros(HIDDEN, f32),
            "bv": np.zeros(1, f32),
        }

    def forward(self, x: Array, mask: Array) -> tuple[Array, Array, Array]:
        """Hidden units, masked action probabilities and values of a batch of rows."""
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        logits = h @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, np.float32(-1e9))
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits) * (mask > 0)
        probs = e / e.sum(axis=-1, keepdims=True)
        values = h @ p["wv"] + p["bv"][0]
        return h, probs, values

    def save(self, path: str) -> None:
        """Write the parameters to an ``.npz`` file."""
        with open(path, "wb") as f:
            np.savez(
                f,
                w1=self.params["w1"],
                b1=self.params["b1"],
                w2=self.params["w2"],
                b2=self.params["b2"],
                wv=self.params["wv"],
                bv=self.params["bv"],
            )

    @classmethod
    def load(cls, path: str) -> Policy:
        """Read parameters written by :meth:`save`."""
        data = np.load(path)
        w1, w2 = data["w1"], data["w2"]
        policy = cls(w1.shape[0], w2.shape[1], 0)
        policy.params = {k: np.asarray(data[k], np.float32) for k in policy.params}
        return policy


class Adam:
    """The Adam optimiser over a policy's parameters."""

    def __init__(self, params: dict[str, Array], lr: float) -> None:
        self.lr = lr
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        """Move the parameters down the gradients."""
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m = self.m[k] / (1 - 0.9**self.t)
            v = self.v[k] / (1 - 0.999**self.t)
            params[k] -= self.lr * m / (np.sqrt(v) + 1e-8)


@dataclass
class Batch:
    """The steps of some episodes: observations, masks, chosen ids and returns."""

    xs: list[Array]
    masks: list[Array]
    actions: list[int]
    returns: list[float]


def update(policy: Policy, opt: Adam, batch: Batch, entropy: float) -> None:
    """One REINFORCE step with a value baseline over a batch of whole episodes."""
    x = np.asarray(batch.xs)
    mask = np.asarray(batch.masks)
    a = np.asarray(batch.actions)
    g = np.asarray(batch.returns, dtype=np.float32)
    n = len(a)
    h, probs, values = policy.forward(x, mask)
    adv = g - values
    # d(-log pi(a) * adv - entropy * H) / d logits, per row
    dlogits = probs.copy()
    dlogits[np.arange(n), a] -= 1.0
    dlogits *= adv[:, None]
    logp = np.log(np.where(mask > 0, np.maximum(probs, 1e-30), 1.0))
    ent = -(probs * logp).sum(axis=1, keepdims=True)
    dlogits += entropy * probs * (logp + ent)
    dlogits /= n
    dvalues = (values - g) / n  # value loss 0.5 * (v - g)^2
    p = policy.params
    grads = {
        "w2": h.T @ dlogits,
        "b2": dlogits.sum(axis=0),
        "wv": h.T @ dvalues,
        "bv": np.array([dvalues.sum()], np.float32),
    }
    dh = (dlogits @ p["w2"].T + dvalues[:, None] * p["wv"][None, :]) * (h > 0)
    grads["w1"] = x.T @ dh
    grads["b1"] = dh.sum(axis=0)
    opt.step(p, grads)


def train(
    seconds: float, seed: int, batch_episodes: int = 16, lr: float = 1e-3
) -> tuple[Policy, dict[str, Any]]:
    """Train for about ``seconds`` of wall time; the policy and a training report."""
    envs = {
        (bot, seat): gym_env(GAME, seat=seat, opponents=bot)
        for bot in ("random", "greedy")
        for seat in (0, 1)
    }
    some = envs[("random", 0)]
    assert some.observation_space.shape is not None
    policy = Policy(some.observation_space.shape[0], some.encoding.num_distinct_actions, seed)
    opt = Adam(policy.params, lr)
    rng = np.random.default_rng(seed)
    recent: dict[str, list[float]] = {"random": [], "greedy": []}
    episodes = steps = 0
    batch = Batch([], [], [], [])
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        bot = ("random", "greedy")[episodes % 2]
        env = envs[(bot, (episodes // 2) % 2)]
        obs, info = env.reset(seed=seed * 1_000_003 + episodes)
        xs: list[Array] = []
        done = False
        reward = 0.0
        while not done:
            mask = info["action_mask"].astype(np.float32)
            x = obs
            _, probs, _ = policy.forward(x[None, :], mask[None, :])
            p = probs[0].astype(np.float64)
            a = int(rng.choice(len(mask), p=p / p.sum()))
            xs.append(x)
            batch.masks.append(mask)
            batch.actions.append(a)
            obs, reward, done, _, info = env.step(a)
            steps += 1
        batch.xs += xs
        batch.returns += [float(reward)] * len(xs)
        recent[bot] = [*recent[bot][-499:], float(reward)]
        episodes += 1
        if episodes % batch_episodes == 0:
            update(policy, opt, batch, entropy=0.01)
            batch = Batch([], [], [], [])
    report = {
        "seconds": round(time.monotonic() - start, 1),
        "episodes": episodes,
        "steps": steps,
        "mean_reward_last_500": {k: round(float(np.mean(v)), 3) for k, v in recent.items() if v},
    }
    return policy, report


class PolicyBot:
    """The trained policy as a cardtable bot: a function of the view and the legal moves."""

    def __init__(self, game: AnyGame, policy: Policy, name: str) -> None:
        enc = game.encoding()
        assert enc is not None
        self.enc = enc
        self.policy = policy
        self.name = name

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """The move whose ids are, one by one, the most probable legal ids."""
        enc = self.enc
        decision: Decision[Any] = Decision(enc, view, legal)
        size = enc.num_distinct_actions
        while True:
            x = np.asarray(observation(enc, view, decision.prefix), dtype=np.float32)
            mask = np.asarray(decision.mask(size), dtype=np.float32)
            _, probs, _ = self.policy.forward(x[None, :], mask[None, :])
            move = decision.choose(int(np.argmax(probs[0])))
            if move is not None:
                return move


def arena(bot: str, opponent: str, deals: int, seed: int, workers: int) -> dict[str, Any]:
    """The arena's summary of ``bot`` against ``opponent`` over duplicate deals."""
    cfg = ArenaConfig(GAME, (bot, opponent), deals=deals, seed=seed)
    summary = summarise(cfg, run_local(plan(cfg), workers=workers))
    me = summary.entrants[0]
    return {
        "opponent": opponent,
        "games": me.games,
        "win_rate": round(me.win_rate, 3),
        "ci95": list(me.ci95),
        "mean_points": round(me.mean_points, 2),
        "opponent_mean_points": round(summary.entrants[1].mean_points, 2),
        "duplicate_deals": me.matches,
        "duplicate_win_rate": round(me.match_win_rate, 3),
        "duplicate_ci95": list(me.match_ci95),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, save, measure; print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training time")
    parser.add_argument("--eval-deals", type=int, default=500, help="arena deals per opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="arena processes")
    parser.add_argument("--out", default="", help="save the trained parameters (.npz)")
    args = parser.parse_args(argv)
    policy, report = train(args.minutes * 60, args.seed)
    if args.out:
        policy.save(args.out)
    untrained = Policy(policy.params["w1"].shape[0], policy.params["w2"].shape[1], args.seed)
    register_bot("learned", GAME, lambda g: PolicyBot(g, policy, "learned"))
    register_bot("untrained", GAME, lambda g: PolicyBot(g, untrained, "untrained"))
    eval_seed = 10_000 + args.seed  # arena deals, seeded apart from the training episodes
    report["arena"] = {
        name: [
            arena(name, opp, args.eval_deals, eval_seed, args.workers)
            for opp in ("random", "greedy")
        ]
        for name in ("learned", "untrained")
    }
    report["command"] = " ".join(["python examples/train_royal_casino.py", *(argv or sys.argv[1:])])
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
