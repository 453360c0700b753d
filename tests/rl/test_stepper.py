"""The fast path the environments step through: :class:`Stepper`, the float32
:class:`Features` buffer, the encoders' memos and copies of decisions and information
states (compiled or not, the same numbers as the plain functions)."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core.encoding import (
    ILLEGAL,
    MOVED,
    PENDING,
    Decision,
    Features,
    InfoState,
    Stepper,
    observation,
)
from cardtable.games import REGISTRY
from cardtable.games.rummy import encoding as rummy_encoding

ROOT = Path(__file__).resolve().parents[2]
GAMES = REGISTRY.names()
PLAYERS = {"royal-casino": (2, 3, 4), "rummy": (2, 3), "royal-mastheads": (4,)}


def as_list(features: Features) -> list[float]:
    return features.data.tolist()[: features.pos]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**20), players_index=st.integers(0, 2))
def test_the_stepper_hands_out_the_observations_and_masks_of_the_plain_functions(
    name: str, seed: int, players_index: int
) -> None:
    game = REGISTRY.get(name)
    enc = game.encoding()
    assert enc is not None
    choices = PLAYERS[name]
    players = choices[players_index % len(choices)]
    rng = random.Random(seed)
    play: Stepper[Any] = Stepper(game, enc)
    play.start(game.new_game(players, seed=seed, scope="unit"))
    size = enc.num_distinct_actions
    moves = 0
    while play.seat >= 0 and moves < 150:
        decision = play.decision
        assert decision is not None
        assert play.seat == game.to_act(play.state)
        view = game.view(play.state, play.seat)
        expected = observation(enc, view, decision.prefix)
        # every call hands out a buffer of its own, with the same numbers
        first = play.observation()
        assert as_list(first) == expected
        first.data[0] = 0.25
        assert as_list(play.observation()) == expected
        assert list(play.mask()) == decision.mask(size)
        # an id the mask does not allow changes nothing
        refused = next((i for i in range(size) if not decision.is_legal(i)), None)
        if refused is not None:
            assert play.choose(refused) == ILLEGAL
            assert play.decision is decision
        before = play.state
        legal = decision.legal_ids()
        result = play.choose(legal[rng.randrange(len(legal))])
        if result == PENDING:
            assert play.state is before
        else:
            assert result == MOVED
            assert play.actor >= 0 and play.ids
            moves += 1
    if play.seat < 0:
        assert game.to_act(play.state) is None
        assert play.decision is None
        assert list(play.mask()) == [0] * size
        with pytest.raises(ValueError):
            play.observation()


def test_stop_ends_the_game_for_the_stepper() -> None:
    game = REGISTRY.get("royal-casino")
    enc = game.encoding()
    assert enc is not None
    play: Stepper[Any] = Stepper(game, enc)
    play.start(game.new_game(2, seed=3, scope="unit"))
    assert play.seat >= 0
    play.stop()
    assert play.seat == -1 and play.decision is None
    assert play.choose(0) == ILLEGAL


def test_features_grow_past_their_size_hint_and_copy_apart() -> None:
    f = Features(2)
    f.bits(0b1001, 4)
    f.number(2.0)
    f.number(-0.25)
    f.one_hot(70, 80)
    f.skip(3)
    f.at(-1, -5.0)
    f.ones((1,))
    f.bits(1 << 119 | 1, 130)  # a mask wider than a chunk
    assert f.pos == 4 + 2 + 80 + 3 + 130
    expected = {0: 1.0, 3: 1.0, 4: 1.0, 5: -0.25, 76: 1.0, 88: -1.0, 89: 1.0, 90: 1.0, 208: 1.0}
    assert f.values == expected
    other = f.copy()
    other.data[0] = 0.0
    assert f.values[0] == 1.0 and 0 not in other.values


@pytest.mark.parametrize("name", GAMES)
def test_decisions_and_information_states_survive_copies_and_pickles(name: str) -> None:
    game = REGISTRY.get(name)
    enc = game.encoding()
    assert enc is not None
    rng = random.Random(5)
    players = PLAYERS[name][0]
    state = game.new_game(players, seed=5, scope="unit")
    info: InfoState[Any] = InfoState(enc, players, 0, game.view(state, 0))
    for _ in range(12):
        seat = game.to_act(state)
        if seat is None:
            break
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        ids = enc.action_ids(game.view(state, seat), action)
        state, _ = game.apply(state, action)
        info.record(seat, ids, game.view(state, 0))
    seat = game.to_act(state)
    assert seat is not None
    decision: Decision[Any] = Decision(enc, game.view(state, seat), game.legal_actions(state))
    decision.choose(decision.legal_ids()[0])
    for other in (copy.deepcopy(decision), pickle.loads(pickle.dumps(decision))):
        assert other.prefix == decision.prefix
        assert other.legal_ids() == decision.legal_ids()
    for copied in (copy.deepcopy(info), pickle.loads(pickle.dumps(info))):
        assert copied.tokens == info.tokens
        assert as_list(copied.features()) == as_list(info.features())
        copied.tokens.append((1.0, 1.0, 1.0))
        assert len(copied.tokens) == len(info.tokens) + 1
    assert pickle.loads(pickle.dumps(enc)) is enc


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**20), players=st.integers(2, 4), jokers=st.booleans())
def test_rummy_memos_give_what_a_fresh_encoding_gives(
    seed: int, players: int, jokers: bool
) -> None:
    """The memoised discard piles and tables are keyed by what the views hold: views of
    every seat, in turn and out of turn, encode as with the memos emptied."""
    game = REGISTRY.get("rummy")
    enc = rummy_encoding.ENCODING
    rng = random.Random(seed)
    state = game.new_game(players, {"jokers": jokers}, seed=seed, scope="unit")
    for _ in range(200):
        if game.to_act(state) is None:
            break
        for seat in (*range(players), None):
            view = game.view(state, seat)
            memoised = as_list(enc.observe(view))
            rummy_encoding._LAST_PILES.clear()
            rummy_encoding._LAST_TABLE.clear()
            assert as_list(enc.observe(view)) == memoised
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])


def observations_digest() -> dict[str, str]:
    """A hash of every observation, mask and information state of seeded random games
    through the Stepper, per game (for comparing processes)."""
    out: dict[str, str] = {}
    for name in GAMES:
        game = REGISTRY.get(name)
        enc = game.encoding()
        assert enc is not None
        digest = hashlib.sha256()
        for seed in range(3):
            players = PLAYERS[name][seed % len(PLAYERS[name])]
            rng = random.Random(seed)
            play: Stepper[Any] = Stepper(game, enc)
            play.start(game.new_game(players, seed=seed, scope="unit"))
            info: InfoState[Any] = InfoState(enc, players, 0, game.view(play.state, 0))
            while play.seat >= 0:
                digest.update(play.observation().data.tobytes())
                digest.update(bytes(play.mask()))
                decision = play.decision
                assert decision is not None
                legal = decision.legal_ids()
                if play.choose(legal[rng.randrange(len(legal))]) == MOVED:
                    info.record(play.actor, play.ids, game.view(play.state, 0))
                    digest.update(info.features().data.tobytes())
        out[name] = digest.hexdigest()
    return out


def test_compiled_and_pure_encodings_give_the_same_numbers() -> None:
    """In a compiled install this process runs the compiled encoders; a child told
    ``CARDTABLE_PURE=1`` runs their sources: every number must agree."""
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_PURE"}
    env["CARDTABLE_PURE"] = "1"
    code = (
        "import json; from tests.rl.test_stepper import observations_digest; "
        "print(json.dumps(observations_digest()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == observations_digest()
