"""Bots are built, seeded and stepped by the Table alone: the terminal, the arena, selfplay
and the server's Room make the same bot moves for the same seed and seats."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.arena.core import Job, play_job
from cardtable.cli.play import make_settings, play_game
from cardtable.cli.selfplay import SelfplayJob, play_one
from cardtable.core.record import Record
from cardtable.core.registry import AnyGame
from cardtable.games import get_game
from cardtable.tables.table import Table
from tests.server.fakes import let_bots_play, open_room

CASES = [
    ("royal-casino", ("greedy", "random")),
    ("rummy", ("random", "greedy")),
    ("royal-mastheads", ("greedy", "random", "easy", "random")),
]


def arena_actions(game: AnyGame, seed: int, bots: tuple[str, ...]) -> tuple[str, ...]:
    options = tuple(sorted(game.resolve_options({}).to_json().items()))
    job = Job(
        0, 0, 0, game.info.name, len(bots), seed, bots, tuple(range(len(bots))), "unit", options
    )
    return play_job(job).record.actions


def selfplay_actions(game: AnyGame, seed: int, bots: tuple[str, ...]) -> tuple[str, ...]:
    job = SelfplayJob(game.info.name, len(bots), seed, bots, {}, "unit", keep_record=True)
    record = play_one(job).record
    assert record is not None
    return Record.loads(record).actions


async def room_actions(game: AnyGame, seed: int, bots: tuple[str, ...]) -> tuple[str, ...]:
    room, store, _bus = open_room(game, [f"bot:{b}" for b in bots], seed)
    await let_bots_play(room)
    assert room.status == "finished"
    return tuple(a.action for a in store.rows[room.id].actions)


@pytest.mark.asyncio
@pytest.mark.parametrize(("name", "bots"), CASES)
async def test_bot_games_are_the_same_in_the_arena_selfplay_and_the_server(
    name: str, bots: tuple[str, ...]
) -> None:
    game = get_game(name)
    for seed in (1, 2):
        arena = arena_actions(game, seed, bots)
        assert len(arena) > 10
        assert selfplay_actions(game, seed, bots) == arena
        assert await room_actions(game, seed, bots) == arena


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["royal-casino", "rummy"])
async def test_bots_answer_a_person_the_same_in_the_terminal_and_the_server(
    name: str, tmp_path: Path
) -> None:
    """The person (seat 0) always types ``1``, the first move listed; the bot must answer alike."""
    game = get_game(name)
    settings = make_settings(game, 2, 0, ["greedy"], 11, {}, True, str(tmp_path / "r.json"))
    play_game(game, settings, lambda: "1", lambda _line: None)
    terminal = Record.loads(settings.record_path.read_text()).actions

    room, store, _bus = open_room(game, ["human:me", "bot:greedy"], 11)
    await let_bots_play(room)
    while room.status == "playing":
        first = sorted(room.table.legal(0), key=game.display_key)[0]
        cmd = {"type": "act", "action": game.format_action(first), "version": room.table.version}
        await room.execute("me", "Me", cmd)
        await let_bots_play(room)
    assert tuple(a.action for a in store.rows[room.id].actions) == terminal
    assert any(a.seat == 1 for a in store.rows[room.id].actions)


def test_a_table_rebuilt_from_a_record_prefix_makes_the_same_bot_moves() -> None:
    """One generator per move (seed, seat, version): no generator state to lose."""
    game = get_game("royal-casino")
    seats = ["bot:greedy", "bot:random"]
    whole = Table(game, 2, 21, seats, scope="unit")
    whole.run_bots()
    for cut in (0, 1, 7, len(whole.record.actions) // 2):
        rebuilt = Table(game, 2, 21, seats, scope="unit")
        for action in whole.record.actions[:cut]:
            rebuilt.act(rebuilt.to_act or 0, action)
        rebuilt.run_bots()
        assert rebuilt.record.actions == whole.record.actions


def test_a_bot_that_takes_over_a_seat_plays_like_one_that_sat_there_from_the_start() -> None:
    game = get_game("royal-casino")
    from_start = Table(game, 2, 5, ["bot:random", "bot:random"], scope="unit")
    from_start.run_bots()
    for cut in (0, 5, 12):
        taken_over = Table(game, 2, 5, ["bot:random", "human:left"], scope="unit")
        for action in from_start.record.actions[:cut]:  # the person happened to play alike
            taken_over.act(taken_over.to_act or 0, action)
        taken_over.replace_with_bot(1, "random")
        taken_over.run_bots()
        assert taken_over.record.actions == from_start.record.actions
