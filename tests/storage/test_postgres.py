"""The PostgreSQL backend's own parts: migrations twinned with SQLite's, applied once even by processes
starting together, a newer schema refused, a failing migration changing nothing, parameters translated,
and a server that does not answer named without its password. (The repositories run the shared tests:
the `storage` fixture gives both backends.)"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import asyncpg
import pytest

from skatbot.storage import MigrationError, PostgresStorage, SchemaTooNew, StorageError
from skatbot.storage.database import MIGRATIONS as SQLITE_MIGRATIONS
from skatbot.storage.database import load_migrations
from skatbot.storage.postgres.database import MIGRATIONS, redact, translate
from tests.storage.storage_helpers import schema_version


def test_every_migration_has_its_twin_under_the_same_number() -> None:
    sqlite, postgres = load_migrations(SQLITE_MIGRATIONS), load_migrations(MIGRATIONS)
    assert [m.name for m in postgres] == [m.name for m in sqlite]


def test_parameters_become_numbered_placeholders_outside_quoted_text() -> None:
    assert translate("SELECT * FROM t WHERE a = :a AND b = :b OR c = :a") == (
        "SELECT * FROM t WHERE a = $1 AND b = $2 OR c = $1", ("a", "b"))
    assert translate("INSERT INTO t VALUES (?, ?, 'what?', ':x')") == ("INSERT INTO t VALUES ($1, $2, 'what?', ':x')", 2)
    assert translate("SELECT 'it''s :not' || :yes, x::text FROM t") == ("SELECT 'it''s :not' || $1, x::text FROM t",
                                                                       ("yes",))
    with pytest.raises(ValueError, match="either"):
        translate("SELECT :a, ?")




async def _tables(url: str) -> set[str]:
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch("SELECT table_name FROM information_schema.tables "
                                      "WHERE table_schema = current_schema()")
    finally:
        await connection.close()
    return {row[0] for row in rows}


async def test_processes_starting_together_apply_each_migration_once(schema_url: str) -> None:
    opened = await asyncio.gather(*(PostgresStorage.open(schema_url) for _ in range(3)))
    try:
        for storage in opened:
            assert await schema_version(storage.database) == len(load_migrations(MIGRATIONS))
        assert {"servers", "players", "tables", "table_log", "deals", "deal_scores", "player_days",
                "series_results", "schema_version"} <= await _tables(schema_url)
    finally:
        for storage in opened:
            await storage.close()
    again = await PostgresStorage.open(schema_url)
    try:
        rows = await again.database.fetch_all("SELECT version FROM schema_version")
        assert [row[0] for row in rows] == [len(load_migrations(MIGRATIONS))]
    finally:
        await again.close()


async def test_a_database_from_a_newer_skatbot_is_refused_untouched(schema_url: str) -> None:
    storage = await PostgresStorage.open(schema_url)
    newer = len(load_migrations(MIGRATIONS)) + 1
    async with storage.database.transaction() as connection:
        await connection.execute("UPDATE schema_version SET version = :v", {"v": newer})
    await storage.close()
    with pytest.raises(SchemaTooNew, match="newer skatbot"):
        await PostgresStorage.open(schema_url)
    connection = await asyncpg.connect(schema_url)
    try:
        assert await connection.fetchval("SELECT version FROM schema_version") == newer
    finally:
        await connection.close()


async def test_a_failing_migration_changes_nothing(schema_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, folder)
    broken = len(load_migrations(MIGRATIONS)) + 1
    (folder / f"{broken:04d}_broken.sql").write_text("CREATE TABLE fine (x INTEGER);\nSELECT no_such_column FROM fine;\n")
    with pytest.raises(MigrationError, match="broken"):
        await PostgresStorage.open(schema_url, migrations=folder)
    assert await _tables(schema_url) == set()  # the whole upgrade, from version 0, was rolled back


async def test_a_server_that_does_not_answer_is_a_clear_error_without_the_password() -> None:
    with pytest.raises(StorageError, match=r"cannot connect.*skatbot:\*\*\*@127\.0\.0\.1:1/") as refused:
        await PostgresStorage.open("postgresql://skatbot:secret@127.0.0.1:1/skatbot")
    assert "secret" not in str(refused.value)
    assert redact("postgresql://u:p@h/d") == "postgresql://u:***@h/d"
    assert redact("postgresql://u@h/d") == "postgresql://u@h/d"
