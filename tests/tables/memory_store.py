"""The tables' store port in memory, for table tests: logs, deal records and due steps kept in dicts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from skatbot.engine import RuleSet
from skatbot.models import DUE_LEASE, Due, DueKind, DueStep, TableState
from skatbot.tables.game import FinishedDeal
from skatbot.tables.ports import StoredTable
from skatbot.tables.view import TableView


class MemoryStore:
    """Keeps logs and deal records in dicts, with the same exactly-once rule as the database. Due steps are
    kept as the database keeps them, timed by `clock` (seconds; tests pass their own): several managers
    sharing one store behave like processes sharing a database (`lock_table` holds across them)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, lease: float = DUE_LEASE) -> None:
        self.clock = clock
        self.lease = lease
        self.due: dict[tuple[int, int, DueKind], tuple[float, float]] = {}  # -> (due at, held until)
        self._locks: dict[int, asyncio.Lock] = {}
        self.logs: dict[int, list[str]] = {}
        self.deals: dict[tuple[int, int], FinishedDeal] = {}
        self.states: dict[int, TableState] = {}
        self.fail_next_append = False
        self.tables: dict[int, StoredTable] = {}
        self.started: set[int] = set()
        self.parents: dict[int, int] = {}  # table -> the channel its own thread was opened from
        self.seats: dict[int, tuple[int, ...]] = {}  # table -> its players, stored when play starts

    async def create_table(self, *, guild_id: int, channel_id: int, creator_id: int, size: int, deals: int,
                           rules: RuleSet, parent_id: int | None = None, creator_name: str | None = None,
                           entries: Sequence[str] = ()) -> int:
        table_id = len(self.tables) + 1
        if entries:
            self.logs[table_id] = list(entries)
        if parent_id is not None:
            self.parents[table_id] = parent_id
        self.tables[table_id] = StoredTable(table_id, guild_id, channel_id, creator_id, size, deals, rules, ())
        self.states[table_id] = TableState.OPEN
        return table_id

    async def unfinished_tables(self) -> list[StoredTable]:
        out = []
        for table_id, stored in self.tables.items():
            if self.states.get(table_id) in (TableState.OPEN, TableState.PLAYING):
                out.append(StoredTable(stored.table_id, stored.guild_id, stored.channel_id, stored.creator_id,
                                       stored.size, stored.deals, stored.rules,
                                       tuple(self.logs.get(table_id, ()))))
        return out

    @asynccontextmanager
    async def lock_table(self, *, table_id: int, since: int) -> AsyncIterator[list[str]]:
        async with self._locks.setdefault(table_id, asyncio.Lock()):
            yield await self.entries_since(table_id=table_id, seq=since)

    async def entries_since(self, *, table_id: int, seq: int) -> list[str]:
        return list(self.logs.get(table_id, [])[seq:])

    async def load_table(self, *, table_id: int) -> StoredTable | None:
        stored = self.tables.get(table_id)
        if stored is None:
            return None
        return StoredTable(stored.table_id, stored.guild_id, stored.channel_id, stored.creator_id, stored.size,
                           stored.deals, stored.rules, tuple(self.logs.get(table_id, ())))

    async def append_log(self, *, table_id: int, seq: int, entry: str, due: Sequence[Due] = ()) -> None:
        if self.fail_next_append:
            self.fail_next_append = False
            raise OSError("disk full (simulated)")
        log = self.logs.setdefault(table_id, [])
        if seq != len(log):
            raise ValueError(f"table {table_id}: log entry {seq} out of order (have {len(log)})")
        log.append(entry)
        await self.schedule(table_id=table_id, seq=seq + 1, due=due)

    async def schedule(self, *, table_id: int, seq: int, due: Sequence[Due]) -> None:
        """The table's due steps become `due`; a Kontra window keeps its end (as `sql.due.write_due`)."""
        now = self.clock()
        window = max((held for key, held in self.due.items() if key[0] == table_id and key[2] is DueKind.KONTRA),
                     default=None)  # its end, and whether it was shown (held forever)
        for key in [key for key in self.due if key[0] == table_id]:
            del self.due[key]
        for step in due:
            at = now + step.delay
            until = at + self.lease
            if step.kind is DueKind.KONTRA and window is not None:
                at = window[0]
                until = window[1] if window[1] == float("inf") else max(at, now) + self.lease
            self.due[(table_id, seq, step.kind)] = (at, until)

    async def take_over(self, *, table_id: int, seq: int, due: Sequence[Due]) -> bool:
        now = self.clock()
        if any(key[0] == table_id and key[1] == seq and key[2] is not DueKind.KONTRA and held > now
               for key, (_, held) in self.due.items()):
            return False
        await self.schedule(table_id=table_id, seq=seq, due=due)
        return True

    async def extend_due(self, *, table_id: int, seq: int, kind: DueKind) -> bool:
        key = (table_id, seq, kind)
        if key not in self.due:
            return False
        at, held = self.due[key]
        self.due[key] = (at, max(held, self.clock() + self.lease))
        return True

    async def window_left(self, *, table_id: int) -> float:
        ends = [at for key, (at, _) in self.due.items() if key[0] == table_id and key[2] is DueKind.KONTRA]
        return max(0.0, max((at - self.clock() for at in ends), default=0.0))

    async def release_due(self, *, table_id: int, seq: int) -> None:
        for key, (at, held) in list(self.due.items()):
            if key[0] == table_id and key[1] == seq and held != float("inf"):
                self.due[key] = (at, float("-inf"))

    async def close_window(self, *, table_id: int, seq: int) -> bool:
        key = (table_id, seq, DueKind.KONTRA)
        if key not in self.due or self.due[key][1] == float("inf"):
            return False
        self.due[key] = (self.due[key][0], float("inf"))
        return True

    async def drop_due(self, *, table_id: int, seq: int, kind: DueKind) -> bool:
        return self.due.pop((table_id, seq, kind), None) is not None

    async def claim_due(self, *, limit: int) -> list[DueStep]:
        now = self.clock()
        ready = sorted(((at, key) for key, (at, held) in self.due.items() if at <= now and held <= now),
                       key=lambda item: (item[0], item[1][0], item[1][1], item[1][2].value))[:limit]
        for at, key in ready:
            self.due[key] = (at, now + self.lease)
        return [DueStep(key[0], key[1], key[2], datetime.fromtimestamp(at, UTC)) for at, key in ready]

    async def record_deal(self, *, table_id: int, row: FinishedDeal, table: TableView) -> None:
        self.deals.setdefault((table_id, row.number), row)

    async def set_table_state(self, *, table_id: int, state: TableState) -> None:
        self.states[table_id] = state

    async def table_started(self, *, table: TableView) -> None:
        self.started.add(table.id)
        self.seats[table.id] = tuple(occupant.player_id for occupant in table.places)

    async def running_in(self, *, channel_id: int) -> list[int]:
        return [table_id for table_id, stored in sorted(self.tables.items()) if stored.channel_id == channel_id
                and self.states.get(table_id) in (TableState.OPEN, TableState.PLAYING)]

    async def last_in(self, *, channel_id: int) -> int | None:
        return max((table_id for table_id, stored in self.tables.items() if stored.channel_id == channel_id),
                   default=None)

    async def playing_with(self, *, player_id: int) -> list[int]:
        return [table_id for table_id, seats in sorted(self.seats.items())
                if player_id in seats and self.states.get(table_id) is TableState.PLAYING]
