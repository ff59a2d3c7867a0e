"""Timers and AI turns as rows any process may claim: written with the log entry that makes them due, held
by the writer for a lease past their time, then claimable by anyone, each claim exclusive for its lease."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from skatbot.engine import OFFICIAL
from skatbot.models import Due, DueKind, DueStep
from skatbot.storage import LogConflict, NotFound, Player, PostgresStorage
from tests.storage.storage_helpers import NOW, AnyStorage, add_players

LEASE = 3.0


def later(seconds: float) -> timedelta:
    return timedelta(seconds=seconds)


async def _table(storage: AnyStorage) -> int:
    await add_players(storage, Player(1, "Anna"))
    table = await storage.tables.create(server_id=100, channel_id=555, creator_id=1, rule_preset="official",
                                        rules=OFFICIAL.to_dict(), series_length=3, now=NOW)
    return table.table_id


async def test_an_entry_writes_what_it_makes_due_at_the_next_sequence_number(storage: AnyStorage) -> None:
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.WARN, 90), Due(DueKind.TIMEOUT, 120)], lease=LEASE)
    assert await storage.due.pending(table_id=table) == [
        DueStep(table, 1, DueKind.WARN, NOW + later(90)), DueStep(table, 1, DueKind.TIMEOUT, NOW + later(120))]
    await storage.tables.append(table_id=table, seq=1, entry="join 2 Bert", now=NOW + later(5),
                                due=[Due(DueKind.AI, 0.25)], lease=LEASE)
    assert await storage.due.pending(table_id=table) == [DueStep(table, 2, DueKind.AI, NOW + later(5.25))]
    await storage.tables.append(table_id=table, seq=2, entry="leave 2", now=NOW + later(6), due=[], lease=LEASE)
    assert await storage.due.pending(table_id=table) == []


async def test_an_entry_without_due_leaves_the_rows_and_a_refused_one_changes_nothing(storage: AnyStorage) -> None:
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW, due=[Due(DueKind.AI)])
    await storage.tables.append(table_id=table, seq=1, entry="join 2 Bert", now=NOW)  # a tool, not the table
    with pytest.raises(LogConflict):
        await storage.tables.append(table_id=table, seq=1, entry="leave 2", now=NOW, due=[Due(DueKind.FOLLOW)])
    assert await storage.due.pending(table_id=table) == [DueStep(table, 1, DueKind.AI, NOW)]


async def test_the_writer_holds_its_rows_for_the_lease_then_anyone_may_claim_them(storage: AnyStorage) -> None:
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.AI, 1.0)], lease=LEASE)
    assert await storage.due.claim(now=NOW + later(1.0)) == []  # due, but its writer is on it
    assert await storage.due.claim(now=NOW + later(1.0 + LEASE - 0.01)) == []
    taken_at = NOW + later(1.0 + LEASE)
    assert await storage.due.claim(now=taken_at, lease=2.0) == [DueStep(table, 1, DueKind.AI, NOW + later(1))]
    assert await storage.due.claim(now=taken_at + later(1.99)) == []  # the claimer's now
    assert await storage.due.claim(now=taken_at + later(2.0)) == [DueStep(table, 1, DueKind.AI, NOW + later(1))]


async def test_claims_come_earliest_first_within_the_limit_and_only_once_due(storage: AnyStorage) -> None:
    tables = [await _table(storage) for _ in range(3)]
    for delay, table in zip((30.0, 10.0, 20.0), tables, strict=True):
        await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                    due=[Due(DueKind.TIMEOUT, delay)], lease=0.0)
    assert await storage.due.claim(now=NOW + later(5)) == []
    assert [step.table_id for step in await storage.due.claim(now=NOW + later(25), lease=600, limit=1)] == \
        [tables[1]]
    assert [step.table_id for step in await storage.due.claim(now=NOW + later(25), lease=600)] == [tables[2]]
    assert [step.table_id for step in await storage.due.claim(now=NOW + later(60), lease=600)] == [tables[0]]


async def test_a_row_is_dropped_once(storage: AnyStorage) -> None:
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.WARN, 1), Due(DueKind.TIMEOUT, 2)])
    assert await storage.due.drop(table_id=table, seq=1, kind=DueKind.WARN)
    assert not await storage.due.drop(table_id=table, seq=1, kind=DueKind.WARN)
    assert not await storage.due.drop(table_id=table, seq=0, kind=DueKind.TIMEOUT)  # another moment's
    assert await storage.due.pending(table_id=table) == [DueStep(table, 1, DueKind.TIMEOUT, NOW + later(2))]


async def test_replace_sets_a_resumed_tables_rows_and_refuses_an_unknown_table(storage: AnyStorage) -> None:
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW, due=[Due(DueKind.AI)])
    await storage.due.replace(table_id=table, seq=1, due=[Due(DueKind.TIMEOUT, 120)], now=NOW + later(50))
    assert await storage.due.pending(table_id=table) == [DueStep(table, 1, DueKind.TIMEOUT, NOW + later(170))]
    with pytest.raises(NotFound):
        await storage.due.replace(table_id=table + 99, seq=0, due=[Due(DueKind.AI)], now=NOW)
    with pytest.raises(ValueError, match="due now or later"):
        await storage.due.replace(table_id=table, seq=1, due=[Due(DueKind.AI, -1)], now=NOW)


async def test_a_resumed_table_takes_over_its_rows_only_when_no_other_process_holds_them(
        storage: AnyStorage) -> None:
    """A restarted process must not play an AI turn another process holds (it would be computed twice); rows
    whose holder's lease ran out, or that were released, or that are missing, it takes over from now."""
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW, due=[Due(DueKind.AI)],
                                lease=LEASE)
    restarted = NOW + later(1)
    assert not await storage.due.take_over(table_id=table, seq=1, due=[Due(DueKind.TIMEOUT, 120)], now=restarted,
                                           lease=LEASE)
    assert await storage.due.pending(table_id=table) == [DueStep(table, 1, DueKind.AI, NOW)]  # left to its holder
    assert await storage.due.claim(now=restarted) == []
    ran_out = NOW + later(LEASE)
    assert await storage.due.take_over(table_id=table, seq=1, due=[Due(DueKind.AI, 0.5)], now=ran_out,
                                       lease=LEASE)
    assert await storage.due.pending(table_id=table) == [DueStep(table, 1, DueKind.AI, ran_out + later(0.5))]
    assert await storage.due.claim(now=ran_out + later(0.5 + LEASE - 0.01)) == []  # held by the taker now
    await storage.tables.append(table_id=table, seq=1, entry="join 2 Bert", now=NOW, due=[], lease=LEASE)
    assert await storage.due.take_over(table_id=table, seq=2, due=[Due(DueKind.WARN, 90)], now=NOW, lease=LEASE)
    assert await storage.due.pending(table_id=table) == [DueStep(table, 2, DueKind.WARN, NOW + later(90))]
    with pytest.raises(NotFound):
        await storage.due.take_over(table_id=table + 99, seq=0, due=[Due(DueKind.AI)], now=NOW)


async def test_a_holder_still_thinking_extends_its_lease(storage: AnyStorage) -> None:
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW, due=[Due(DueKind.AI)],
                                lease=LEASE)
    thinking = NOW + later(LEASE - 1)
    assert await storage.due.extend(table_id=table, seq=1, kind=DueKind.AI, now=thinking, lease=LEASE)
    assert await storage.due.claim(now=NOW + later(LEASE)) == []  # the first lease ran out: still the holder's
    assert await storage.due.claim(now=thinking + later(LEASE - 0.01)) == []
    assert await storage.due.extend(table_id=table, seq=1, kind=DueKind.AI, now=NOW, lease=LEASE)  # never shortens
    assert await storage.due.claim(now=thinking + later(LEASE - 0.01)) == []
    assert [step.kind for step in await storage.due.claim(now=thinking + later(LEASE))] == [DueKind.AI]
    assert not await storage.due.extend(table_id=table, seq=0, kind=DueKind.AI, now=NOW)  # another moment's


async def test_a_released_row_is_claimed_as_soon_as_it_is_due(storage: AnyStorage) -> None:
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.AI), Due(DueKind.TIMEOUT, 60)], lease=LEASE)
    assert await storage.due.release(table_id=table, seq=0) == 0  # another moment's: nothing
    assert await storage.due.release(table_id=table, seq=1) == 2  # a clean shutdown
    assert [step.kind for step in await storage.due.claim(now=NOW, lease=600)] == [DueKind.AI]  # at once
    assert await storage.due.claim(now=NOW + later(59)) == []
    assert [step.kind for step in await storage.due.claim(now=NOW + later(60))] == [DueKind.TIMEOUT]


async def test_a_kontra_window_keeps_its_end_while_later_entries_carry_it_on(storage: AnyStorage) -> None:
    """The window opens with the declaration; a Kontra said in it (another entry, maybe by another process)
    does not move its end; an entry without it (the first card) ends it."""
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.KONTRA, 8), Due(DueKind.TIMEOUT, 120)], lease=LEASE)
    await storage.tables.append(table_id=table, seq=1, entry="join 2 Bert", now=NOW + later(5),
                                due=[Due(DueKind.KONTRA, 8), Due(DueKind.TIMEOUT, 120)], lease=LEASE)
    assert await storage.due.pending(table_id=table) == [
        DueStep(table, 2, DueKind.KONTRA, NOW + later(8)), DueStep(table, 2, DueKind.TIMEOUT, NOW + later(125))]
    await storage.tables.append(table_id=table, seq=2, entry="join 3 Carla", now=NOW + later(6),
                                due=[Due(DueKind.TIMEOUT, 120)], lease=LEASE)
    await storage.tables.append(table_id=table, seq=3, entry="leave 3", now=NOW + later(7),
                                due=[Due(DueKind.KONTRA, 8)], lease=LEASE)
    assert await storage.due.pending(table_id=table) == [DueStep(table, 4, DueKind.KONTRA, NOW + later(15))]


async def test_a_kontra_window_is_claimed_once_its_end_and_the_lease_passed(storage: AnyStorage) -> None:
    """The process that opened the window shows its end; when it died in the window, any process claims the
    row a lease after the end (or at the end, after a clean shutdown) and shows it."""
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.KONTRA, 8), Due(DueKind.TIMEOUT, 120)], lease=LEASE)
    assert await storage.due.claim(now=NOW + later(8)) == []  # ended: its holder shows it
    assert await storage.due.claim(now=NOW + later(8 + LEASE - 0.01)) == []
    window = DueStep(table, 1, DueKind.KONTRA, NOW + later(8))
    assert await storage.due.claim(now=NOW + later(8 + LEASE), lease=600) == [window]  # its holder is gone
    assert await storage.due.claim(now=NOW + later(60)) == []  # the claimer's now

    other = await _table(storage)
    await storage.tables.append(table_id=other, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.KONTRA, 8), Due(DueKind.TIMEOUT, 120)], lease=LEASE)
    assert await storage.due.release(table_id=other, seq=1) == 2  # a clean shutdown in the window
    assert await storage.due.claim(now=NOW + later(7.99)) == []
    assert await storage.due.claim(now=NOW + later(8), lease=600) == [DueStep(other, 1, DueKind.KONTRA,
                                                                                NOW + later(8))]


async def test_a_closed_kontra_window_is_never_claimed_and_keeps_its_end(storage: AnyStorage) -> None:
    """Its end shown, the row stays closed: a later entry that still wants the window (a Kontra said after its
    end, the Re still open) neither opens a new one nor lets a process show the end again."""
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.KONTRA, 8), Due(DueKind.TIMEOUT, 120)], lease=LEASE)
    assert not await storage.due.close_window(table_id=table, seq=0)  # another moment's
    assert await storage.due.close_window(table_id=table, seq=1)
    assert not await storage.due.close_window(table_id=table, seq=1)  # once
    assert await storage.due.release(table_id=table, seq=1) == 1  # the time-out only
    assert [step.kind for step in await storage.due.claim(now=NOW + later(600), lease=600)] == [DueKind.TIMEOUT]
    await storage.tables.append(table_id=table, seq=1, entry="join 2 Bert", now=NOW + later(20),
                                due=[Due(DueKind.KONTRA, 8), Due(DueKind.TIMEOUT, 120)], lease=LEASE)
    assert await storage.due.pending(table_id=table) == [
        DueStep(table, 2, DueKind.KONTRA, NOW + later(8)), DueStep(table, 2, DueKind.TIMEOUT, NOW + later(140))]
    assert not await storage.due.close_window(table_id=table, seq=2)
    assert [step.kind for step in await storage.due.claim(now=NOW + later(600), lease=600)] == [DueKind.TIMEOUT]


async def test_a_kontra_window_carried_on_past_its_end_is_held_by_the_writer(storage: AnyStorage) -> None:
    """An entry stored after the window's end, before anyone showed it: the window keeps its end, and the
    writer (which shows the end itself at once) holds it for a lease from now."""
    table = await _table(storage)
    await storage.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                due=[Due(DueKind.KONTRA, 8)], lease=LEASE)
    written = NOW + later(10)
    await storage.tables.append(table_id=table, seq=1, entry="join 2 Bert", now=written,
                                due=[Due(DueKind.KONTRA, 8)], lease=LEASE)
    assert await storage.due.pending(table_id=table) == [DueStep(table, 2, DueKind.KONTRA, NOW + later(8))]
    assert await storage.due.claim(now=written + later(LEASE - 0.01)) == []
    assert await storage.due.claim(now=written + later(LEASE)) == [DueStep(table, 2, DueKind.KONTRA,
                                                                           NOW + later(8))]


async def test_processes_claiming_at_once_never_share_a_row(schema_url: str) -> None:
    """PostgreSQL, several processes: FOR UPDATE SKIP LOCKED hands each due row to exactly one claimer."""
    first, second = await PostgresStorage.open(schema_url), await PostgresStorage.open(schema_url)
    try:
        tables = [await _table(first) for _ in range(40)]
        for table in tables:
            await first.tables.append(table_id=table, seq=0, entry="join 1 Anna", now=NOW,
                                      due=[Due(DueKind.AI), Due(DueKind.FOLLOW)], lease=0.0)
        claimed: list[DueStep] = []

        async def claimer(storage: PostgresStorage) -> None:
            while True:
                taken = await storage.due.claim(now=NOW + later(1), lease=60, limit=3)
                if not taken:
                    return
                claimed.extend(taken)

        await asyncio.gather(*(claimer(storage) for storage in (first, second, first, second)))
        keys = [(step.table_id, step.kind) for step in claimed]
        assert len(keys) == len(set(keys)) == 80
    finally:
        await first.close()
        await second.close()
