"""A slow or unreachable PostgreSQL is busy, as a locked SQLite file is: a server that refuses connections, a
pool with no connection free, a statement held up by another session's lock past the wait, a table held by
another process past its wait, all raise StoreBusy quickly, write nothing, and the same step works once the
server answers again."""

from __future__ import annotations

import asyncio
import socket
import time
from datetime import UTC, datetime

import asyncpg
import pytest

from skatbot.storage import Player, PostgresStorage, Storage, StoreBusy
from skatbot.storage.postgres.database import TABLE_LOCKS, PostgresDatabase
from tests.storage.storage_helpers import add_players

NOW = datetime(2026, 12, 1, tzinfo=UTC)
WAIT = 0.5  # the busy wait these tests give the storage (the bot's is 5 s)


def closed_port() -> int:
    """A local port nobody listens on (bound for a moment, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def open_table(storage: Storage) -> int:
    await add_players(storage, Player(3, "alice"))
    table = await storage.tables.create(server_id=1, channel_id=2, creator_id=3, rule_preset="official", rules={},
                                        series_length=1, now=NOW)
    await storage.tables.append(table_id=table.table_id, seq=0, entry="join 3 alice", now=NOW)
    return table.table_id


async def entries(storage: PostgresStorage, table_id: int) -> list[str]:
    return [e.entry for e in await storage.tables.log(table_id=table_id, since=0)]


async def test_a_server_that_refuses_connections_is_busy_not_a_crash() -> None:
    url = f"postgresql://skatbot@127.0.0.1:{closed_port()}/skatbot"
    pool = await asyncpg.create_pool(url, min_size=0, max_size=2)  # connects only when asked
    lock_pool = await asyncpg.create_pool(url, min_size=0, max_size=2)
    storage = PostgresStorage(PostgresDatabase(pool, url, lock_pool, busy_seconds=WAIT))
    try:
        started = time.monotonic()
        with pytest.raises(StoreBusy, match="no connection"):
            await storage.tables.append(table_id=1, seq=0, entry="join 3 alice", now=NOW)
        with pytest.raises(StoreBusy):
            await storage.tables.log(table_id=1, since=0)
        with pytest.raises(StoreBusy):
            async with storage.tables.lock(table_id=1):
                pytest.fail("a table locked on a server that is not there")
        assert time.monotonic() - started < 10 * WAIT
    finally:
        await storage.close()


async def test_a_pool_with_no_connection_free_is_busy_after_the_wait(schema_url: str) -> None:
    storage = await PostgresStorage.open(schema_url, busy_seconds=WAIT)
    try:
        table_id = await open_table(storage)
        database = storage.database
        pool, io = database.io_pool, database.io  # the writes' pool, on the database thread
        assert pool is not None and io is not None

        async def take_all() -> list[asyncpg.Connection]:
            return [await pool.acquire() for _ in range(pool.get_max_size())]

        async def give_back(held: list[asyncpg.Connection]) -> None:
            for connection in held:
                await pool.release(connection)

        held = await io.run(take_all())
        try:
            with pytest.raises(StoreBusy, match="no connection"):
                await storage.tables.append(table_id=table_id, seq=1, entry="add-ai normal", now=NOW)
        finally:
            await io.run(give_back(held))
        assert await entries(storage, table_id) == ["join 3 alice"], "nothing written"
        await storage.tables.append(table_id=table_id, seq=1, entry="add-ai normal", now=NOW)
        assert await entries(storage, table_id) == ["join 3 alice", "add-ai normal"]
    finally:
        await storage.close()


async def test_a_write_held_up_by_another_sessions_lock_times_out_as_busy_and_writes_nothing(
        schema_url: str) -> None:
    storage = await PostgresStorage.open(schema_url, busy_seconds=WAIT)
    holder = await asyncpg.connect(schema_url)
    try:
        table_id = await open_table(storage)
        transaction = holder.transaction()
        await transaction.start()
        await holder.execute("LOCK TABLE table_log IN EXCLUSIVE MODE")  # as a maintenance job might
        try:
            with pytest.raises(StoreBusy, match="did not answer in time"):
                await storage.tables.append(table_id=table_id, seq=1, entry="add-ai normal", now=NOW)
            assert await entries(storage, table_id) == ["join 3 alice"], "reads still go on"
        finally:
            await transaction.rollback()
        await storage.tables.append(table_id=table_id, seq=1, entry="add-ai normal", now=NOW)
        assert await entries(storage, table_id) == ["join 3 alice", "add-ai normal"]
    finally:
        await holder.close()
        await storage.close()


async def test_a_table_held_by_another_process_past_the_wait_is_busy_and_free_afterwards(schema_url: str) -> None:
    storage = await PostgresStorage.open(schema_url, busy_seconds=WAIT, table_lock_seconds=WAIT)
    other = await asyncpg.connect(schema_url)  # another bot process, stuck while holding table 9
    try:
        await other.execute("SELECT pg_advisory_lock($1, $2)", TABLE_LOCKS, 9)
        with pytest.raises(StoreBusy):
            async with storage.tables.lock(table_id=9):
                pytest.fail("the table was taken while held")
        await other.execute("SELECT pg_advisory_unlock($1, $2)", TABLE_LOCKS, 9)
        for _ in range(3):  # no pooled connection was left holding or waiting for it
            async with asyncio.timeout(5):
                async with storage.tables.lock(table_id=9):
                    pass
    finally:
        await other.close()
        await storage.close()


async def test_the_bot_waits_five_seconds_and_the_maintenance_commands_as_long_as_it_takes(schema_url: str) -> None:
    bot = await PostgresStorage.open(schema_url)
    patient = await PostgresStorage.open(schema_url, busy_seconds=None)
    try:
        assert [row[0] for row in await bot.database.fetch_all("SHOW statement_timeout")] == ["5s"]
        assert [row[0] for row in await patient.database.fetch_all("SHOW statement_timeout")] == ["0"]
    finally:
        await bot.close()
        await patient.close()
