"""What the bot has shown for a table, on both backends: message ids kept up to date, the outbox drained."""

from __future__ import annotations

from skatbot.models import ShownUpTo
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


async def test_the_item_being_posted_is_kept_with_its_position_until_it_is_shown(storage: AnyStorage) -> None:
    table_id, other = await _table(storage), await _table(storage)
    memory = storage.presentation
    assert await memory.shown_up_to(table_id=table_id) == ShownUpTo(0, 0, None)  # nothing shown: the whole log
    await memory.owe(table_id=table_id, at=(12, 0), content="**Result of deal 1**")
    assert await memory.shown_up_to(table_id=table_id) == ShownUpTo(12, 0, "**Result of deal 1**")
    await memory.mark_shown(table_id=table_id, up_to=(12, 1))
    assert await memory.shown_up_to(table_id=table_id) == ShownUpTo(12, 1, None)
    await memory.owe(table_id=table_id, at=(12, 0), content="again")  # a slower process, later: shown already
    await memory.mark_shown(table_id=table_id, up_to=(9, 1))
    assert await memory.shown_up_to(table_id=table_id) == ShownUpTo(12, 1, None)
    await memory.owe(table_id=table_id, at=(12, 1), content="🏁 ranking")  # the same entry's next item
    await memory.mark_shown(table_id=table_id, up_to=(30, 0))
    assert (await memory.shown_up_to(table_id=table_id), await memory.shown_up_to(table_id=other)) == \
        (ShownUpTo(30, 0, None), ShownUpTo())


async def test_ended_tables_owe_until_they_are_shown_up_to_the_end_of_their_log(storage: AnyStorage) -> None:
    finished, closed, playing = [await _table(storage) for _ in range(3)]
    for table_id in (finished, closed, playing):
        for seq in range(3):
            await storage.tables.append(table_id=table_id, seq=seq, entry=f"join {seq + 1} P{seq}", now=NOW)
    await storage.tables.set_state(table_id=finished, state=TableState.FINISHED, now=NOW)
    await storage.tables.set_state(table_id=closed, state=TableState.ABANDONED, now=NOW)
    await storage.tables.set_state(table_id=playing, state=TableState.PLAYING, now=NOW)
    assert await storage.presentation.ended_owing() == [finished, closed]
    await storage.presentation.mark_shown(table_id=finished, up_to=(2, 2))  # its ranking: its end is owed still
    assert await storage.presentation.ended_owing() == [finished, closed]
    await storage.presentation.mark_shown(table_id=finished, up_to=(3, 0))  # its end: past its log
    assert await storage.presentation.ended_owing() == [closed]
