"""Tables, their seats and state, and the append-only table log that restore replays."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from typing import Any

from skatbot.engine import RuleSet
from skatbot.models import (
    Due,
    LogEntry,
    Player,
    TableRecord,
    TableState,
    UnfinishedTable,
    check_id,
    from_seconds,
    to_seconds,
)

from ..errors import LogConflict, NotFound
from .connection import INTEGRITY_ERRORS, Connection, SqlDatabase, Statement, is_foreign_key_error
from .due import DEFAULT_LEASE, due_statements
from .settings import player_statement

_TABLE_COLUMNS = ("table_id, server_id, channel_id, thread_id, creator_id, rule_preset, rules_json, "
                  "series_length, state, created_at, updated_at, size")


def _check_seats(seats: Sequence[int]) -> tuple[int, ...]:
    if len(seats) > 4:
        raise ValueError("a table has at most four seats")
    if len(set(seats)) != len(seats):
        raise ValueError("a player can take only one seat at a table")
    return tuple(check_id("seat player", player) for player in seats)


class SqlTables:
    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def create(self, *, server_id: int, channel_id: int, creator_id: int, rule_preset: str,
                     rules: dict[str, Any], series_length: int, now: datetime, thread_id: int | None = None,
                     seats: Sequence[int] = (), size: int = 3, players: Sequence[Player] = (),
                     entries: Sequence[str] = ()) -> TableRecord:
        """Open a table of `size` seats (state open), in one transaction with what it needs and starts with:
        `players` (saved as `SqlPlayers.save` does; the creator must be one of them or stored already), its
        first log `entries` (from sequence number 0) and its `seats`. All or nothing: a table is never stored
        without its first entries. The server gets a settings row with defaults if it had none."""
        check_id("server_id", server_id)
        check_id("channel_id", channel_id)
        check_id("creator_id", creator_id)
        if thread_id is not None:
            check_id("thread_id", thread_id)
        if series_length <= 0:
            raise ValueError("series_length must be at least one deal")
        if size not in (3, 4):
            raise ValueError("a table has three or four seats")
        RuleSet.from_dict(rules)  # a rule set the engine cannot play is refused before anything is stored
        seat_players = _check_seats(seats)
        for entry in entries:
            _check_entry(entry)
        stamp = to_seconds(now)
        created: list[int] = []

        def returned(rows: list[Any], _: int) -> None:
            created.append(int(rows[0][0]))

        statements = [player_statement(player, now) for player in players]
        statements += [
            Statement("INSERT INTO servers (server_id, updated_at) VALUES (:server_id, :now) "
                      "ON CONFLICT (server_id) DO NOTHING", {"server_id": server_id, "now": stamp}),
            Statement("INSERT INTO tables (server_id, channel_id, thread_id, creator_id, rule_preset, rules_json, "
                      "series_length, state, created_at, updated_at, size) VALUES (:server_id, :channel_id, "
                      ":thread_id, :creator_id, :preset, :rules, :length, 'open', :now, :now, :size) RETURNING table_id",
                      {"server_id": server_id, "channel_id": channel_id, "thread_id": thread_id,
                       "creator_id": creator_id, "preset": rule_preset, "rules": json.dumps(rules, sort_keys=True),
                       "length": series_length, "now": stamp, "size": size}, check=returned),
            Statement("INSERT INTO table_log (table_id, seq, entry, at) VALUES (?, ?, ?, ?)",
                      many=lambda: [(created[0], seq, entry, stamp) for seq, entry in enumerate(entries)]),
            Statement("INSERT INTO table_seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                      many=lambda: [(created[0], seat, player) for seat, player in enumerate(seat_players)])]
        try:
            await self._db.write(statements)
        except INTEGRITY_ERRORS as error:
            if is_foreign_key_error(error):
                raise NotFound("the creator or a seat player of the new table is not a stored player "
                               "(save players first)") from None
            raise
        return TableRecord(created[0], server_id, channel_id, thread_id, creator_id, seat_players, rule_preset,
                     dict(rules), series_length, TableState.OPEN, from_seconds(stamp), from_seconds(stamp), size)

    async def get(self, *, table_id: int) -> TableRecord:
        async with self._db.reading() as connection:
            tables = await _load_tables(connection, "WHERE table_id = :table_id", {"table_id": table_id})
        if not tables:
            raise NotFound(f"no table {table_id}")
        return tables[0]

    async def set_seats(self, *, table_id: int, seats: Sequence[int], now: datetime) -> None:
        seat_players = _check_seats(seats)
        try:
            await self._db.write([
                _touch_statement(table_id, now),
                Statement("DELETE FROM table_seats WHERE table_id = :table_id", {"table_id": table_id}),
                Statement("INSERT INTO table_seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                          many=[(table_id, seat, player) for seat, player in enumerate(seat_players)])])
        except INTEGRITY_ERRORS:
            raise NotFound(f"a seat player of table {table_id} is not a stored player (save players first)") from None

    async def set_state(self, *, table_id: int, state: TableState, now: datetime) -> None:
        await self._db.write([_touch_statement(table_id, now, state)])

    async def all_ids(self) -> list[int]:
        """Every table id, oldest first (for maintenance walks)."""
        rows = await self._db.fetch_all("SELECT table_id FROM tables ORDER BY table_id")
        return [int(row[0]) for row in rows]

    async def in_channel(self, *, channel_id: int) -> list[TableRecord]:
        """The unfinished tables in a channel or thread (to find the table a command is about)."""
        async with self._db.reading() as connection:
            return await _load_tables(
                connection, "WHERE (channel_id = :channel OR thread_id = :channel) AND state IN ('open', 'playing')",
                {"channel": channel_id})

    async def running_in(self, *, channel_id: int) -> list[int]:
        """The ids of the tables open or playing where they play: this channel, or this thread when a table
        has a thread of its own (a command in a channel never finds the tables of its threads), oldest first."""
        rows = await self._db.fetch_all(
            "SELECT table_id FROM tables WHERE state IN ('open', 'playing') AND "
            "(thread_id = :channel OR (channel_id = :channel AND thread_id IS NULL)) ORDER BY table_id",
            {"channel": channel_id})
        return [int(row[0]) for row in rows]

    async def last_in(self, *, channel_id: int) -> int | None:
        """The newest table that played in this channel or thread, in any state (a finished series keeps its
        list until the next table opens there)."""
        rows = await self._db.fetch_all(
            "SELECT table_id FROM tables WHERE (thread_id = :channel OR (channel_id = :channel AND thread_id IS NULL))"
            " ORDER BY table_id DESC LIMIT 1", {"channel": channel_id})
        return int(rows[0][0]) if rows else None

    async def opened_by(self, *, creator_id: int, channel_id: int, since: datetime) -> int | None:
        """The newest table this player opened from this channel (playing there, or in a thread of its own
        opened from it) at `since` or later, in any state: whether a /skat new that was pending when the bot
        stopped was stored."""
        rows = await self._db.fetch_all(
            "SELECT table_id FROM tables WHERE creator_id = :creator AND channel_id = :channel AND created_at >= :since"
            " ORDER BY table_id DESC LIMIT 1",
            {"creator": creator_id, "channel": channel_id, "since": to_seconds(since)})
        return int(rows[0][0]) if rows else None

    async def playing_with(self, *, player_id: int) -> list[int]:
        """The ids of the tables playing with this player seated (seats are stored when play starts),
        oldest first: for a command in a direct message, which names no table."""
        rows = await self._db.fetch_all(
            "SELECT tables.table_id FROM tables JOIN table_seats ON table_seats.table_id = tables.table_id "
            "WHERE tables.state = 'playing' AND table_seats.player_id = :player ORDER BY tables.table_id",
            {"player": player_id})
        return [int(row[0]) for row in rows]

    # --- the log -----------------------------------------------------------------------------------

    async def append(self, *, table_id: int, seq: int, entry: str, now: datetime,
                     due: Sequence[Due] | None = None, lease: float = DEFAULT_LEASE) -> LogEntry:
        """Store one log entry (the tables layer's text) under the table's sequence number; it is durable
        when this returns, so the caller may acknowledge it.

        `seq` is the caller's count of entries so far: a second writer with a stale view gets LogConflict.
        `due`: what the entry makes due (the table's due rows become these, at `seq + 1`, held by the
        caller for `lease` seconds past their time), in the same transaction; None leaves the rows alone.
        """
        stored = LogEntry(seq, entry, from_seconds(to_seconds(now)))
        await self.append_many(table_id=table_id, entries=(stored,), due=due, now=now, lease=lease)
        return stored

    async def append_many(self, *, table_id: int, entries: Sequence[LogEntry], due: Sequence[Due] | None = None,
                          now: datetime | None = None, lease: float = DEFAULT_LEASE) -> None:
        """Store several entries in one transaction (all or none), with what the last one makes due."""
        for entry in entries:
            if entry.seq < 0:
                raise ValueError("log entries need seq >= 0")
            _check_entry(entry.entry)
        if not entries:
            return
        if [e.seq for e in entries] != list(range(entries[0].seq, entries[0].seq + len(entries))):
            raise ValueError("log entries must have consecutive sequence numbers")
        first = entries[0].seq

        def follows_on(rows: list[Any], _: int) -> None:  # checked inside the write: nothing stored on a gap
            expected = 0 if rows[0][0] is None else int(rows[0][0]) + 1
            if first > expected:
                raise LogConflict(f"table {table_id}: the next log entry is {expected}, not {first}")

        statements = [
            Statement("SELECT MAX(seq) FROM table_log WHERE table_id = :table_id", {"table_id": table_id},
                      check=follows_on),
            Statement("INSERT INTO table_log (table_id, seq, entry, at) VALUES (?, ?, ?, ?)",
                      many=[(table_id, e.seq, e.entry, to_seconds(e.at)) for e in entries])]
        if due is not None:
            statements += due_statements(table_id=table_id, seq=entries[-1].seq + 1, due=due,
                                         now=now or entries[-1].at, lease=lease)
        try:
            await self._db.write(statements)
        except INTEGRITY_ERRORS as error:
            if is_foreign_key_error(error):
                raise NotFound(f"no table {table_id}") from None
            raise LogConflict(f"table {table_id} already has log entry {first}: "
                              "another writer got there first") from None

    async def log(self, *, table_id: int, since: int = 0) -> tuple[LogEntry, ...]:
        """The table's entries from sequence number `since` on (all of them by default), in order: one
        statement, so one snapshot without a transaction around it (on PostgreSQL one round trip, where a
        step reads what other processes appended)."""
        return _log_entries(await self._db.fetch_all(_LOG_SQL, {"table_id": table_id, "since": since}))

    def lock(self, *, table_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the table against every other writer (other processes too, on PostgreSQL) while a move is
        checked against the log, applied and appended."""
        return _without_rows(self._db.table_lock(table_id))

    def locked_log(self, *, table_id: int, since: int) -> AbstractAsyncContextManager[tuple[LogEntry, ...]]:
        """`lock`, and the table's entries from `since` on as they are once it is held (on PostgreSQL taken in
        one go with the lock): what other processes appended, for the step about to be checked."""
        return _log_under(self._db.table_lock(table_id, Statement(_LOG_SQL, {"table_id": table_id, "since": since})))

    async def load_unfinished(self) -> list[UnfinishedTable]:
        """Every open or playing table with its whole log, for restore by replay at start-up."""
        async with self._db.reading() as connection:
            tables = await _load_tables(connection, "WHERE state IN ('open', 'playing')", {})
            out = []
            for table in tables:
                log = await _load_log(connection, table.table_id)
                async with connection.execute("SELECT deal_number FROM deals WHERE table_id = :table_id",
                                              {"table_id": table.table_id}) as cursor:
                    stored = frozenset(int(row[0]) for row in await cursor.fetchall())
                out.append(UnfinishedTable(table, log, stored))
        return out


def _check_entry(entry: str) -> None:
    if not entry.strip() or "\n" in entry:
        raise ValueError("a log entry is one non-empty line of text")


def _touch_statement(table_id: int, now: datetime, state: TableState | None = None) -> Statement:
    """The table's `updated_at` (and state) as a write's statement; NotFound when there is no such table."""
    def found(_: list[Any], rowcount: int) -> None:
        if rowcount != 1:
            raise NotFound(f"no table {table_id}")

    return Statement("UPDATE tables SET updated_at = :now, state = COALESCE(:state, state) WHERE table_id = :table_id",
                     {"now": to_seconds(now), "state": state.value if state else None, "table_id": table_id},
                     check=found)


async def _load_tables(connection: Connection, where: str, params: dict[str, object]) -> list[TableRecord]:
    async with connection.execute(f"SELECT {_TABLE_COLUMNS} FROM tables {where} ORDER BY table_id",
                                  params) as cursor:
        rows = list(await cursor.fetchall())
    tables = []
    for row in rows:
        async with connection.execute("SELECT player_id FROM table_seats WHERE table_id = :table_id ORDER BY seat",
                                      {"table_id": row["table_id"]}) as cursor:
            seats = tuple(int(seat[0]) for seat in await cursor.fetchall())
        tables.append(TableRecord(
            table_id=row["table_id"], server_id=row["server_id"], channel_id=row["channel_id"],
            thread_id=row["thread_id"], creator_id=row["creator_id"], seats=seats, rule_preset=row["rule_preset"],
            rules=json.loads(row["rules_json"]), series_length=row["series_length"],
            state=TableState(row["state"]), created_at=from_seconds(row["created_at"]),
            updated_at=from_seconds(row["updated_at"]), size=row["size"]))
    return tables


_LOG_SQL = "SELECT seq, entry, at FROM table_log WHERE table_id = :table_id AND seq >= :since ORDER BY seq"


async def _load_log(connection: Connection, table_id: int, since: int = 0) -> tuple[LogEntry, ...]:
    async with connection.execute(_LOG_SQL, {"table_id": table_id, "since": since}) as cursor:
        return _log_entries(await cursor.fetchall())


@asynccontextmanager
async def _without_rows(lock: AbstractAsyncContextManager[list[Any]]) -> AsyncIterator[None]:
    async with lock:
        yield


@asynccontextmanager
async def _log_under(lock: AbstractAsyncContextManager[list[Any]]) -> AsyncIterator[tuple[LogEntry, ...]]:
    async with lock as rows:
        yield _log_entries(rows)


def _log_entries(rows: Iterable[Any]) -> tuple[LogEntry, ...]:
    return tuple(LogEntry(row["seq"], row["entry"], from_seconds(row["at"])) for row in rows)
