"""A kit's opponent model (:attr:`SearchProfile.opponent`): below the root the other seats
move by it, on their sampled cards, and the searching seat by UCB as before; without one the
search is unchanged.  No level of Rummy uses one."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.games import get_game
from tests.bots.helpers import SEARCH_GAMES, random_position, random_view


@pytest.mark.parametrize("name", SEARCH_GAMES)
def test_only_the_other_seats_move_by_the_model_and_never_at_the_root(name: str) -> None:
    game = get_game(name)
    state, seat = random_position(game, 3)
    view, legal = game.view(state, seat), game.legal_actions(state)
    base = game.search_profile()
    movers: list[int | None] = []

    def model(s: Any, moves: Sequence[Any], rng: random.Random) -> Any:
        movers.append(base.to_act(s))
        assert list(moves) == list(base.legal(s))
        return moves[rng.randrange(len(moves))]

    profile = dataclasses.replace(base, opponent=model)
    result = search(SearchAdapter(game, profile), view, legal, random.Random(5), 200)
    assert result.simulations == 200
    assert {s.action for s in result.stats} <= set(legal)
    assert movers, "the other seats never moved below the root"
    assert seat not in movers and None not in movers


def test_a_model_that_always_plays_the_first_move_is_what_the_search_expects() -> None:
    # Two models of the other seat give the searching seat different statistics, so the
    # model is used (a search that ignored it would give the same numbers twice).
    game = get_game("rummy")
    view, legal = random_view(game, 5)
    base = game.search_profile()

    def first(s: Any, moves: Sequence[Any], rng: random.Random) -> Any:
        return moves[0]

    def last(s: Any, moves: Sequence[Any], rng: random.Random) -> Any:
        return moves[-1]

    runs = [
        search(
            SearchAdapter(game, dataclasses.replace(base, opponent=m)),
            view,
            legal,
            random.Random(9),
            300,
        )
        for m in (first, last)
    ]
    assert runs[0].stats != runs[1].stats


def test_without_a_model_the_search_is_as_before() -> None:
    game = get_game("rummy")
    view, legal = random_view(game, 4)
    base = game.search_profile()
    assert base.opponent is None
    plain = search(SearchAdapter(game, base), view, legal, random.Random(2), 150)
    again = search(
        SearchAdapter(game, dataclasses.replace(base, opponent=None)),
        view,
        legal,
        random.Random(2),
        150,
    )
    assert plain == again


def test_no_level_of_rummy_models_the_other_seat() -> None:
    # Neither hard nor expert models the other seat: the tree's statistics choose its moves.
    profile = get_game("rummy").search_profile()
    assert profile.opponent is None and profile.expert is None
