"""The composition root's adapter: the tables' store and catalog ports on top of `skatbot.storage`.

Table log entries are stored as the tables layer writes them, under the table's own sequence number
(one format, replayed only by `skatbot.tables.replay`), and a finished deal becomes one `DealRecord`
written once.

With the logger `skatbot.timing` at DEBUG (benchmarks/bot_load turns it on), each append and catch-up read
logs how long the store took: `append table=T seq=S ms=X`, `catch_up table=T entries=N ms=X`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from skatbot.engine import Deal, RuleSet
from skatbot.metrics import METRICS
from skatbot.models import DUE_LEASE, Due, DueKind, DueStep, TableRecord, seen_number
from skatbot.storage import LogEntry, NotFound, Player, Storage, StorageError, TableState
from skatbot.storage.recording import deal_record
from skatbot.tables.game import FinishedDeal
from skatbot.tables.log import NewDeal, parse_entry
from skatbot.tables.ports import StoredTable
from skatbot.tables.replay import replay_log
from skatbot.tables.view import TableView

Clock = Callable[[], datetime]

timing = logging.getLogger("skatbot.timing")
log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(UTC)


class StorageTables:
    """Implements `TableStore`, `TableCatalog` and `DueClaims` for the tables layer. `lease`: how long past
    their time this process holds the due steps it writes or claims (another process takes over after)."""

    def __init__(self, storage: Storage, clock: Clock = _now, lease: float = DUE_LEASE) -> None:
        self.storage = storage
        self.clock = clock
        self.lease = lease
        self._started: dict[tuple[int, int], datetime] = {}  # (table, deal number) -> when it was dealt
        self._logged: dict[int, int] = {}  # table -> entries known to be stored, where this process is the only writer
        self.deal_listeners: list[Callable[[int], None]] = []  # told a table's id once a deal of it is stored

    async def save_player(self, *, player_id: int, name: str, is_ai: bool) -> None:
        await self.storage.players.save(player=Player(player_id, name[:100], is_ai), now=self.clock())

    async def create_table(self, *, guild_id: int, channel_id: int, creator_id: int, size: int, deals: int,
                           rules: RuleSet, parent_id: int | None = None, creator_name: str | None = None,
                           entries: Sequence[str] = ()) -> int:
        """A table in its own thread is stored under the channel it came from, with the thread's id; the
        creator (as a human player), the table and its first entries in one transaction."""
        stored_rules: dict[str, Any] = rules.to_dict()
        now = self.clock()
        creator = () if creator_name is None else (Player(creator_id, creator_name[:100], False),)
        table = await self.storage.tables.create(
            server_id=guild_id, channel_id=channel_id if parent_id is None else parent_id,
            thread_id=None if parent_id is None else channel_id, creator_id=creator_id,
            rule_preset=rules.preset_name() or "custom", rules=stored_rules, series_length=deals, now=now,
            size=size, players=creator, entries=entries)
        return table.table_id

    @asynccontextmanager
    async def lock_table(self, *, table_id: int, since: int) -> AsyncIterator[list[str]]:
        """The table's lock, with what other processes appended since `since` (read with the lock, in one go
        on PostgreSQL; nothing to read on SQLite once this process has read or written the log up to there)."""
        started = time.perf_counter()
        if self._logged.get(table_id) == since:
            async with self.storage.tables.lock(table_id=table_id):
                self._timed("lock", table_id, started)
                yield []
            return
        async with self.storage.tables.locked_log(table_id=table_id, since=since) as stored:
            self._timed("lock", table_id, started)
            entries = [entry.entry for entry in stored]
            self._known(table_id, since + len(entries))
            yield entries

    def _timed(self, what: str, table_id: int, started: float) -> None:
        if timing.isEnabledFor(logging.DEBUG):
            timing.debug("%s table=%d ms=%.3f", what, table_id, (time.perf_counter() - started) * 1000)

    async def entries_since(self, *, table_id: int, seq: int) -> list[str]:
        """What other processes appended: with a store no other process writes (SQLite), nothing once this
        process has read or written the table's log up to `seq`, so a step costs no read there."""
        if self._logged.get(table_id) == seq:
            return []
        started = time.perf_counter()
        entries = [stored.entry for stored in await self.storage.tables.log(table_id=table_id, since=seq)]
        if timing.isEnabledFor(logging.DEBUG):
            timing.debug("catch_up table=%d entries=%d ms=%.3f", table_id, len(entries),
                         (time.perf_counter() - started) * 1000)
        self._known(table_id, seq + len(entries))
        return entries

    def _known(self, table_id: int, count: int) -> None:
        if not self.storage.shared:
            self._logged[table_id] = count

    async def append_log(self, *, table_id: int, seq: int, entry: str, due: Sequence[Due] = ()) -> None:
        now = self.clock()
        started = time.perf_counter()
        await self.storage.tables.append(table_id=table_id, seq=seq, entry=entry, now=now, due=due,
                                         lease=self.lease)
        METRICS.store_append_seconds.observe(time.perf_counter() - started)
        if timing.isEnabledFor(logging.DEBUG):
            timing.debug("append table=%d seq=%d ms=%.3f", table_id, seq, (time.perf_counter() - started) * 1000)
        self._known(table_id, seq + 1)
        if entry.startswith("deal "):
            parsed = parse_entry(entry)
            if isinstance(parsed, NewDeal):
                self._started[(table_id, parsed.number)] = now

    async def take_over(self, *, table_id: int, seq: int, due: Sequence[Due]) -> bool:
        return await self.storage.due.take_over(table_id=table_id, seq=seq, due=due, now=self.clock(),
                                                lease=self.lease)

    async def extend_due(self, *, table_id: int, seq: int, kind: DueKind) -> bool:
        return await self.storage.due.extend(table_id=table_id, seq=seq, kind=kind, now=self.clock(),
                                             lease=self.lease)

    async def window_left(self, *, table_id: int) -> float:
        now = self.clock()
        ends = [step.at for step in await self.storage.due.pending(table_id=table_id) if step.kind is DueKind.KONTRA]
        return max(0.0, max(((at - now).total_seconds() for at in ends), default=0.0))

    async def close_window(self, *, table_id: int, seq: int) -> bool:
        return await self.storage.due.close_window(table_id=table_id, seq=seq)

    async def release_due(self, *, table_id: int, seq: int) -> None:
        await self.storage.due.release(table_id=table_id, seq=seq)

    async def drop_due(self, *, table_id: int, seq: int, kind: DueKind) -> bool:
        return await self.storage.due.drop(table_id=table_id, seq=seq, kind=kind)

    async def claim_due(self, *, limit: int) -> list[DueStep]:
        return await self.storage.due.claim(now=self.clock(), lease=self.lease, limit=limit)

    async def record_deal(self, *, table_id: int, row: FinishedDeal, table: TableView) -> None:
        game = table
        players = [o.player_id for o in game.places]
        if (table_id, row.number) not in self._started:
            self._started[(table_id, row.number)] = self.clock()
        record = deal_record(
            table_id=table_id, server_id=table.guild_id, deal_number=seen_number(row.number), deal=row.deal,
            players=players, names=game.list_names(), seats=row.places, scores=row.place_scores,
            seeger=row.row.seeger, bock=row.row.bock, started_at=self._started[(table_id, row.number)],
            finished_at=self.clock())
        await self.storage.deals.store(record=record)  # a second store of the same deal is a no-op
        METRICS.deals_finished.inc()
        if game.state is TableState.FINISHED and len(game.finished) == game.deals:
            await self.storage.deals.finish_series(table_id=table_id, now=self.clock())
            try:  # once; a series left unrated here (a failure, a restart) is rated by the next catch-up
                await self.storage.ratings.rate_series(table_id=table_id, now=self.clock())
            except StorageError:
                log.warning("the series of table %s was not rated now; the next catch-up rates it", table_id,
                            exc_info=True)
        for listener in self.deal_listeners:  # (a tournament: it reads the stored deals back, in a task of its own)
            listener(table_id)

    async def set_table_state(self, *, table_id: int, state: TableState, now: datetime | None = None) -> None:
        await self.storage.tables.set_state(table_id=table_id, state=state,
                                            now=now or self.clock())
        if state not in (TableState.OPEN, TableState.PLAYING):
            self._logged.pop(table_id, None)  # an ended table takes no more steps (a late one reads again)

    async def table_started(self, *, table: TableView) -> None:
        """Players and seats are written when play starts (the lobby may change until then)."""
        for occupant in table.places:
            await self.save_player(player_id=occupant.player_id, name=occupant.name, is_ai=occupant.is_ai)
        await self.storage.tables.set_seats(table_id=table.id, seats=[o.player_id for o in table.places],
                                            now=self.clock())

    async def unfinished_tables(self) -> list[StoredTable]:
        return [self._stored(unfinished.table, unfinished.log)
                for unfinished in await self.storage.load_unfinished_tables()]

    async def load_table(self, *, table_id: int) -> StoredTable | None:
        try:
            table = await self.storage.tables.get(table_id=table_id)
        except NotFound:
            return None
        return self._stored(table, await self.storage.tables.log(table_id=table_id))

    async def running_in(self, *, channel_id: int) -> list[int]:
        return await self.storage.tables.running_in(channel_id=channel_id)

    async def last_in(self, *, channel_id: int) -> int | None:
        return await self.storage.tables.last_in(channel_id=channel_id)

    async def playing_with(self, *, player_id: int) -> list[int]:
        return await self.storage.tables.playing_with(player_id=player_id)

    async def stored_table(self, table_id: int) -> StoredTable:
        """Any stored table (a finished one too) with its log: for what it still has to show, or its list."""
        table = await self.storage.tables.get(table_id=table_id)
        return self._stored(table, await self.storage.tables.log(table_id=table_id))

    def _stored(self, table: TableRecord, log: tuple[LogEntry, ...]) -> StoredTable:
        """The tables layer's view of a stored table; deal start times are kept for the deal records."""
        for stored in log:
            if stored.entry.startswith("deal "):
                parsed = parse_entry(stored.entry)
                if isinstance(parsed, NewDeal):
                    self._started[(table.table_id, parsed.number)] = stored.at
        plays_in = table.thread_id if table.thread_id is not None else table.channel_id  # its thread, if any
        return StoredTable(table.table_id, table.server_id, plays_in, table.creator_id, table.size,
                           table.series_length, RuleSet.from_dict(table.rules), tuple(stored.entry for stored in log))


def finished_deals(table: TableRecord, log: tuple[LogEntry, ...]) -> dict[int, Deal]:
    """The deals a stored table log finished, by stored deal number (from 1), replayed by the tables layer:
    what `python -m skatbot.storage check` compares the stored deal records against. Raises ValueError
    (`skatbot.tables.replay.ReplayError`) naming the first entry that does not replay."""
    replayed = replay_log(size=table.size, deals=table.series_length, rules=RuleSet.from_dict(table.rules),
                          creator_id=table.creator_id, entries=[stored.entry for stored in log])
    return {seen_number(row.number): row.deal for row in replayed.game.finished}
