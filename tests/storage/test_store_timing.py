"""The tables' store (skatbot.wiring) as benchmarks/bot_load reads it: with the logger `skatbot.timing` at
DEBUG each append and catch-up read is logged with its table and duration. A SQLite file has one writer,
so once this process has read or written a table's log it reads nothing more to catch up; on PostgreSQL
another process may have appended, so every step reads, and finds what the other process wrote."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime

import pytest

from skatbot.engine import RuleSet
from skatbot.storage import PostgresStorage, Storage
from skatbot.wiring import StorageTables

APPEND = re.compile(r"^append table=(\d+) seq=(\d+) ms=\d+\.\d{3}$")
CATCH_UP = re.compile(r"^catch_up table=(\d+) entries=(\d+) ms=\d+\.\d{3}$")
NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


async def test_appends_and_catch_up_reads_are_logged_with_their_time(storage: Storage,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    store = StorageTables(storage, clock=lambda: NOW)
    await store.save_player(player_id=3, name="Anna", is_ai=False)
    table_id = await store.create_table(guild_id=1, channel_id=2, creator_id=3, size=3, deals=1,
                                        rules=RuleSet.preset("official"))
    with caplog.at_level(logging.DEBUG, logger="skatbot.timing"):
        assert await store.entries_since(table_id=table_id, seq=0) == []
        await store.append_log(table_id=table_id, seq=0, entry="join 3 Anna")
        await store.append_log(table_id=table_id, seq=1, entry="join 4 Bert")
        assert await store.entries_since(table_id=table_id, seq=2) == []
    lines = [record.getMessage() for record in caplog.records if record.name == "skatbot.timing"]
    appends = [APPEND.match(line) for line in lines if line.startswith("append")]
    reads = [CATCH_UP.match(line) for line in lines if line.startswith("catch_up")]
    assert [(int(m[1]), int(m[2])) for m in appends if m] == [(table_id, 0), (table_id, 1)]
    expected_reads = [(table_id, 0)] if not storage.shared else [(table_id, 0), (table_id, 0)]
    assert [(int(m[1]), int(m[2])) for m in reads if m] == expected_reads
    assert len(lines) == len(appends) + len(reads) and all(appends) and all(reads)


async def test_nothing_is_logged_unless_asked(storage: Storage, caplog: pytest.LogCaptureFixture) -> None:
    store = StorageTables(storage, clock=lambda: NOW)
    await store.save_player(player_id=3, name="Anna", is_ai=False)
    table_id = await store.create_table(guild_id=1, channel_id=2, creator_id=3, size=3, deals=1,
                                        rules=RuleSet.preset("official"))
    with caplog.at_level(logging.INFO):
        await store.append_log(table_id=table_id, seq=0, entry="join 3 Anna")
        await store.entries_since(table_id=table_id, seq=0)
    assert not [record for record in caplog.records if record.name == "skatbot.timing"]


async def test_a_shared_store_catches_up_with_what_another_process_appended(schema_url: str) -> None:
    first, second = await PostgresStorage.open(schema_url), await PostgresStorage.open(schema_url)
    try:
        ours, theirs = StorageTables(first, clock=lambda: NOW), StorageTables(second, clock=lambda: NOW)
        await ours.save_player(player_id=3, name="Anna", is_ai=False)
        table_id = await ours.create_table(guild_id=1, channel_id=2, creator_id=3, size=3, deals=1,
                                           rules=RuleSet.preset("official"))
        await ours.append_log(table_id=table_id, seq=0, entry="join 3 Anna")
        await theirs.append_log(table_id=table_id, seq=1, entry="join 4 Bert")
        assert await ours.entries_since(table_id=table_id, seq=1) == ["join 4 Bert"]
    finally:
        await first.close()
        await second.close()
