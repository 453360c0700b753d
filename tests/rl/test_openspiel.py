"""OpenSpiel: the games pass OpenSpiel's own random-simulation test (with serialization),
and the observers honour ``IIGObservationType``."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from cardtable.core.encoding import infostate_size, observation, observation_size
from cardtable.games import REGISTRY
from cardtable.rl.openspiel import register_openspiel, short_name

NAMES = register_openspiel()
SIMS = {"cardtable_royal_casino": 4, "cardtable_rummy": 2, "cardtable_royal_mastheads": 4}


def test_register_openspiel_names_the_three_games() -> None:
    assert sorted(NAMES) == sorted(SIMS)
    assert set(NAMES) <= {g.short_name for g in pyspiel.registered_games()}
    assert register_openspiel() == NAMES  # again is harmless


@pytest.mark.parametrize("name", sorted(SIMS))
def test_random_sim_test_with_serialization(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=SIMS[name], serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("cardtable_royal_casino", {"players": 4}),
        ("cardtable_royal_casino", {"players": 3, "options": "sweeps:OFF;direction:CW"}),
        ("cardtable_rummy", {"players": 3, "options": "jokers:true;jokerSwap:true"}),
    ],
)
def test_random_sim_test_other_tables(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    assert game.num_players() == params["players"]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_bad_parameters_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("cardtable_royal_mastheads", {"players": 3})
    with pytest.raises(ValueError, match="name:value"):
        pyspiel.load_game("cardtable_rummy", {"options": "jokers"})


def play_to(game: pyspiel.Game, seed: int, steps: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    state.apply_action(seed % game.max_chance_outcomes())
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", sorted(SIMS))
def test_the_deal_is_the_only_chance_node_and_uniform(name: str) -> None:
    game = pyspiel.load_game(name, {"deal_seeds": 8})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, 1 / 8) for i in range(8)]
    state.apply_action(5)
    rng = random.Random(1)
    while not state.is_terminal():
        assert not state.is_chance_node()
        state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert set(returns) <= {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("name", sorted(SIMS))
def test_tensors_are_the_encodings_observation_and_information_state(name: str) -> None:
    game = pyspiel.load_game(name)
    ours = REGISTRY.get(name.removeprefix("cardtable_").replace("_", "-"))
    enc = ours.encoding()
    assert enc is not None
    n = game.num_players()
    assert game.observation_tensor_size() == observation_size(enc, n)
    assert game.information_state_tensor_size() == infostate_size(enc, n)
    state = play_to(game, 3, 25)
    player = state.current_player()
    view = ours.view(state.cardtable_state, player)
    expected = np.asarray(observation(enc, view, state.pending()), np.float32)
    assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), expected)
    info = np.asarray(state.information_state_tensor(player), np.float32)
    assert info.shape == (infostate_size(enc, n),)
    assert np.array_equal(info[: len(expected)], expected)
    assert info[len(expected) :].any()  # the history is there
    assert state.information_state_string(player) != state.information_state_string(
        (player + 1) % n
    )


@pytest.mark.parametrize("name", sorted(SIMS))
def test_observers_honour_the_observation_type(name: str) -> None:
    game = pyspiel.load_game(name)
    n = game.num_players()
    state = play_to(game, 7, 30)
    player = state.current_player()
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    public_recall = pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    for iig in (public, public_recall):
        observer = game.make_py_observer(iig)
        tensors, strings = [], []
        for p in range(n):
            observer.set_from(state, p)
            tensors.append(observer.tensor.copy())
            strings.append(observer.string_from(state, p))
        # public information is the same for every player, and it is not empty
        assert all(np.array_equal(t, tensors[0]) for t in tensors)
        assert len(set(strings)) == 1 and tensors[0].any()
        assert not observer.dict["pending"].any()
    private = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    private.set_from(state, player)
    observer = game.make_py_observer(public)
    observer.set_from(state, player)
    assert not np.array_equal(private.tensor, observer.tensor)
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    recall.set_from(state, player)
    assert set(recall.dict) == {"observation", "pending", "history"}
    assert recall.dict["history"].shape[1] == 3
    assert np.shares_memory(recall.dict["history"], recall.tensor)
    assert "history:" in recall.string_from(state, player)
    before = game.new_initial_state()
    recall.set_from(before, 0)
    assert not recall.tensor.any() and recall.string_from(before, 0) == "deal pending"


def test_unsupported_observation_types_raise() -> None:
    game = pyspiel.load_game("cardtable_rummy")
    with pytest.raises(ValueError, match="public information"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=False,
                private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
            )
        )
    with pytest.raises(ValueError, match="every player"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=True,
                private_info=pyspiel.PrivateInfoType.ALL_PLAYERS,
            )
        )


def test_secret_pot_cards_are_hidden_tokens_for_the_others() -> None:
    game = pyspiel.load_game("cardtable_royal_mastheads")
    state = game.new_initial_state()
    state.apply_action(11)
    actor = state.current_player()
    state.apply_action(state.legal_actions()[0])
    for p in range(4):
        history = np.asarray(state.information_state_tensor(p)).reshape(-1)[-3 * 72 :]
        tokens = history.reshape(-1, 3)
        moves = tokens[tokens[:, 0] == 1.0]
        assert len(moves) == 1
        assert (moves[0, 2] == -1.0) == (p != actor)


def test_short_names() -> None:
    assert short_name(REGISTRY.get("casino")) == "cardtable_royal_casino"
