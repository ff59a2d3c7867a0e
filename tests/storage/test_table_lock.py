"""A table's locks on PostgreSQL (session advisory locks on pooled connections, for its steps and for showing
it): a wait that is cancelled halfway, or a holder whose block fails, never leaves the table locked. On both
backends: the log read with the lock is the log as stored once it is held."""

from __future__ import annotations

import asyncio

import pytest

from skatbot.storage import PostgresStorage, Storage
from tests.storage.test_postgres_busy import NOW, open_table


async def test_a_cancelled_wait_for_a_table_lock_leaves_the_table_free(schema_url: str) -> None:
    storage = await PostgresStorage.open(schema_url)
    try:
        database = storage.database
        holding, release = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with database.table_lock(7):
                holding.set()
                await release.wait()

        holder = asyncio.create_task(hold())
        await holding.wait()

        async def wait_for_it() -> None:
            async with database.table_lock(7):
                pytest.fail("the lock was taken while held")

        waiter = asyncio.create_task(wait_for_it())
        await asyncio.sleep(0.2)  # the waiter is blocked in pg_advisory_lock
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        release.set()
        await holder
        for _ in range(3):  # every pooled connection, whoever held it, hands the table out again
            async with asyncio.timeout(30):
                async with database.table_lock(7):
                    pass
    finally:
        await storage.close()


async def test_a_failing_block_releases_the_table(schema_url: str) -> None:
    storage = await PostgresStorage.open(schema_url)
    try:
        with pytest.raises(RuntimeError):
            async with storage.database.table_lock(8):
                raise RuntimeError("the step failed")
        with pytest.raises(RuntimeError):
            async with storage.database.presentation_lock(8):
                raise RuntimeError("showing failed")
        other = await PostgresStorage.open(schema_url)  # another process takes both at once
        try:
            async with asyncio.timeout(30):
                async with other.database.table_lock(8), other.database.presentation_lock(8):
                    pass
        finally:
            await other.close()
    finally:
        await storage.close()


async def test_the_log_read_with_the_lock_is_what_was_stored_before_it_was_taken(storage: Storage) -> None:
    """A step is checked against the log as stored when its lock is held: what another writer appended while
    this one waited for the lock is in what the lock hands over, and nothing before `since`."""
    table_id = await open_table(storage)
    holding, release = asyncio.Event(), asyncio.Event()

    async def other_writer() -> None:
        async with storage.tables.lock(table_id=table_id):
            holding.set()
            await release.wait()
            await storage.tables.append(table_id=table_id, seq=1, entry="add-ai normal", now=NOW)

    other = asyncio.create_task(other_writer())
    await holding.wait()

    async def this_step() -> list[str]:
        async with storage.tables.locked_log(table_id=table_id, since=1) as stored:
            return [entry.entry for entry in stored]

    step = asyncio.create_task(this_step())
    await asyncio.sleep(0.1)
    assert not step.done(), "the lock was handed over while another writer held it"
    release.set()
    await other
    assert await step == ["add-ai normal"]
    async with storage.tables.locked_log(table_id=table_id, since=2) as stored:
        assert stored == ()
