"""Tables survive a restart: the manager rebuilds them from the stored log, with SQLite underneath."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from skatbot.ai import Level
from skatbot.engine import RuleSet
from skatbot.storage import SqliteStorage
from skatbot.tables import TableState
from skatbot.tables import events as ev
from skatbot.tables.manager import ChannelBusy, TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.wiring import StorageTables
from tests.tables.kit import InlineExecutor, ManualClock
from tests.tables.memory_store import MemoryStore

ALICE, BOB = 100, 101


def manager_on(store: StorageTables | MemoryStore, clock: ManualClock, seed: int = 1) -> TableManager:
    seeds = random.Random(seed)
    return TableManager(catalog=store, store=store, presenter=RecordingPresenter(),
                        executor=InlineExecutor(), sleep=clock.sleep, new_seed=lambda: seeds.randrange(1 << 40))


async def play_steps(manager: TableManager, table_id: int, steps: int, rng: random.Random) -> None:
    """Alice acts (seeded random legal actions) `steps` times; the AIs answer in between."""
    table = manager.get(table_id)
    for _ in range(steps):
        await table.settle()
        deal = table.game.deal
        if table.game.state is not TableState.PLAYING or deal is None or deal.current_seat is None:
            return
        if table.game.occupant_of_seat(deal.current_seat).user_id == ALICE:
            actions = deal.legal_actions()
            await table.act(ALICE, actions[rng.randrange(len(actions))])


async def test_one_table_per_channel_and_clear_errors(ai_first_legal: None) -> None:
    store, clock = MemoryStore(), ManualClock()
    manager = manager_on(store, clock)
    table = await manager.create(guild_id=1, channel_id=5, creator_id=ALICE, creator_name="Alice", size=3,
                                 deals=3, rules=RuleSet())
    with pytest.raises(ChannelBusy):
        await manager.create(guild_id=1, channel_id=5, creator_id=BOB, creator_name="Bob", size=3, deals=3,
                             rules=RuleSet())
    assert manager.in_channel(5) is table and manager.in_channel(6) is None
    assert [o.name for o in table.game.places] == ["Alice"]


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_a_restart_rebuilds_the_table_and_the_series_finishes_counted_once(
        backend: str, tmp_path: Path, ai_first_legal: None) -> None:
    clock = ManualClock()
    database = tmp_path / "skat.sqlite3"
    storage = await SqliteStorage.open(database) if backend == "sqlite" else None
    store: StorageTables | MemoryStore = StorageTables(storage) if storage is not None else MemoryStore()
    if isinstance(store, StorageTables):
        await store.save_player(player_id=ALICE, name="Alice", is_ai=False)
    manager = manager_on(store, clock)
    table = await manager.create(guild_id=1, channel_id=5, creator_id=ALICE, creator_name="Alice", size=3,
                                 deals=3, rules=RuleSet())
    await table.add_ai(ALICE, Level.NORMAL)
    await table.add_ai(ALICE, Level.EASY)
    await table.start(ALICE)
    rng = random.Random(8)
    await play_steps(manager, table.id, 12, rng)
    before = table.game
    history = list(before.deal.history) if before.deal else []
    number = before.deal_number
    await manager.close()
    if storage is not None:  # the process goes away; a new one opens the same file
        await storage.close()
        storage = await SqliteStorage.open(database)
        store = StorageTables(storage)

    restarted = manager_on(store, clock, seed=2)
    restored = await restarted.restore()
    assert [t.id for t in restored] == [table.id]
    again = restored[0]
    assert again.game.deal_number == number
    assert again.game.deal is not None and again.game.deal.history[:len(history)] == history
    assert [o.name for o in again.game.places] == [o.name for o in before.places]
    await play_steps(restarted, table.id, 400, rng)
    await again.settle()
    assert again.game.state is TableState.FINISHED
    if storage is not None:
        records = await storage.deals.for_table(table_id=table.id)
        assert sorted(r.deal_number for r in records) == [1, 2, 3]
        totals = [sum(s.score for r in records for s in r.scores if s.player_id == o.player_id)
                  for o in again.game.places]
        assert totals == again.game.totals()
        await storage.close()
    else:
        assert isinstance(store, MemoryStore)
        assert sorted(n for _, n in store.deals) == [0, 1, 2]


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_a_table_held_by_another_manager_is_found_by_channel_and_by_player(
        backend: str, tmp_path: Path, ai_first_legal: None) -> None:
    """Two managers on one store, as two processes: the one that did not open the table finds it for a
    command in its channel or in a player's DMs, and sees it end."""
    clock = ManualClock()
    storage = await SqliteStorage.open(tmp_path / "skat.sqlite3") if backend == "sqlite" else None
    store: StorageTables | MemoryStore = StorageTables(storage) if storage is not None else MemoryStore()
    if isinstance(store, StorageTables):
        await store.save_player(player_id=ALICE, name="Alice", is_ai=False)
    opener, other = manager_on(store, clock), manager_on(store, clock, seed=2)
    try:
        table = await opener.create(guild_id=1, channel_id=5, creator_id=ALICE, creator_name="Alice", size=3,
                                    deals=1, rules=RuleSet())
        lobby = await other.find_in_channel(5)
        assert lobby is not None and lobby.id == table.id and await other.playing_at(ALICE) is None  # not yet playing
        await table.add_ai(ALICE, Level.NORMAL)
        await table.add_ai(ALICE, Level.EASY)
        await table.start(ALICE)
        mine = await other.playing_at(ALICE)
        assert mine is lobby and mine.game.state is TableState.PLAYING  # caught up with the start
        assert await other.find_in_channel(6) is None and await other.playing_at(BOB) is None
        await table.stop(ALICE)
        assert await other.find_in_channel(5) is None and await other.playing_at(ALICE) is None
        last = await other.find_in_channel(5, finished_too=True)
        assert last is lobby and last.game.state is TableState.ABANDONED
    finally:
        await opener.close()
        await other.close()
        if storage is not None:
            await storage.close()


async def test_a_restore_announces_only_the_tables_of_the_servers_it_serves(ai_first_legal: None) -> None:
    store, clock = MemoryStore(), ManualClock()
    first = manager_on(store, clock)
    for guild in (1, 2):
        table = await first.create(guild_id=guild, channel_id=guild * 10, creator_id=ALICE, creator_name="Alice",
                                   size=3, deals=1, rules=RuleSet())
        await table.add_ai(ALICE, Level.NORMAL)
        await table.add_ai(ALICE, Level.EASY)
        await table.start(ALICE)
    await first.close()
    again = manager_on(store, clock, seed=2)
    restored = await again.restore(serves=lambda guild_id: guild_id == 2)
    for table in restored:
        await table.settle()
    assert sorted(table.guild_id for table in restored) == [1, 2]  # both go on here (AI turns, timers)
    presenter = again.presenter
    assert isinstance(presenter, RecordingPresenter)
    announced = {table_id for table_id, batch in presenter.batches for e in batch if isinstance(e, ev.TableResumed)}
    assert announced == {t.id for t in restored if t.guild_id == 2}
    await again.close()


async def test_a_table_is_stored_whole_with_its_creator_seated_or_not_at_all(tmp_path: Path) -> None:
    """The table row, its creator and its first entries (the join, the hints) go in one write: when the log
    cannot be written, no table is stored, held or shown, and the channel stays free."""
    async with await SqliteStorage.open(tmp_path / "skat.sqlite3") as storage:
        await storage.database.connection.execute(
            "CREATE TRIGGER refuse_log BEFORE INSERT ON table_log BEGIN SELECT RAISE(ABORT, 'refused'); END")
        await storage.database.connection.commit()
        store, clock = StorageTables(storage), ManualClock()
        manager = manager_on(store, clock)
        assert isinstance(manager.presenter, RecordingPresenter)
        with pytest.raises(sqlite3.IntegrityError, match="refused"):
            await manager.create(guild_id=1, channel_id=5, creator_id=ALICE, creator_name="Alice", size=3,
                                 deals=3, rules=RuleSet(), hints=True)
        assert await storage.tables.all_ids() == [] and manager.tables == {}
        assert manager.presenter.batches == []
        await storage.database.connection.execute("DROP TRIGGER refuse_log")
        await storage.database.connection.commit()
        table = await manager.create(guild_id=1, channel_id=5, creator_id=ALICE, creator_name="Alice", size=3,
                                     deals=3, rules=RuleSet(), hints=True)
        await table.settle()
        assert [e.entry for e in await storage.tables.log(table_id=table.id)] == [f"join {ALICE} Alice", "hints"]
        assert (await storage.players.get(player_id=ALICE)).display_name == "Alice"
        assert manager.presenter.batches == [(table.id, [ev.LobbyChanged()])]
        restarted = manager_on(StorageTables(storage), clock)
        [again] = await restarted.restore()
        assert [o.name for o in again.game.places] == ["Alice"] and again.game.hints
