"""The connection and the migrations: pragmas, upgrade of an older file, refusal of a newer one."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from skatbot.storage import MigrationError, Player, SchemaTooNew, SqliteStorage, Storage, StoreBusy
from skatbot.storage.database import CHECKPOINT_EVERY, MIGRATIONS, Database, load_migrations, split_statements
from skatbot.storage.sql.connection import INTEGRITY_ERRORS, SqlDatabase, Statement
from skatbot.storage.sql.storage import SqlStorage
from tests.storage.storage_helpers import NOW, schema_version


def _copy_migrations(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, folder)
    return folder


async def pragma(connection: aiosqlite.Connection, statement: str) -> object:
    """The value a PRAGMA statement reads (it always returns a row)."""
    row = await (await connection.execute(statement)).fetchone()
    assert row is not None
    return row[0]


async def test_a_new_file_gets_wal_foreign_keys_and_the_latest_schema(tmp_path: Path) -> None:
    database = await Database.open(tmp_path / "new.sqlite3")
    try:
        connection = database.connection
        assert await pragma(connection, "PRAGMA journal_mode") == "wal"
        assert await pragma(connection, "PRAGMA foreign_keys") == 1
        assert await pragma(connection, "PRAGMA busy_timeout") == 5000
        assert await schema_version(database) == len(load_migrations())
    finally:
        await database.close()


async def test_opening_twice_applies_nothing_twice(tmp_path: Path) -> None:
    for _ in range(2):
        storage = await SqliteStorage.open(tmp_path / "twice.sqlite3")
        assert await schema_version(storage.database) == len(load_migrations())
        await storage.close()


async def test_an_older_database_upgrades_itself_keeping_its_rows(tmp_path: Path) -> None:
    folder = _copy_migrations(tmp_path)
    path = tmp_path / "old.sqlite3"
    storage = await SqliteStorage.open(path, migrations=folder)
    await storage.database.connection.execute(
        "INSERT INTO players (player_id, display_name, is_ai, updated_at) VALUES (5, 'Anna', 0, 0)")
    await storage.close()
    version = len(load_migrations(folder))
    (folder / f"{version + 1:04d}_nicknames.sql").write_text(
        "-- a later version adds a column\nALTER TABLE players ADD COLUMN nickname TEXT;\n"
        "CREATE INDEX players_by_nickname ON players (nickname);\n", encoding="utf-8")
    upgraded = await SqliteStorage.open(path, migrations=folder)
    try:
        assert await schema_version(upgraded.database) == version + 1
        rows = await upgraded.database.fetch_all("SELECT display_name, nickname FROM players")
        assert [tuple(row) for row in rows] == [("Anna", None)]
    finally:
        await upgraded.close()


async def test_a_failing_migration_changes_nothing(tmp_path: Path) -> None:
    folder = _copy_migrations(tmp_path)
    path = tmp_path / "failing.sqlite3"
    await (await SqliteStorage.open(path, migrations=folder)).close()
    version = len(load_migrations(folder))
    (folder / f"{version + 1:04d}_half.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n", encoding="utf-8")
    with pytest.raises(MigrationError, match="_half.sql failed.*no such table"):
        await SqliteStorage.open(path, migrations=folder)
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == version
        assert connection.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'half_done'").fetchone()[0] == 0


async def test_a_database_from_a_newer_skatbot_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    storage = await SqliteStorage.open(path)
    await storage.close()
    latest = len(load_migrations())
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {latest + 3}")
    with pytest.raises(SchemaTooNew, match=rf"schema version {latest + 3}.*only up to version {latest}"):
        await SqliteStorage.open(path)
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == latest + 3


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    folder = _copy_migrations(tmp_path)
    gap = folder / f"{len(load_migrations()) + 2:04d}_later.sql"  # one number skipped
    gap.write_text("SELECT 1;", encoding="utf-8")
    with pytest.raises(MigrationError, match=f"should be number {len(load_migrations()) + 1:04d}"):
        load_migrations(folder)
    gap.rename(folder / "2_bad name.sql")
    with pytest.raises(MigrationError, match="NNNN_words.sql"):
        load_migrations(folder)


def test_statements_are_split_on_complete_sql_not_on_every_semicolon() -> None:
    sql = ("-- comment; with a semicolon\nCREATE TABLE a (x TEXT DEFAULT ';');\n\n"
           "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  UPDATE a SET x = 'y';\nEND;\n")
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(MigrationError, match="unterminated"):
        split_statements("CREATE TABLE b (x INTEGER)")


async def test_backup_is_a_consistent_copy_while_the_source_stays_open(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "live.sqlite3")
    try:
        await storage.database.connection.execute(
            "INSERT INTO players (player_id, display_name, is_ai, updated_at) VALUES (1, 'Anna', 0, 0)")
        await storage.backup(tmp_path / "copy.sqlite3")
        with pytest.raises(FileExistsError):
            await storage.backup(tmp_path / "copy.sqlite3")
    finally:
        await storage.close()
    with sqlite3.connect(tmp_path / "copy.sqlite3") as connection:
        assert connection.execute("SELECT display_name FROM players").fetchall() == [("Anna",)]
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_synchronous_is_normal_by_default_full_on_request_and_checked(tmp_path: Path) -> None:
    for mode, number in (("NORMAL", 1), ("FULL", 2)):
        path = tmp_path / f"{mode}.sqlite3"
        database = await (Database.open(path, synchronous=mode) if mode == "FULL" else Database.open(path))
        try:
            assert await pragma(database.connection, "PRAGMA synchronous") == number
        finally:
            await database.close()
    with pytest.raises(ValueError, match="synchronous"):
        await Database.open(tmp_path / "x.sqlite3", synchronous="OFF")


async def test_the_wal_is_checkpointed_in_the_background(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "wal.sqlite3")
    try:
        for number in range(CHECKPOINT_EVERY + 5):
            await storage.players.save(player=Player(number, f"player {number}"), now=NOW)
        task = storage.database._checkpoint_task
        assert task is not None
        await task
        # What was committed before the checkpoint is in the database file itself (read ignoring the WAL).
        with closing(sqlite3.connect(f"file:{tmp_path / 'wal.sqlite3'}?immutable=1", uri=True)) as reader:
            in_file = reader.execute("SELECT COUNT(*) FROM players").fetchone()[0]
        assert CHECKPOINT_EVERY - 1 <= in_file <= CHECKPOINT_EVERY + 5
    finally:
        await storage.close()
    assert not (tmp_path / "wal.sqlite3-wal").exists()  # the last close folds the WAL in


async def test_a_version_one_database_with_deals_upgrades_to_the_current_schema(tmp_path: Path) -> None:
    """The real upgrade path: a file written by the first schema gets every later migration."""
    first = tmp_path / "first"
    first.mkdir()
    shutil.copy(MIGRATIONS / "0001_initial.sql", first)
    path = tmp_path / "v1.sqlite3"
    old = await SqliteStorage.open(path, migrations=first)
    await old.players.save(player=Player(1, "Anna"), now=NOW)
    await old.close()
    storage = await SqliteStorage.open(path)
    try:
        assert await schema_version(storage.database) == len(load_migrations()) > 1
        assert await storage.players.get(player_id=1) == Player(1, "Anna")
        indexes = {row[0] for row in await storage.database.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {"deal_scores_by_player", "deals_by_declarer"} <= indexes
    finally:
        await storage.close()


async def test_a_commit_that_fails_is_rolled_back_and_the_connection_stays_usable(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "commit.sqlite3")
    try:
        with pytest.raises(sqlite3.IntegrityError):
            async with storage.database.transaction() as connection:
                await connection.execute("PRAGMA defer_foreign_keys = ON")  # the check moves to COMMIT
                await connection.execute("INSERT INTO table_seats (table_id, seat, player_id) VALUES (9, 0, 9)")
        assert not storage.database.connection.in_transaction
        assert await storage.database.fetch_all("SELECT * FROM table_seats") == []
        await storage.players.save(player=Player(1, "Anna"), now=NOW)
        assert await storage.players.get(player_id=1) == Player(1, "Anna")
    finally:
        await storage.close()


async def test_reads_see_every_commit_and_cannot_write(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "reader.sqlite3")
    try:
        for number in range(3):
            await storage.players.save(player=Player(number, f"p{number}"), now=NOW)
            assert await storage.players.get(player_id=number) == Player(number, f"p{number}")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            async with storage.database.reading() as reader:
                await reader.execute("DELETE FROM players")
        assert len(await storage.database.fetch_all("SELECT * FROM players")) == 3
    finally:
        await storage.close()


async def test_a_write_lock_held_past_the_busy_timeout_is_storage_busy_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "skat.sqlite3"
    async with await SqliteStorage.open(path, busy_timeout_ms=100) as storage:
        with closing(sqlite3.connect(path, isolation_level=None)) as holder:
            holder.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreBusy):
                await storage.players.save(player=Player(7, "alice", False), now=NOW)
            holder.execute("ROLLBACK")
        await storage.players.save(player=Player(7, "alice", False), now=NOW)  # the same write, once free
        assert (await storage.players.get(player_id=7)).display_name == "alice"


async def test_writes_made_together_stand_or_fall_alone(storage: Storage) -> None:
    """Writes waiting together share a trip to SQLite's thread, not a transaction: the one whose check fails
    leaves nothing (not even its statements before the check), the others are stored, on both backends."""
    assert isinstance(storage, SqlStorage)
    database: SqlDatabase = storage.database

    def refuse(rows: list[Any], rowcount: int) -> None:
        raise LookupError("refused")

    def player(number: int) -> Statement:
        return Statement("INSERT INTO players (player_id, display_name, is_ai, updated_at) VALUES (?, ?, 0, 0)",
                         (number, f"p{number}"))

    writes = [database.write([player(number)]) for number in (1, 2)]
    writes.append(database.write([player(3), Statement("SELECT COUNT(*) FROM players", check=refuse)]))
    writes += [database.write([player(4), Statement("UPDATE players SET display_name = 'four' WHERE player_id = 4")])]
    results = await asyncio.gather(*writes, return_exceptions=True)
    assert [type(result).__name__ for result in results] == ["list", "list", "LookupError", "list"]
    last = results[3]
    assert not isinstance(last, BaseException) and last[1].rowcount == 1
    rows = await database.fetch_all("SELECT player_id, display_name FROM players ORDER BY player_id")
    assert [tuple(row) for row in rows] == [(1, "p1"), (2, "p2"), (4, "four")]
    taken = await asyncio.gather(database.write([player(5)]), database.write([player(1)]), return_exceptions=True)
    assert isinstance(taken[1], INTEGRITY_ERRORS)  # a key taken: that write alone fails
    assert (await storage.players.get(player_id=5)).display_name == "p5"
