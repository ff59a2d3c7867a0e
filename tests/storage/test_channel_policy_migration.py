"""Migration 0004: tables play in the channel unless a server chose a thread per table.

Version 1 defaulted `channel_policy` to 'thread' although nothing read it; a database written then must
come out of the upgrade with every server (and every later default row) on 'channel', its other
settings, tables and foreign keys intact.
"""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from skatbot.engine import RuleSet
from skatbot.storage import Player, ServerSettings, SqliteStorage
from skatbot.storage.database import MIGRATIONS
from tests.storage.storage_helpers import NOW


def _migrations_before_0004(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations_v3"
    folder.mkdir()
    for path in sorted(MIGRATIONS.glob("*.sql")):
        if int(path.name[:4]) < 4:
            shutil.copy(path, folder / path.name)
    return folder


async def test_an_old_database_moves_every_server_to_the_channel(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = await SqliteStorage.open(path, migrations=_migrations_before_0004(tmp_path))
    try:
        await old.players.save(player=Player(5, "Anna"), now=NOW)
        async with old.database.transaction() as connection:  # as version 3 wrote them (no later columns)
            await connection.execute(
                "INSERT INTO servers (server_id, deck_style, language, turn_seconds, channel_policy, updated_at) "
                "VALUES (100, 'german', 'de', 90, 'thread', 0)")
            await connection.execute("INSERT INTO servers (server_id, updated_at) VALUES (200, 0)")
            async with connection.execute(
                    "INSERT INTO tables (server_id, channel_id, creator_id, rule_preset, rules_json, series_length, "
                    "state, created_at, updated_at) VALUES (200, 7, 5, 'official', '{}', 3, 'open', 0, 0) "
                    "RETURNING table_id") as cursor:
                row = await cursor.fetchone()
        assert row is not None
        table_id = int(row[0])
        rows = await old.database.fetch_all("SELECT server_id, channel_policy FROM servers ORDER BY server_id")
        assert [tuple(row) for row in rows] == [(100, "thread"), (200, "thread")]  # the old default
    finally:
        await old.close()

    upgraded = await SqliteStorage.open(path)
    try:
        kept = await upgraded.settings.get(server_id=100)
        assert (kept.deck_style, kept.language, kept.turn_seconds, kept.channel_policy) == \
            ("german", "de", 90, "channel")
        assert (await upgraded.settings.get(server_id=200)).channel_policy == "channel"
        assert (await upgraded.tables.get(table_id=table_id)).server_id == 200
        # A server's first table writes its settings row with the column defaults: now 'channel'.
        await upgraded.tables.create(server_id=300, channel_id=8, creator_id=5, rule_preset="official",
                                     rules=RuleSet().to_dict(), series_length=3, now=NOW)
        assert (await upgraded.settings.get(server_id=300)).channel_policy == "channel"
        # Choosing a thread per table is stored as chosen.
        await upgraded.settings.save(settings=ServerSettings(300, channel_policy="thread"), now=NOW)
        assert (await upgraded.settings.get(server_id=300)).channel_policy == "thread"
    finally:
        await upgraded.close()

    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA foreign_keys = ON")
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError):  # tables still refer to servers
            connection.execute(
                "INSERT INTO tables (server_id, channel_id, creator_id, rule_preset, rules_json, series_length, "
                "state, created_at, updated_at) VALUES (999, 1, 5, 'official', '{}', 1, 'open', 0, 0)")
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "servers_before_0004" not in names


async def test_a_server_that_never_chose_plays_in_the_channel(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "new.sqlite3")
    try:
        assert (await storage.settings.get(server_id=1)).channel_policy == "channel"
        assert ServerSettings(1).channel_policy == "channel"
    finally:
        await storage.close()
