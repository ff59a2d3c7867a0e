"""Migration 0019: what a table owes is shown by position, no longer by name. A table whose end a version before
it marked shown comes out shown up to the end of its log (it owes nothing; its marks are gone); a table still
playing keeps its marks by name for the presenter, which turns them into its position once (tests/ui)."""

from __future__ import annotations

import shutil
from pathlib import Path

from skatbot.models import ShownUpTo
from skatbot.storage import Player, SqliteStorage, TableState
from skatbot.storage.database import MIGRATIONS
from tests.storage.storage_helpers import NOW, add_players


def _migrations_before_0019(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations_v18"
    folder.mkdir()
    for path in sorted(MIGRATIONS.glob("*.sql")):
        if int(path.name[:4]) < 19:
            shutil.copy(path, folder / path.name)
    return folder


async def test_an_ended_tables_end_mark_becomes_the_position_past_its_log(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = await SqliteStorage.open(path, migrations=_migrations_before_0019(tmp_path))
    try:
        await add_players(old, Player(1, "Anna", False))
        ids = []
        for _ in range(2):
            table = await old.tables.create(server_id=10, channel_id=20, creator_id=1, rule_preset="official",
                                            rules={}, series_length=2, now=NOW)
            for seq in range(4):
                await old.tables.append(table_id=table.table_id, seq=seq, entry=f"join {seq + 1} P{seq}", now=NOW)
            ids.append(table.table_id)
        ended, playing = ids
        await old.tables.set_state(table_id=ended, state=TableState.FINISHED, now=NOW)
        await old.tables.set_state(table_id=playing, state=TableState.PLAYING, now=NOW)
        async with old.database.transaction() as connection:  # as version 18 wrote them
            for table_id, item in ((ended, "result:0"), (ended, "ranking"), (ended, "end"), (playing, "result:0")):
                await connection.execute("INSERT INTO table_outbox (table_id, item, content, shown_at) "
                                         "VALUES (?, ?, '', 1)", (table_id, item))
            await connection.execute("INSERT INTO table_shown (table_id, shown_up_to) VALUES (?, 2)", (ended,))
    finally:
        await old.close()

    upgraded = await SqliteStorage.open(path)
    try:
        memory = upgraded.presentation
        assert await memory.shown_up_to(table_id=ended) == ShownUpTo(4, 0, None)
        assert await memory.legacy_outbox(table_id=ended) == {}
        assert await memory.ended_owing() == []
        assert list(await memory.legacy_outbox(table_id=playing)) == ["result:0"]  # for the presenter to read
        assert await memory.shown_up_to(table_id=playing) == ShownUpTo()
    finally:
        await upgraded.close()
