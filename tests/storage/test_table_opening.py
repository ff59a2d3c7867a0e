"""Opening a table is one transaction, on both backends: the creator, the table row, its first log entries and
its seats are stored together, or (a failure anywhere in between) none of them is."""

from __future__ import annotations

from datetime import timedelta

import pytest

from skatbot.engine import OFFICIAL
from skatbot.storage import NotFound, Player, SqliteStorage
from tests.storage.storage_helpers import NOW, AnyStorage

ANNA = Player(1, "Anna")


async def _counts(storage: AnyStorage) -> dict[str, int]:
    return {name: int((await storage.database.fetch_all(f"SELECT COUNT(*) FROM {name}"))[0][0])
            for name in ("players", "servers", "tables", "table_log", "table_seats")}


async def test_a_table_is_stored_with_its_creator_and_first_entries(storage: AnyStorage) -> None:
    table = await storage.tables.create(server_id=100, channel_id=555, creator_id=1, rule_preset="official",
                                        rules=OFFICIAL.to_dict(), series_length=3, now=NOW, players=[ANNA],
                                        entries=["join 1 Anna", "hints"])
    assert await storage.players.get(player_id=1) == ANNA
    assert (await storage.tables.get(table_id=table.table_id)).creator_id == 1
    log = await storage.tables.log(table_id=table.table_id)
    assert [(e.seq, e.entry, e.at) for e in log] == [(0, "join 1 Anna", NOW), (1, "hints", NOW)]
    assert [t.table_id for t in await storage.tables.in_channel(channel_id=555)] == [table.table_id]
    second = await storage.tables.create(server_id=100, channel_id=555, creator_id=1, rule_preset="official",
                                         rules=OFFICIAL.to_dict(), series_length=3, now=NOW, players=[ANNA],
                                         entries=["join 1 Anna"])
    assert [e.entry for e in await storage.tables.log(table_id=second.table_id)] == ["join 1 Anna"]


async def test_a_failure_after_the_table_row_and_its_entries_leaves_nothing(storage: AnyStorage) -> None:
    before = await _counts(storage)
    with pytest.raises(NotFound, match="not a stored player"):  # the last statement fails: seat 1 is nobody
        await storage.tables.create(server_id=100, channel_id=555, creator_id=1, rule_preset="official",
                                    rules=OFFICIAL.to_dict(), series_length=3, now=NOW, players=[ANNA],
                                    entries=["join 1 Anna"], seats=(1, 99))
    assert await _counts(storage) == before
    assert await storage.tables.running_in(channel_id=555) == []


async def test_a_log_entry_refused_by_the_database_leaves_no_table_without_its_log(storage: AnyStorage) -> None:
    if isinstance(storage, SqliteStorage):
        await storage.database.connection.execute(
            "CREATE TRIGGER refuse_log BEFORE INSERT ON table_log BEGIN SELECT RAISE(ABORT, 'refused'); END")
        await storage.database.connection.commit()
    else:
        async with storage.database.transaction() as connection:
            await connection.execute("CREATE FUNCTION refuse_log() RETURNS trigger LANGUAGE plpgsql AS "
                                     "$$ BEGIN RAISE EXCEPTION 'refused'; END $$")
            await connection.execute("CREATE TRIGGER refuse_log BEFORE INSERT ON table_log "
                                     "FOR EACH ROW EXECUTE FUNCTION refuse_log()")
    before = await _counts(storage)
    with pytest.raises(Exception, match="refused"):
        await storage.tables.create(server_id=100, channel_id=555, creator_id=1, rule_preset="official",
                                    rules=OFFICIAL.to_dict(), series_length=3, now=NOW, players=[ANNA],
                                    entries=["join 1 Anna"])
    assert await _counts(storage) == before, "no table row, player or server without the table's log"


async def test_a_table_opened_from_a_channel_is_found_by_its_creator_since_a_moment(storage: AnyStorage) -> None:
    in_thread = await storage.tables.create(server_id=100, channel_id=555, thread_id=777, creator_id=1,
                                            rule_preset="official", rules={}, series_length=1, now=NOW,
                                            players=[ANNA], entries=["join 1 Anna"])
    assert await storage.tables.opened_by(creator_id=1, channel_id=555, since=NOW) == in_thread.table_id
    assert await storage.tables.opened_by(creator_id=1, channel_id=555, since=NOW + timedelta(seconds=1)) is None
    assert await storage.tables.opened_by(creator_id=2, channel_id=555, since=NOW) is None
    assert await storage.tables.opened_by(creator_id=1, channel_id=777, since=NOW) is None
