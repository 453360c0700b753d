"""A Room against an in-memory store: commands, bots, conflicts and recovery, no web server."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.games import get_game
from cardtable.server.errors import ClientError
from cardtable.server.room import Room
from tests.server.fakes import MemoryStore, OneProcessBus, let_bots_play, open_room, table_row

CASINO = get_game("royal-casino")


def first_move(room: Room, seat: int) -> str:
    return CASINO.format_action(room.table.legal(seat)[0])


@pytest.mark.asyncio
async def test_bots_play_a_whole_hand_and_every_action_is_stored_in_order() -> None:
    room, store, bus = open_room(CASINO, ["bot:greedy", "bot:random"], seed=3)
    await let_bots_play(room)
    row = store.rows[room.id]
    assert room.table.is_over and room.status == "finished" == row.status
    assert [a.version for a in row.actions] == list(range(1, room.table.version + 1))
    assert [a.action for a in row.actions] == list(room.table.record.actions)
    assert row.result == room.table.record.result
    assert [v for _, v in bus.published] == list(range(1, room.table.version + 1))


@pytest.mark.asyncio
async def test_a_players_action_is_stored_and_the_bot_answers() -> None:
    room, store, _bus = open_room(CASINO, ["human:alice", "bot:random"], seed=4)
    await let_bots_play(room)
    seat = room.table.to_act
    assert seat == room.seat_of("alice") == 0
    action = first_move(room, 0)
    version = room.table.version
    await room.execute("alice", "Alice", {"type": "act", "action": action, "version": version})
    await let_bots_play(room)
    stored = store.rows[room.id].actions
    assert stored[version].action == action and stored[version].seat == 0
    assert room.table.version > version + 1  # the bot moved after alice
    assert stored[-1].version == room.table.version


@pytest.mark.asyncio
async def test_a_rejected_command_changes_nothing_and_says_why() -> None:
    room, store, _bus = open_room(CASINO, ["human:alice", "human:bob"], seed=5)
    version = room.table.version
    bob_move = {"type": "act", "action": first_move(room, 0), "version": version}
    with pytest.raises(ClientError) as not_yours:
        await room.execute("bob", "Bob", {**bob_move, "seat": 0})
    assert not_yours.value.code == "wrong_seat"
    stale = {"type": "act", "action": first_move(room, 0), "version": version + 3}
    with pytest.raises(ClientError) as old:
        await room.execute("alice", "Alice", stale)
    assert old.value.code == "stale_version"
    with pytest.raises(ClientError) as watcher:
        await room.execute("carol", "Carol", bob_move)
    assert watcher.value.code == "wrong_seat"
    assert room.table.version == version and store.rows[room.id].actions == []


@pytest.mark.asyncio
async def test_a_failed_write_reloads_the_table_from_the_store() -> None:
    room, store, _bus = open_room(CASINO, ["human:alice", "human:bob"], seed=6)
    store.fail_next_write = True
    cmd = {"type": "act", "action": first_move(room, 0), "version": 0}
    with pytest.raises(ClientError) as conflict:
        await room.execute("alice", "Alice", cmd)
    assert conflict.value.code == "conflict"
    assert room.table.version == 0 and room.table.to_act == 0  # back to what is stored
    await room.execute("alice", "Alice", cmd)
    assert store.rows[room.id].version == room.table.version == 1


@pytest.mark.asyncio
async def test_a_player_who_leaves_is_replaced_by_a_bot_that_finishes_the_game() -> None:
    room, store, bus = open_room(CASINO, ["human:alice", "human:bob"], seed=7)
    await room.execute("bob", "Bob", {"type": "leave"})
    assert room.meta.seats[1].kind == "bot" and room.table.seats[1].is_bot
    assert store.rows[room.id].meta["seats"][1]["kind"] == "bot"
    while room.status == "playing":
        if room.table.to_act == 0:
            version = room.table.version
            await room.execute(
                "alice", "Alice", {"type": "act", "action": first_move(room, 0), "version": version}
            )
        await let_bots_play(room)
    assert room.status == "finished" and store.rows[room.id].status == "finished"
    assert bus.metas[0] == (room.id, "playing")  # the other processes hear of the new bot


@pytest.mark.asyncio
async def test_when_the_last_player_leaves_the_table_is_abandoned() -> None:
    room, store, _bus = open_room(CASINO, ["human:alice", "bot:random"], seed=8)
    await room.execute("alice", "Alice", {"type": "leave"})
    assert room.status == "abandoned" == store.rows[room.id].status
    room.close()


@pytest.mark.asyncio
async def test_a_rated_table_rates_its_players_when_it_ends() -> None:
    room, store, _bus = open_room(CASINO, ["human:alice", "bot:greedy"], seed=9, rated=True)
    while room.status == "playing":
        await let_bots_play(room)
        if room.table.to_act == 0:
            cmd = {"type": "act", "action": first_move(room, 0), "version": room.table.version}
            await room.execute("alice", "Alice", cmd)
    assert len(store.ratings) == 1
    game, players, outcome = store.ratings[0]
    assert game == "royal-casino" and players == ("alice", "bot:greedy")
    assert outcome == room.table.outcome()


@pytest.mark.asyncio
async def test_a_room_rebuilt_from_its_stored_row_makes_the_same_bot_moves() -> None:
    """A restarted server reloads a table mid-game; its bots play on as if nothing happened."""
    game = get_game("royal-mastheads")
    seats = ["bot:greedy", "bot:random", "bot:easy", "bot:random"]
    never_stopped, _store, _bus = open_room(game, seats, seed=10)
    await let_bots_play(never_stopped)
    played = _store.rows[never_stopped.id].actions
    assert len(played) > 9
    restarted_row = table_row(game, seats, seed=10)
    restarted_row.actions = list(played[:9])
    restarted_row.version = 9
    store, bus = MemoryStore(), OneProcessBus()
    store.add(restarted_row)
    restarted = Room(game, restarted_row, store, bus)
    assert restarted.table.version == 9
    await let_bots_play(restarted)
    assert restarted.table.record.actions == never_stopped.table.record.actions
    assert store.rows[restarted.id].actions == played


@pytest.mark.asyncio
async def test_an_action_from_the_listed_legal_moves_is_not_parsed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The view lists the legal moves' texts; an ``act`` with one of them, for the state they
    were listed in, finds its action without parsing the text (the table still checks it is
    legal).  Any other text, or one listed for an earlier state, is parsed as before."""
    room, store, _bus = open_room(CASINO, ["human:alice", "human:bob"], seed=11)
    parsed: list[str] = []
    parse = type(CASINO).parse_action

    def counting(self: Any, state: Any, text: str) -> Any:
        parsed.append(text)
        return parse(self, state, text)

    monkeypatch.setattr(type(CASINO), "parse_action", counting)
    listed = [text for text, _ in room.legal_texts(0)]
    assert listed == [CASINO.format_action(a) for a in room.table.legal(0)]
    await room.execute("alice", "Alice", {"type": "act", "action": listed[0], "version": 0})
    assert parsed == [] and store.rows[room.id].actions[0].action == listed[0]
    # Bob's moves were never listed: his text is parsed (and a lenient spelling too).
    bob = CASINO.format_action(room.table.legal(1)[0])
    await room.execute("bob", "Bob", {"type": "act", "action": bob.lower(), "version": 1})
    assert parsed == [bob.lower()] and store.rows[room.id].actions[1].action == bob
    # Listed for an earlier state: not used for the state the table is in now.
    stale = room.legal_texts(0)
    assert stale is room.legal_texts(0)  # worked out once per state
    text, action = stale[0]
    assert room._known_action(0, text) == action
    room.table.act(0, text, 2)  # the table moves on (as after a reload from the store)
    assert room._known_action(0, text) == text
