"""The game objects are shared by every table and thread of a server: they must hold no state.

The same seeded games are played from several threads at once on one shared game object,
with the interpreter switching threads every microsecond, and every legal list, position and
event list is compared with a single-threaded run.  A mixed run interleaves ``legal_actions``,
``apply`` (legal and illegal), ``is_legal``, ``explain_illegal`` and ``parse_action`` on the
positions of all three games in a different order in each thread.  An identity cache on a game
object (a position checked in one step, its legal list read in the next) fails these tests.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any

import pytest

from cardtable.core.game import Event
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY

THREADS = 4
GAMES_PER_THREAD = 2
PLAYERS = {"royal-casino": 2, "rummy": 3, "royal-mastheads": 4}


@dataclass(frozen=True)
class Step:
    """One position of a single-threaded game and everything the contract says of it."""

    game: AnyGame
    state: Any
    legal: list[Any]
    action: Any
    after: Any
    events: tuple[Event, ...]
    illegal: Any  # an action legal somewhere else in the game but not here, or None
    reason: str  # str(explain_illegal(state, illegal)), or ""
    text: str  # the chosen action's notation


def play(game: AnyGame, seed: int) -> list[Step]:
    """A seeded random game (one unit) played on the contract, step by step."""
    rng = random.Random(seed)
    players = PLAYERS.get(game.info.name, game.info.default_players)
    state = game.new_game(players, seed=seed, scope="unit")
    raw: list[tuple[Any, list[Any], Any, Any, tuple[Event, ...]]] = []
    while game.to_act(state) is not None:
        legal = list(game.legal_actions(state))
        action = legal[rng.randrange(len(legal))]
        after, events = game.apply(state, action)
        raw.append((state, legal, action, after, events))
        state = after
    seen = [a for _, legal, _, _, _ in raw for a in legal]
    steps = []
    for state, legal, action, after, events in raw:
        illegal = next((a for a in rng.sample(seen, min(len(seen), 40)) if a not in legal), None)
        reason = "" if illegal is None else str(game.explain_illegal(state, illegal))
        text = game.format_action(action)
        steps.append(Step(game, state, legal, action, after, events, illegal, reason, text))
    return steps


def seeds(thread: int) -> list[int]:
    return [100 * thread + k for k in range(GAMES_PER_THREAD)]


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """Threads switch every microsecond while the test runs."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def yield_on_return(frame: FrameType, event: str, arg: object) -> None:
    """A profile hook that gives the other threads a turn whenever a function returns.

    The interpreter switches threads only at a few points of the bytecode; this adds one
    at every return, such as between computing a legal list and storing it."""
    if event == "return" or event == "c_return":
        time.sleep(0)


def run_threads(work: Callable[[int], None]) -> None:
    """``work(i)`` in THREADS threads started together; re-raise the first failure."""
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def target(i: int) -> None:
        try:
            barrier.wait()
            sys.setprofile(yield_on_return)
            try:
                work(i)
            finally:
                sys.setprofile(None)
        except BaseException as exc:  # reported below, with its traceback
            errors.append(exc)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


@pytest.mark.parametrize("game", REGISTRY.games(), ids=REGISTRY.names())
def test_threads_sharing_one_game_object_play_exactly_the_single_threaded_games(
    game: AnyGame, fast_switching: None
) -> None:
    expected = {seed: play(game, seed) for i in range(THREADS) for seed in seeds(i)}
    got: dict[int, list[tuple[Any, list[Any], Any, tuple[Event, ...]]]] = {}

    def work(i: int) -> None:
        for seed in seeds(i):
            rng = random.Random(seed)
            players = PLAYERS.get(game.info.name, game.info.default_players)
            state = game.new_game(players, seed=seed, scope="unit")
            log = []
            while game.to_act(state) is not None:
                legal = list(game.legal_actions(state))
                after, events = game.apply(state, legal[rng.randrange(len(legal))])
                log.append((state, legal, after, events))
                state = after
            got[seed] = log

    run_threads(work)
    assert sorted(got) == sorted(expected)
    for seed, steps in expected.items():
        assert len(got[seed]) == len(steps), seed
        for n, (step, (state, legal, after, events)) in enumerate(
            zip(steps, got[seed], strict=True)
        ):
            where = f"seed {seed}, step {n}"
            assert state == step.state, where
            assert legal == step.legal, where
            assert after == step.after, where
            assert events == step.events, where


@pytest.mark.slow  # ~10 s under the profile hook; the check below guards the fast tier
def test_mixed_calls_on_all_games_from_many_threads(fast_switching: None) -> None:
    steps = [s for g in REGISTRY.games() for s in play(g, 1)]

    def check(step: Step, op: int) -> None:
        game, state = step.game, step.state
        if op == 0:
            assert list(game.legal_actions(state)) == step.legal
        elif op == 1:
            assert game.apply(state, step.action) == (step.after, step.events)
        elif op == 2 and step.illegal is not None:
            assert str(game.explain_illegal(state, step.illegal)) == step.reason
            assert not game.is_legal(state, step.illegal)
        elif op == 3 and step.illegal is not None:
            with pytest.raises(ValueError) as err:
                game.apply(state, step.illegal)
            assert str(err.value) == step.reason
        elif op == 4:
            assert game.is_legal(state, step.action)
            assert game.parse_action(state, step.text) == step.action

    def work(i: int) -> None:
        rng = random.Random(i)
        order = [(s, op) for s in steps for op in range(5)]
        rng.shuffle(order)
        for step, op in order:
            check(step, op)

    run_threads(work)


@pytest.mark.parametrize("game", REGISTRY.games(), ids=REGISTRY.names())
def test_playing_leaves_the_game_object_unchanged(game: AnyGame) -> None:
    """No cache or other attribute of the shared object is written by playing a game."""
    before = dict(getattr(game, "__dict__", {}))
    steps = play(game, 7)
    for step in steps[:50]:
        game.is_legal(step.state, step.action)
        game.parse_action(step.state, step.text)
    after = getattr(game, "__dict__", {})
    assert after.keys() == before.keys()
    assert all(after[k] is v for k, v in before.items())
