"""Properties of every game's research encoding over random games: masks are exactly the
legal actions, and a seat's observation depends only on what the seat may know."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core.encoding import (
    Decision,
    Encoding,
    InfoState,
    decode,
    infostate_size,
    observation,
    observation_size,
)
from cardtable.core.errors import IllegalActionError
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY

GAMES = REGISTRY.names()

OPTION_VARIANTS: dict[str, list[dict[str, object]]] = {
    "royal-casino": [
        {},
        {"raiseAbsorbsLoose": False, "sameValueBuildsCoexist": False},
        {"partnerBuildInteraction": "FORBIDDEN", "direction": "CW"},
    ],
    "rummy": [
        {},
        {"jokers": True, "jokerSwap": True, "discardPickup": "anyWithAbove"},
        {"jokers": True, "decks": 2, "discardPickup": "anySingle", "wrapKA2": True},
    ],
    "royal-mastheads": [{}, {"ruleset": "russian"}],
}


def encoding(game: AnyGame) -> Encoding[Any, Any]:
    enc = game.encoding()
    assert enc is not None
    return enc


def random_position(
    game: AnyGame, data: st.DataObject, moves: int | None = None
) -> tuple[Any, random.Random]:
    """A position reached by random legal play (``moves``, or a drawn number of moves),
    from drawn players, options and seed."""
    info = game.info
    players = data.draw(st.integers(info.min_players, min(info.max_players, 4)), "players")
    options = data.draw(st.sampled_from(OPTION_VARIANTS[info.name]), "options")
    seed = data.draw(st.integers(0, 2**20), "seed")
    if moves is None:
        moves = data.draw(st.integers(0, 120), "moves")
    rng = random.Random(seed)
    state = game.new_game(players, options, seed=seed, scope="unit")
    for _ in range(moves):
        legal = game.legal_actions(state)
        if not legal:
            break
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    return state, rng


def leaves(
    decision_factory: Any, prefix: tuple[int, ...] = ()
) -> list[tuple[tuple[int, ...], Any]]:
    """Every complete id sequence of a decision tree and the action it names."""
    out = []
    probe: Decision[Any] = decision_factory()
    for i in prefix:
        probe.choose(i)
    for i in probe.legal_ids():
        step: Decision[Any] = decision_factory()
        for j in prefix:
            step.choose(j)
        action = step.choose(i)
        if action is None:
            out += leaves(decision_factory, (*prefix, i))
        else:
            out.append(((*prefix, i), action))
    return out


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_masks_are_exactly_the_legal_actions(name: str, data: st.DataObject) -> None:
    game = REGISTRY.get(name)
    enc = encoding(game)
    state, _ = random_position(game, data)
    seat = game.to_act(state)
    if seat is None:
        return
    view = game.view(state, seat)
    legal = list(game.legal_actions(state))
    # every legal action has exactly one id sequence, and it decodes to that action
    seqs = [enc.action_ids(view, a) for a in legal]
    assert len(set(seqs)) == len(legal)
    for action, ids in zip(legal, seqs, strict=True):
        assert len(set(ids)) == len(ids)
        assert all(0 <= i < enc.num_distinct_actions for i in ids)
        assert decode(enc, view, legal, ids) == action
    # walking every masked id reaches every legal action once and nothing else
    reached = leaves(lambda: Decision(enc, view, legal))
    assert sorted(map(repr, (a for _, a in reached))) == sorted(map(repr, legal))
    assert sorted(ids for ids, _ in reached) == sorted(seqs)
    # the root mask is the set of first ids; an unmasked id is refused
    decision = Decision(enc, view, legal)
    mask = decision.mask(enc.num_distinct_actions)
    assert {i for i, m in enumerate(mask) if m} == {ids[0] for ids in seqs}
    refused = next(i for i, m in enumerate(mask) if not m)
    with pytest.raises(IllegalActionError):
        decision.choose(refused)
    assert decision.prefix == ()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_hidden_cards_do_not_change_observations(name: str, data: st.DataObject) -> None:
    game = REGISTRY.get(name)
    enc = encoding(game)
    state, rng = random_position(game, data)
    players = game.players(state)
    observations = []
    for seat in range(players):
        other = game.shuffle_hidden(state, seat, rng)
        mine = observation(enc, game.view(state, seat))
        assert observation(enc, game.view(other, seat)) == mine
        assert len(mine) == observation_size(enc, players)
        assert all(-1.0 <= x <= 1.0 for x in mine)
        observations.append(mine)
    # the observations do tell the seats apart (each sees its own hand)
    if game.to_act(state) is not None:
        assert len({tuple(o) for o in observations}) == players


@pytest.mark.parametrize("name", GAMES)
def test_every_id_has_a_meaning(name: str) -> None:
    enc = encoding(REGISTRY.get(name))
    texts = [enc.id_text(i) for i in range(enc.num_distinct_actions)]
    assert len(set(texts)) == len(texts)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_hidden_cards_do_not_change_information_states(name: str, data: st.DataObject) -> None:
    """Each seat keeps two information states over one random game: one fed with its
    views of the real states, one with its views of states whose cards hidden from it
    were shuffled at every step.  They stay equal, move by move."""
    game = REGISTRY.get(name)
    enc = encoding(game)
    state, rng = random_position(game, data, moves=0)
    players = game.players(state)
    moves = data.draw(st.integers(0, 150), "moves")

    def twins(state: Any, seat: int) -> tuple[Any, Any]:
        return game.view(state, seat), game.view(game.shuffle_hidden(state, seat, rng), seat)

    real: list[InfoState[Any]] = []
    shuffled: list[InfoState[Any]] = []
    for seat in range(players):
        a, b = twins(state, seat)
        real.append(InfoState(enc, players, seat, a))
        shuffled.append(InfoState(enc, players, seat, b))
    for _ in range(moves):
        actor = game.to_act(state)
        if actor is None:
            break
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        ids = enc.action_ids(game.view(state, actor), action)
        state, _ = game.apply(state, action)
        for seat in range(players):
            a, b = twins(state, seat)
            real[seat].record(actor, ids, a)
            shuffled[seat].record(actor, ids, b)
            assert real[seat].tokens == shuffled[seat].tokens
    size = infostate_size(enc, players)
    dense = []
    for seat in range(players):
        f, g = real[seat].features(), shuffled[seat].features()
        assert f.values == g.values and f.pos == g.pos == size
        assert all(-1.0 <= x <= 1.0 for x in f.values.values())
        assert len(real[seat].tokens) <= enc.history_capacity(players)
        dense.append(tuple(sorted(f.values.items())))
    # the seats' information states are their own (each holds its own hand's history)
    assert len(set(dense)) == players


def test_R5_1_two_set_jokers_name_their_rank_once() -> None:
    """Two packs: a set of nines with two jokers (``MELD 9H 9C' JK=9* JK'''=9*``, which the
    property above found) names the jokers' rank once, so the ids of the meld are distinct
    and they decode to it."""
    game = REGISTRY.get("rummy")
    enc = encoding(game)
    options = {"jokers": True, "decks": 2, "discardPickup": "anySingle", "wrapKA2": True}
    rng = random.Random(6550)
    state = game.new_game(3, options, seed=6550, scope="unit")
    for _ in range(3):
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    seat = game.to_act(state)
    assert seat is not None
    view = game.view(state, seat)
    legal = list(game.legal_actions(state))
    texts = [game.format_action(a) for a in legal]
    assert "MELD 9H 9C' JK=9* JK'''=9*" in texts
    action = legal[texts.index("MELD 9H 9C' JK=9* JK'''=9*")]
    ids = enc.action_ids(view, action)
    assert len(set(ids)) == len(ids), ids
    assert decode(enc, view, legal, ids) == action
