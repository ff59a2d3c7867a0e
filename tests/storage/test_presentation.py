"""What the bot has shown for a table, on both backends: message ids kept up to date, the outbox drained."""

from __future__ import annotations

from skatbot.storage import Player, TableState
from tests.storage.storage_helpers import NOW, AnyStorage, add_players


async def _table(storage: AnyStorage, channel_id: int = 20, thread_id: int | None = None) -> int:
    await add_players(storage, Player(1, "Anna", False))
    table = await storage.tables.create(server_id=10, channel_id=channel_id, creator_id=1, rule_preset="official",
                                        rules={}, series_length=2, now=NOW, thread_id=thread_id)
    return table.table_id


async def test_messages_are_remembered_replaced_and_forgotten(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    memory = storage.presentation
    await memory.remember(table_id=table_id, role="lobby", channel_id=20, message_id=500)
    await memory.remember(table_id=table_id, role="hand", user_id=1, deal=0, channel_id=77, message_id=501)
    await memory.remember(table_id=table_id, role="hand", user_id=1, deal=1, channel_id=77, message_id=502)
    known = {(m.role, m.user_id): m for m in await memory.recall(table_id=table_id)}
    assert known[("lobby", 0)].message_id == 500
    assert (known[("hand", 1)].deal, known[("hand", 1)].message_id) == (1, 502)  # one live hand per player
    await memory.forget(table_id=table_id, role="hand", user_id=1)
    assert [m.role for m in await memory.recall(table_id=table_id)] == ["lobby"]


async def test_the_outbox_keeps_what_is_being_posted_until_it_is_shown(storage: AnyStorage) -> None:
    table_id = await _table(storage)
    memory = storage.presentation
    await memory.owe(table_id=table_id, item="result:0", content="**Result of deal 1**")
    owed = await memory.outbox(table_id=table_id)
    assert owed["result:0"].content == "**Result of deal 1**" and not owed["result:0"].shown
    await memory.mark_shown(table_id=table_id, item="result:0", now=NOW)
    await memory.owe(table_id=table_id, item="result:0", content="another text")  # shown: kept as it was
    owed = await memory.outbox(table_id=table_id)
    assert owed["result:0"].shown and owed["result:0"].content == "**Result of deal 1**"


async def test_ended_tables_owe_until_their_end_is_shown(storage: AnyStorage) -> None:
    finished, closed, playing = [await _table(storage) for _ in range(3)]
    await storage.tables.set_state(table_id=finished, state=TableState.FINISHED, now=NOW)
    await storage.tables.set_state(table_id=closed, state=TableState.ABANDONED, now=NOW)
    await storage.tables.set_state(table_id=playing, state=TableState.PLAYING, now=NOW)
    assert await storage.presentation.ended_owing() == [finished, closed]
    await storage.presentation.mark_shown(table_id=finished, item="end", now=NOW)
    assert await storage.presentation.ended_owing() == [closed]


async def test_shown_up_to_n_is_kept_with_the_mark_and_only_moves_forward(storage: AnyStorage) -> None:
    table_id, other = await _table(storage), await _table(storage)
    memory = storage.presentation
    assert await memory.shown_up_to(table_id=table_id) == 0  # nothing shown yet: the whole log is read
    await memory.mark_shown(table_id=table_id, item="result:0", now=NOW, up_to=12)
    assert await memory.shown_up_to(table_id=table_id) == 12
    assert (await memory.outbox(table_id=table_id))["result:0"].shown
    await memory.mark_shown(table_id=table_id, item="result:0", now=NOW, up_to=9)  # a slower process, later
    await memory.mark_shown(table_id=table_id, item="ranking", now=NOW)  # no N given: N stays
    assert await memory.shown_up_to(table_id=table_id) == 12
    await memory.mark_shown(table_id=table_id, item="result:1", now=NOW, up_to=30)
    assert (await memory.shown_up_to(table_id=table_id), await memory.shown_up_to(table_id=other)) == (30, 0)
