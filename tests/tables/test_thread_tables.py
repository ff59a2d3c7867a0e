"""Tables in a thread of their own: stored under the channel they came from with the thread's id, found
and restored in the thread, and each thread its own place (a channel may have several)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skatbot.engine import RuleSet
from skatbot.storage import SqliteStorage
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.wiring import StorageTables
from tests.tables.kit import InlineExecutor
from tests.tables.memory_store import MemoryStore

ALICE, BOB = 100, 101
CHANNEL, THREAD, OTHER_THREAD = 5, 50, 51


def manager_on(store: StorageTables | MemoryStore) -> TableManager:
    return TableManager(catalog=store, store=store, presenter=RecordingPresenter(),
                        executor=InlineExecutor())


async def test_a_thread_table_is_stored_under_its_channel_and_restored_into_its_thread(tmp_path: Path) -> None:
    database = tmp_path / "skat.sqlite3"
    storage = await SqliteStorage.open(database)
    try:
        store = StorageTables(storage)
        await store.save_player(player_id=ALICE, name="Alice", is_ai=False)
        await store.save_player(player_id=BOB, name="Bob", is_ai=False)
        manager = manager_on(store)
        table = await manager.create(guild_id=1, channel_id=THREAD, parent_id=CHANNEL, creator_id=ALICE,
                                     creator_name="Alice", size=3, deals=2, rules=RuleSet())
        in_channel = await manager.create(guild_id=1, channel_id=CHANNEL, creator_id=BOB, creator_name="Bob",
                                          size=3, deals=2, rules=RuleSet())
        stored = await storage.tables.get(table_id=table.id)
        assert (stored.channel_id, stored.thread_id) == (CHANNEL, THREAD)
        assert [t.table_id for t in await storage.tables.in_channel(channel_id=THREAD)] == [table.id]
        plain = await storage.tables.get(table_id=in_channel.id)
        assert (plain.channel_id, plain.thread_id) == (CHANNEL, None)
        assert manager.in_channel(THREAD) is table and manager.in_channel(CHANNEL) is in_channel
        await manager.close()
    finally:
        await storage.close()

    storage = await SqliteStorage.open(database)
    try:
        restored = await manager_on(StorageTables(storage)).restore()
        assert sorted((t.id, t.channel_id) for t in restored) == [(table.id, THREAD), (in_channel.id, CHANNEL)]
        for again in restored:
            await again.close()
    finally:
        await storage.close()


async def test_each_thread_holds_its_own_table() -> None:
    store = MemoryStore()
    manager = manager_on(store)
    first = await manager.create(guild_id=1, channel_id=THREAD, parent_id=CHANNEL, creator_id=ALICE,
                                 creator_name="Alice", size=3, deals=1, rules=RuleSet())
    second = await manager.create(guild_id=1, channel_id=OTHER_THREAD, parent_id=CHANNEL, creator_id=BOB,
                                  creator_name="Bob", size=3, deals=1, rules=RuleSet())
    assert manager.in_channel(THREAD) is first and manager.in_channel(OTHER_THREAD) is second
    assert manager.in_channel(CHANNEL) is None  # the channel itself stays free
    assert store.parents == {first.id: CHANNEL, second.id: CHANNEL}
    await manager.close()


async def test_only_the_newest_finished_tables_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread per table means no next table replaces a finished one in its place: the oldest go."""
    monkeypatch.setattr("skatbot.tables.manager.FINISHED_KEPT", 2)
    manager = manager_on(MemoryStore())
    tables = []
    for n in range(4):
        table = await manager.create(guild_id=1, channel_id=THREAD + 10 * n, parent_id=CHANNEL, creator_id=ALICE,
                                     creator_name="Alice", size=3, deals=1, rules=RuleSet())
        await table.stop(ALICE)
        await table.settle()
        tables.append(table)
    running = await manager.create(guild_id=1, channel_id=OTHER_THREAD, parent_id=CHANNEL, creator_id=BOB,
                                   creator_name="Bob", size=3, deals=1, rules=RuleSet())
    assert sorted(manager.tables) == [tables[2].id, tables[3].id, running.id]
    assert manager.last_in_channel(THREAD + 30) is tables[3] and manager.last_in_channel(THREAD) is None
    await manager.close()
