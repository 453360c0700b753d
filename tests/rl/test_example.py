"""The learning example (``examples/train_royal_casino.py``): its gradient step moves the
policy the right way, its bot plays legal moves from views, and a tiny run reports."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import numpy as np

from cardtable.core.encoding import observation
from cardtable.games import REGISTRY
from tests.script_loader import load_script


def load() -> ModuleType:
    return load_script("examples/train_royal_casino.py")


def test_a_won_episode_makes_its_moves_likelier_and_a_lost_one_less_likely() -> None:
    ex = load()
    rng = np.random.default_rng(0)
    x = rng.random((3, 20)).astype(np.float32)
    mask = np.zeros((3, 7), np.float32)
    mask[:, [1, 3, 4]] = 1.0
    for ret, sign in ((1.0, 1), (-1.0, -1)):
        policy = ex.Policy(20, 7, seed=1)
        opt = ex.Adam(policy.params, lr=1e-2)
        before = policy.forward(x, mask)[1][:, 3]
        batch = ex.Batch(list(x), list(mask), [3, 3, 3], [ret] * 3)
        ex.update(policy, opt, batch, entropy=0.0)
        after = policy.forward(x, mask)[1][:, 3]
        assert np.all(np.sign(after - before) == sign)
        # forbidden ids never get probability
        probs = policy.forward(x, mask)[1]
        assert np.all(probs[:, [0, 2, 5, 6]] == 0.0)
        assert np.allclose(probs.sum(axis=1), 1.0)


def test_the_policy_bot_plays_legal_moves_from_views(tmp_path: Path) -> None:
    ex = load()
    game = REGISTRY.get("royal-casino")
    enc = game.encoding()
    assert enc is not None
    state = game.new_game(2, seed=3, scope="unit")
    size = len(observation(enc, game.view(state, 0)))
    policy = ex.Policy(size, enc.num_distinct_actions, seed=2)
    path = tmp_path / "p.npz"
    policy.save(str(path))
    bot = ex.PolicyBot(game, ex.Policy.load(str(path)), "learned")
    rng = random.Random(0)
    while (seat := game.to_act(state)) is not None:
        legal = game.legal_actions(state)
        move = bot.choose(game.view(state, seat), legal, rng)
        assert move in legal
        state, _ = game.apply(state, move)
    assert game.outcome(state) is not None


def test_a_tiny_run_trains_and_measures_against_both_bots() -> None:
    ex = load()
    report = ex.main(["--minutes", "0.02", "--eval-deals", "2", "--seed", "3"])
    assert report["episodes"] > 0 and report["steps"] > report["episodes"]
    for name in ("learned", "untrained"):
        rows = report["arena"][name]
        assert [r["opponent"] for r in rows] == ["random", "greedy"]
        for r in rows:
            assert r["games"] == 4 and r["duplicate_deals"] == 2
            lo, hi = r["ci95"]
            assert 0.0 <= lo <= r["win_rate"] <= hi <= 1.0
