"""Soak finding (issue 12): a process kept every table it ever held in memory.  A table that
is over and that nobody watches is forgotten after two looks and loaded again from the
database when someone opens it; tables in play are kept; loading a table happens once
however many ask at once, and leaves nothing behind."""

from __future__ import annotations

import asyncio
import secrets

from cardtable.server.config import Settings
from cardtable.server.conn import Conn
from cardtable.server.hub import Hub
from cardtable.server.i18n import translator


async def _noop(_text: str) -> None:
    return None


def test_a_finished_unwatched_room_is_forgotten_and_loaded_again(database_url: str) -> None:
    hub = Hub(Settings(database_url=database_url, bot_delay=0.0))

    async def run() -> None:
        await hub.start()
        try:
            ann = await hub.save_player(secrets.token_hex(8), "Ann")
            bob = await hub.save_player(secrets.token_hex(8), "Bob")
            over = await hub.create("royal-casino", 2, {}, ["human", "human"], ann, "Ann")
            playing = await hub.create("royal-casino", 2, {}, ["human", "human"], bob, "Bob")
            await over.execute(ann, "Ann", {"type": "leave"})  # no person left: abandoned
            assert over.status == "abandoned" and playing.status == "playing"

            watcher = Conn(_noop, None, translator("en"))
            over.join(watcher)
            seen = hub.forget_idle(set())
            assert hub.forget_idle(seen) == set()  # watched: kept, and not idle
            assert hub.live(over.id) is over
            over.part(watcher)

            seen = hub.forget_idle(set())
            assert seen == {over.id}
            assert hub.live(over.id) is over  # one look is not enough
            hub.forget_idle(seen)
            assert hub.live(over.id) is None
            assert hub.live(playing.id) is playing  # a table in play stays

            again, same = await asyncio.gather(hub.get(over.id), hub.get(over.id))
            assert again is not None and again is same and again is not over
            assert again.status == "abandoned" and again.table.version == over.table.version
            assert await hub.get("no-such-table") is None
            assert not hub._loading  # nothing kept for the ids asked for
        finally:
            await hub.stop()

    asyncio.run(run())
