"""The PostgreSQL database thread: a write runs there, its errors come back to the caller, a cancelled caller
cancels it, and closing the database ends the thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from skatbot.storage import PostgresStorage
from skatbot.storage.postgres.io import IOThread


async def test_work_runs_on_the_thread_and_its_errors_come_back() -> None:
    io = IOThread(name="test-io")
    try:
        async def where() -> str:
            return threading.current_thread().name

        assert await io.run(where()) == "test-io"

        async def fails() -> None:
            raise LookupError("no such row")

        with pytest.raises(LookupError, match="no such row"):
            await io.run(fails())
    finally:
        io.stop()


async def test_a_cancelled_caller_cancels_the_work_on_the_thread() -> None:
    io = IOThread()
    started, cancelled = threading.Event(), threading.Event()
    try:
        async def slow() -> None:
            started.set()
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                cancelled.set()
                raise

        task = asyncio.create_task(io.run(slow()))
        await asyncio.to_thread(started.wait, 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await asyncio.to_thread(cancelled.wait, 5), "the work went on after its caller gave up"
    finally:
        io.stop()


async def test_writes_and_reads_leave_the_callers_loop_and_closing_ends_the_thread(schema_url: str) -> None:
    before = {thread.name for thread in threading.enumerate()}
    storage = await PostgresStorage.open(schema_url)
    io = storage.database.io
    assert io is not None
    assert "skatbot-postgres" in {thread.name for thread in threading.enumerate()} - before
    names = await storage.database.fetch_all("SELECT current_setting('application_name') AS name")
    assert len(names) == 1
    await storage.close()
    assert "skatbot-postgres" not in {thread.name for thread in threading.enumerate()} - before
    with pytest.raises(RuntimeError, match="stopped"):
        await storage.database.fetch_all("SELECT 1")
