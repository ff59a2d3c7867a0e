"""Any process serves any table: two bot processes (each its own storage connection pool and table manager,
as after a restart on two machines) share one PostgreSQL database. Every move is taken under the table's
advisory lock, checked against the log as stored, appended and committed before it returns; the process
that did not make the last move catches up from the log first. Two clicks at the same instant apply once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from skatbot.engine import RuleSet
from skatbot.engine.actions import Action
from skatbot.storage import PostgresStorage
from skatbot.tables import Table, TableError, TableState, TableTiming
from skatbot.tables.manager import ChannelBusy, TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.tables.replay import replay_log
from skatbot.wiring import StorageTables

PLAYERS = {21: "Anna", 22: "Bert", 23: "Carla"}
TIMING = TableTiming(turn_seconds=3600, warn_after=3000, kontra_window=0.0)


class Process:
    """One bot process: its own pool, store and manager."""

    def __init__(self, storage: PostgresStorage, seed: int) -> None:
        self.storage = storage
        self.store = StorageTables(storage)
        seeds = random.Random(seed)
        self.manager = TableManager(catalog=self.store, store=self.store, presenter=RecordingPresenter(),
                                    timing=TIMING, new_seed=lambda: seeds.randrange(1 << 40))


@pytest.fixture
def shared(schema_url: str) -> str:
    return schema_url


@pytest.fixture
async def processes(shared: str) -> AsyncIterator[tuple[Process, Process]]:
    first = Process(await PostgresStorage.open(shared), seed=1)
    second = Process(await PostgresStorage.open(shared), seed=2)
    try:
        yield first, second
    finally:
        for process in (first, second):
            await process.manager.close()
            await process.storage.close()


async def _open_table(process: Process) -> Table:
    for player_id, name in PLAYERS.items():
        await process.store.save_player(player_id=player_id, name=name, is_ai=False)
    table = await process.manager.create(guild_id=5, channel_id=50, creator_id=21, creator_name="Anna", size=3,
                                         deals=2, rules=RuleSet.preset("official"))
    await table.join(22, "Bert")
    await table.join(23, "Carla")
    await table.start(21)
    return table


def _whose_turn(table: Table) -> tuple[int, list[Action]] | None:
    game = table.game
    if game.state is not TableState.PLAYING or game.deal is None or game.deal.current_seat is None:
        return None
    occupant = game.occupant_of_seat(game.deal.current_seat)
    assert occupant.user_id is not None
    return occupant.user_id, list(game.deal.legal_actions())


async def test_two_processes_play_one_table_and_agree_with_the_log(processes: tuple[Process, Process]) -> None:
    first, second = processes
    table_a = await _open_table(first)
    table_b = await second.manager.load(table_a.id)  # the second process never saw the table: it replays the log
    assert table_b.game.deal_number == 0 and [str(e) for e in table_b.entries] == [str(e) for e in table_a.entries]
    assert await second.manager.load(table_a.id) is table_b
    rng = random.Random(4)
    moves = 0
    while True:
        here = rng.choice((table_a, table_b))
        turn = _whose_turn(here)
        if turn is None:  # this process's copy may be behind: a move through it catches up first
            other = table_b if here is table_a else table_a
            turn = _whose_turn(other)
            if turn is None:
                break
        user, actions = turn
        try:
            await here.act(user, rng.choice(actions))
            moves += 1
        except (TableError, ValueError):
            pass  # a move chosen from a stale copy is refused after catching up, changing nothing
    for table in (table_a, table_b):
        await table.settle()
    log = await first.storage.tables.log(table_id=table_a.id)
    stored = await first.storage.deals.for_table(table_id=table_a.id)
    replayed = replay_log(size=3, deals=2, rules=RuleSet.preset("official"), creator_id=21,
                          entries=[entry.entry for entry in log]).game
    assert replayed.state is TableState.FINISHED and moves > 20
    assert [record.deal_number for record in stored] == [1, 2]  # each deal stored once
    assert [r.place_scores for r in replayed.finished] == [
        tuple(s.score for s in sorted(record.scores, key=lambda s: list(PLAYERS).index(s.player_id)))
        for record in stored]
    # Whichever process made the last move, the other one is brought up to date by its next step.
    behind = table_a if len(table_a.entries) < len(log) else table_b
    with pytest.raises(TableError):
        await behind.join(24, "Dora")  # refused (the series is over), after catching up
    assert len(behind.entries) == len(log) and behind.game.state is TableState.FINISHED


async def test_clicks_at_the_same_instant_in_two_processes_apply_once(processes: tuple[Process, Process]) -> None:
    first, second = processes
    table_a = await _open_table(first)
    [table_b] = await second.manager.restore()  # after a restart, the second process restores it too
    for _ in range(5):
        turn = _whose_turn(table_a)
        assert turn is not None
        user, actions = turn
        action = actions[0]
        before = len(await first.storage.tables.log(table_id=table_a.id))
        results = await asyncio.gather(table_a.act(user, action), table_b.act(user, action),
                                       return_exceptions=True)
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(refused) == 1 and isinstance(refused[0], (TableError, ValueError)), results
        log = await first.storage.tables.log(table_id=table_a.id)
        assert len(log) == before + 1 and log[-1].entry.endswith(str(action))
        assert [e.seq for e in log] == list(range(len(log)))
        # The refused click was refused by the game (not by a clash in the log): its process had caught up
        # under the lock first, so both copies are exactly the log.
        for table in (table_a, table_b):
            assert [str(e) for e in table.entries] == [e.entry for e in log]


async def test_a_process_that_does_not_hold_a_table_finds_it_by_channel_and_by_player(
        processes: tuple[Process, Process]) -> None:
    first, second = processes
    table_a = await _open_table(first)
    assert second.manager.tables == {}
    found = await second.manager.find_in_channel(50)  # a slash command in the table's channel
    assert found is not None and found.id == table_a.id
    assert await second.manager.find_in_channel(51) is None
    mine = await second.manager.playing_at(22)  # a slash command in Bert's DMs names no table
    assert mine is found and await second.manager.playing_at(99) is None
    with pytest.raises(ChannelBusy):  # the channel is taken, though not by a table of this process
        await second.manager.create(guild_id=5, channel_id=50, creator_id=22, creator_name="Bert", size=3,
                                    deals=1, rules=RuleSet())
    for _ in range(3):  # the first process moves on; the second's copy is caught up when it is looked up again
        turn = _whose_turn(table_a)
        assert turn is not None
        await table_a.act(turn[0], turn[1][0])
    assert len(found.entries) < len(table_a.entries)
    assert await second.manager.playing_at(23) is found
    assert [str(e) for e in found.entries] == [str(e) for e in table_a.entries]
    await table_a.stop(21)
    assert await second.manager.find_in_channel(50) is None and await second.manager.playing_at(22) is None
    last = await second.manager.find_in_channel(50, finished_too=True)  # its list stays for /skat list
    assert last is found and last.game.state is TableState.ABANDONED
    newer = await _open_table(first)  # the channel's next table, while the second still holds the old one
    again = await second.manager.find_in_channel(50)
    assert again is not None and again.id == newer.id != found.id
    assert await second.manager.playing_at(21) is again


async def test_one_process_at_a_time_shows_a_table(processes: tuple[Process, Process]) -> None:
    first, second = processes
    table = await _open_table(first)
    entered: list[str] = []

    async def show(process: Process, name: str) -> None:
        async with process.storage.presentation.presenting(table_id=table.id):
            entered.append(name)

    async with first.storage.presentation.presenting(table_id=table.id):
        waiting = asyncio.create_task(show(second, "second"))
        done, _ = await asyncio.wait([waiting], timeout=0.3)
        assert not done and entered == []  # the other process waits while this one shows the table
        async with first.storage.presentation.presenting(table_id=table.id + 1):
            entered.append("another table")  # another table is not held up
    await waiting
    assert entered == ["another table", "second"]
