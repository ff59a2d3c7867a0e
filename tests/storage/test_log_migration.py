"""Migration 0005: a database whose table logs version 4 stored as (kind, payload) rows comes back with
exactly the tables layer's own text entries under the table's own sequence numbers, and its unfinished
tables restore through the one replayer (tables/replay.py) as they were.

The old database is a dump of one that the old code path wrote by playing through the tables layer
(tests/data/storage/README.md says how it was made).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from skatbot.models import counted
from skatbot.storage import MigrationError, SqliteStorage
from skatbot.storage.__main__ import main
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.wiring import StorageTables
from tests.storage.storage_helpers import schema_version

DATA = Path(__file__).parents[1] / "data" / "storage"


def _old_database(path: Path) -> dict[int, dict[str, Any]]:
    with closing(sqlite3.connect(path)) as connection:
        connection.executescript((DATA / "schema4_tables.sql").read_text(encoding="utf-8"))
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 4
    expected = json.loads((DATA / "schema4_tables.json").read_text(encoding="utf-8"))
    return {int(table_id): table for table_id, table in expected.items()}


def _as_older_tables_kept_the_size(path: Path, table_id: int) -> None:
    """Before the `seats N` row, the size sat in the stored rules and the log began at sequence number 0."""
    with closing(sqlite3.connect(path)) as connection, connection:
        [size] = connection.execute("SELECT substr(payload, 7) FROM table_log WHERE table_id = ? AND seq = 0",
                                    (table_id,)).fetchone()
        connection.execute("UPDATE tables SET rules_json = json_set(rules_json, '$._table_seats', ?) "
                           "WHERE table_id = ?", (int(size), table_id))
        connection.execute("DELETE FROM table_log WHERE table_id = ? AND seq = 0", (table_id,))
        connection.execute("UPDATE table_log SET seq = seq + 100000 WHERE table_id = ?", (table_id,))
        connection.execute("UPDATE table_log SET seq = seq - 100001 WHERE table_id = ?", (table_id,))


async def test_old_logs_become_the_tables_own_entries_and_unfinished_tables_restore(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.sqlite3"
    expected = _old_database(path)
    _as_older_tables_kept_the_size(path, 2)
    storage = await SqliteStorage.open(path)
    try:
        assert await schema_version(storage.database) >= 5
        for table_id, table in expected.items():
            log = await storage.tables.log(table_id=table_id)
            assert [entry.entry for entry in log] == table["entries"], f"table {table_id}"
            assert [entry.seq for entry in log] == list(range(len(log)))
            stored = await storage.tables.get(table_id=table_id)
            assert stored.size == (4 if table_id == 2 else 3)
            assert "_table_seats" not in stored.rules
        store = StorageTables(storage)
        manager = TableManager(catalog=store, store=store, presenter=RecordingPresenter())
        restored = {table.id: table for table in await manager.restore()}
        assert sorted(restored) == sorted(t for t, table in expected.items() if table["state"] in ("open", "playing"))
        for table_id, restored_table in restored.items():
            game = restored_table.game
            assert (game.state.value, game.deal_number, len(game.finished)) == (
                expected[table_id]["state"], expected[table_id]["deal_number"], expected[table_id]["finished"])
            assert [str(entry) for entry in restored_table.entries] == expected[table_id]["entries"]
        await manager.close()
    finally:
        await storage.close()
    assert await asyncio.to_thread(main, ["--database", str(path), "check"]) == 0
    assert f" in {counted(len(expected), 'table')}: ok" in capsys.readouterr().out


async def test_a_deal_row_without_a_seed_refuses_the_upgrade_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _old_database(path)
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE table_log SET payload = '{\"hands\": []}' WHERE table_id = 1 AND kind = 'deal'")
    with pytest.raises(MigrationError, match="0005"):
        await SqliteStorage.open(path)
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 4
        assert connection.execute("SELECT COUNT(*) FROM table_log WHERE kind = 'deal'").fetchone()[0] > 0
