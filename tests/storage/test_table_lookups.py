"""Finding a table without holding it (any process serves any table), on both backends: the one running in a
channel or thread, the newest one there for read-only commands, and the tables a player is seated at."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from skatbot.storage import Player, PostgresStorage, TableState
from tests.storage.storage_helpers import NOW, AnyStorage, add_players

ANNA, BERT, CARLA, DIRK = Player(1, "Anna"), Player(2, "Bert"), Player(3, "Carla"), Player(4, "Dirk")


async def _table(storage: AnyStorage, channel_id: int = 20, thread_id: int | None = None,
                 seats: tuple[int, ...] = (), state: TableState = TableState.OPEN) -> int:
    await add_players(storage, ANNA, BERT, CARLA, DIRK)
    table = await storage.tables.create(server_id=10, channel_id=channel_id, creator_id=1, rule_preset="official",
                                        rules={}, series_length=2, now=NOW, thread_id=thread_id, seats=seats)
    if state is not TableState.OPEN:
        await storage.tables.set_state(table_id=table.table_id, state=state, now=NOW)
    return table.table_id


async def test_the_running_table_of_a_channel_is_found_and_a_thread_keeps_its_own(storage: AnyStorage) -> None:
    finished = await _table(storage, state=TableState.FINISHED)
    running = await _table(storage, state=TableState.PLAYING)
    in_thread = await _table(storage, thread_id=99)
    assert await storage.tables.running_in(channel_id=20) == [running]  # not the thread opened from it
    assert await storage.tables.running_in(channel_id=99) == [in_thread]
    assert await storage.tables.running_in(channel_id=21) == []
    await storage.tables.set_state(table_id=running, state=TableState.ABANDONED, now=NOW)
    assert await storage.tables.running_in(channel_id=20) == []
    assert finished < running


async def test_a_channels_last_table_is_found_in_any_state_and_a_thread_keeps_its_own(storage: AnyStorage) -> None:
    first = await _table(storage, state=TableState.FINISHED)
    second = await _table(storage, state=TableState.ABANDONED)
    in_thread = await _table(storage, thread_id=99, state=TableState.FINISHED)
    assert await storage.tables.last_in(channel_id=20) == second
    assert await storage.tables.last_in(channel_id=99) == in_thread
    assert await storage.tables.last_in(channel_id=21) is None
    assert first < second


async def test_the_tables_a_player_plays_at_are_those_playing_with_a_seat_of_theirs(storage: AnyStorage) -> None:
    playing = await _table(storage, seats=(1, 2, 3), state=TableState.PLAYING)
    elsewhere = await _table(storage, channel_id=30, seats=(2, 3, 4), state=TableState.PLAYING)
    await _table(storage, channel_id=40, seats=(1, 4), state=TableState.OPEN)  # a lobby: not playing yet
    await _table(storage, channel_id=50, seats=(1, 2, 3), state=TableState.FINISHED)
    await _table(storage, channel_id=60, seats=(4, 1, 2), state=TableState.ABANDONED)
    assert await storage.tables.playing_with(player_id=1) == [playing]
    assert await storage.tables.playing_with(player_id=2) == [playing, elsewhere]
    assert await storage.tables.playing_with(player_id=4) == [elsewhere]
    assert await storage.tables.playing_with(player_id=5) == []


async def _plan(storage: AnyStorage, lookup: Callable[[], Awaitable[object]]) -> str:
    """How the database runs the query behind `lookup` (its plan as text), with sequential scans
    discouraged on PostgreSQL, whose planner reads a handful of rows without an index anyway."""
    database = storage.tables._db
    asked: list[tuple[str, Any]] = []
    fetch_all = database.fetch_all

    async def recording(sql: str, params: Any = ()) -> list[Any]:
        asked.append((sql, params))
        return await fetch_all(sql, params)

    database.fetch_all = recording  # type: ignore[method-assign]
    try:
        await lookup()
    finally:
        database.fetch_all = fetch_all  # type: ignore[method-assign]
    [(sql, params)] = asked
    async with database.transaction() as connection:
        if isinstance(storage, PostgresStorage):
            await connection.execute("SET LOCAL enable_seqscan = off")
            rows = await connection.execute_fetchall(f"EXPLAIN {sql}", params)
        else:
            rows = await connection.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
    return "\n".join(str(tuple(row)) for row in rows)


async def test_a_channels_tables_are_looked_up_by_index_not_by_reading_every_table(storage: AnyStorage) -> None:
    """`/skat list` looks up the newest table of a channel or thread: by the channel and thread indexes
    (migration 0010), not by reading every table the bot ever hosted."""
    for channel in range(30, 60):
        await _table(storage, channel_id=channel, state=TableState.FINISHED)
    await _table(storage, thread_id=99)
    plan = await _plan(storage, lambda: storage.tables.last_in(channel_id=20))
    assert "tables_by_channel" in plan and "tables_by_thread" in plan, plan
