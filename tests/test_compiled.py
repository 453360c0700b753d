"""The compiled modules (setup.py, mypyc) play the same games as the pure-Python ones.

:func:`digest` plays seeded games every way the engines are used — the contract loop,
the fast playouts, a deal from the seed, determinizations, an ISMCTS search — and writes
down what came out.  The tests run it in two child processes, one told to import the
pure-Python modules (``CARDTABLE_PURE=1``) and one not (the compiled modules, in a
compiled installation), and compare.  ``make test`` runs this file in both kinds of
process too (see the Makefile's ``test-pure``).
"""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from collections.abc import MutableSequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.bots.ismcts import adapter_for, search
from cardtable.core.rng import derive_rng, randbelow, shuffle, shuffled_deck
from cardtable.games import REGISTRY, get_game

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {"royal-casino": (2, 3, 4), "rummy": (2, 4), "royal-mastheads": (4,)}


def _mid_game(name: str, players: int, seed: int) -> Any:
    """A position some way into a seeded random unit, with a choice to make."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_game(players, None, seed, "unit")
    for _ in range(12):
        if game.to_act(state) is None:
            break
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    while game.to_act(state) is not None and len(game.legal_actions(state)) < 2:
        state, _ = game.apply(state, game.legal_actions(state)[0])
    return state


def digest() -> dict[str, Any]:
    """What seeded play produces in this process, in text (for comparing processes)."""
    out: dict[str, Any] = {"compiled": cardtable.compiled_modules()}
    for name in REGISTRY.names():
        game = get_game(name)
        for players in PLAYERS[name]:
            key = f"{name}/{players}"
            rows: list[Any] = []
            for seed in range(3):
                # the contract loop: every action and every event
                rng = random.Random(seed)
                state = game.new_game(players, None, seed)
                lines: list[str] = []
                while (seat := game.to_act(state)) is not None and len(lines) < 400:
                    legal = game.legal_actions(state)
                    action = legal[rng.randrange(len(legal))]
                    state, events = game.apply(state, action)
                    lines.append(game.format_action(action))
                    lines.extend(e.describe() for e in events)
                    game.view(state, seat)
                rows.append(lines)
                rows.append(game.format_position(state))
                # the fast playout of a unit, and a deal from the seed
                end, n = game.playout(game.new_game(players, None, seed, "unit"), rng)
                rows.append([game.format_position(end), n])
                # determinizations and a search from a seat's view
                mid = _mid_game(name, players, seed)
                seat = game.to_act(mid)
                view = game.view(mid, seat)
                sampler = game.view_sampler(view)
                srng = random.Random(seed)
                rows.append([game.format_position(sampler(srng)) for _ in range(3)])
                result = search(adapter_for(game), view, game.legal_actions(mid), srng, 150)
                rows.append(
                    [
                        (game.format_action(s.action), s.visits, round(s.value, 9))
                        for s in result.stats
                    ]
                )
            out[key] = rows
    return out


def _digest_in_child(pure: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_PURE"}
    env["CARDTABLE_PURE"] = "1" if pure else "0"
    code = "import json; from tests.test_compiled import digest; print(json.dumps(digest()))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


@pytest.mark.slow
def test_the_same_seeds_play_the_same_games_compiled_or_not() -> None:
    pure = _digest_in_child(pure=True)
    native = _digest_in_child(pure=False)
    assert pure.pop("compiled") == []
    compiled = native.pop("compiled")
    if (Path(cardtable.__file__).parent / cardtable.BUILD_RECORD).exists():
        # a compiled installation: the other child really ran compiled modules
        assert "cardtable.games.royal_casino.rules" in compiled
        assert "cardtable.bots.ismcts" in compiled
    assert set(pure) == {f"{n}/{p}" for n in REGISTRY.names() for p in PLAYERS[n]}
    for key in pure:
        assert native[key] == pure[key], key


def test_ci_tests_the_compiled_build() -> None:
    """In CI (``CI=true``, set by .ci/run) a build that fell back to pure Python fails here:
    the suite must run on the compiled modules there (and again on the pure ones)."""
    if os.environ.get("CI") == "true" and not cardtable.PURE:
        assert (Path(cardtable.__file__).parent / cardtable.BUILD_RECORD).exists()
        import cardtable.games.royal_casino.rules as rules

        assert rules.__file__ is not None and not rules.__file__.endswith(".py")


def test_this_process_runs_what_it_was_told() -> None:
    import cardtable.games.royal_mastheads.rules as rules

    compiled = rules.__file__ is not None and not rules.__file__.endswith(".py")
    assert not (cardtable.PURE and compiled)
    assert cardtable.compiled_modules() == [] or not cardtable.PURE


@given(st.integers(0, 2**64), st.integers(1, 120))
def test_shuffle_draws_what_random_shuffle_draws(seed: int, size: int) -> None:
    mine, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(mine, a)
    theirs.shuffle(b)
    assert a == b
    assert randbelow(mine, size) == theirs.randrange(size)
    assert mine.random() == theirs.random()  # the same numbers were drawn


def test_shuffled_deck_is_the_deck_random_deals() -> None:
    deck = list(range(52))
    derive_rng(11, "hand", 2).shuffle(deck)
    assert shuffled_deck(11, "hand", 2) == deck


def test_a_generator_of_another_kind_is_asked_itself() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: MutableSequence[Any]) -> None:
            x.reverse()

        def randrange(self, *args: Any, **kwargs: Any) -> int:
            return 7

    items = [1, 2, 3]
    shuffle(Reversing(1), items)
    assert items == [3, 2, 1]
    assert randbelow(Reversing(1), 52) == 7


@pytest.mark.parametrize("name", ["royal-casino", "rummy", "royal-mastheads"])
def test_states_views_and_search_results_pickle(name: str) -> None:
    """Process pools send views and search results (compiled classes too)."""
    game = get_game(name)
    state = _mid_game(name, PLAYERS[name][0], 3)
    view = game.view(state, game.to_act(state))
    result = search(adapter_for(game), view, game.legal_actions(state), random.Random(0), 30)
    for value in (state, view, result):
        assert pickle.loads(pickle.dumps(value)) == value
