"""Timers and AI turns as rows any process may claim (`table_due`).

An entry that makes a step due writes the table's rows in the entry's own transaction (`write_due`,
called by `SqlTables.append`), replacing the table's earlier rows: what was due before that entry is stale.
The writing process holds its rows for `lease` seconds past their time and fires them itself; any process
claims a row whose time has come and whose lease ran out (`claim`: on PostgreSQL `FOR UPDATE SKIP LOCKED`,
so two processes never claim the same row; on SQLite one UPDATE ... RETURNING in the one process).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from skatbot.models import DUE_LEASE, Due, DueKind, DueStep, check_id

from ..errors import NotFound
from .connection import (
    INTEGRITY_ERRORS,
    Connection,
    SqlDatabase,
    Statement,
    is_foreign_key_error,
    run_statements,
)

DEFAULT_LEASE = DUE_LEASE
NEVER = 1 << 62
"""`claimed_until` of a Kontra window's row once its end was shown (`close_window`): no process claims it again,
and it stays, keeping the window's end, until an entry no longer wants the window. Until then the row is held
and claimed as any other (the window's end is its time), so the end is shown even when the process that opened
the window died in it."""


def to_millis(moment: datetime) -> int:
    if moment.tzinfo is None:
        raise ValueError("times must be timezone-aware (use datetime.now(UTC))")
    return round(moment.timestamp() * 1000)


def from_millis(millis: int) -> datetime:
    return datetime.fromtimestamp(millis / 1000, UTC)


def _lease_millis(lease: float) -> int:
    if lease < 0:
        raise ValueError("a lease is zero seconds or more")
    return round(lease * 1000)


def due_statements(*, table_id: int, seq: int, due: Sequence[Due], now: datetime, lease: float) -> list[Statement]:
    """For a write: the table's due rows become `due` (at `seq`), held by the writer. A Kontra window the table
    had already keeps its end (it opened with an earlier entry; later ones carry it on), and stays closed once
    its end was shown."""
    stamp, held = to_millis(now), _lease_millis(lease)
    for step in due:
        if step.delay < 0:
            raise ValueError("a step is due now or later, not before")
    windows: list[tuple[int, int]] = []  # the table's Kontra window as stored: its end, and claimed_until

    def kept_window(rows: list[Any], _: int) -> None:
        windows.extend((int(row[0]), int(row[1])) for row in rows)

    def new_rows() -> list[tuple[int, int, str, int, int]]:  # after the Kontra window was read, if it was
        rows = []
        for step in due:
            at = stamp + round(step.delay * 1000)
            until = at + held
            if step.kind is DueKind.KONTRA and windows:
                at, claimed = max(windows)
                until = NEVER if claimed >= NEVER else max(at, stamp) + held
            rows.append((table_id, seq, step.kind.value, at, until))
        return rows

    statements = []
    if any(step.kind is DueKind.KONTRA for step in due):
        statements.append(Statement("SELECT due_at, claimed_until FROM table_due WHERE table_id = :table_id "
                                    "AND kind = :kind", {"table_id": table_id, "kind": DueKind.KONTRA.value},
                                    check=kept_window))
    return statements + [
        Statement("DELETE FROM table_due WHERE table_id = :table_id", {"table_id": table_id}),
        Statement("INSERT INTO table_due (table_id, seq, kind, due_at, claimed_until) VALUES (?, ?, ?, ?, ?)",
                  many=new_rows)]


async def write_due(connection: Connection, *, table_id: int, seq: int, due: Sequence[Due], now: datetime,
                    lease: float) -> None:
    """Inside a write transaction: `due_statements`, one after the other."""
    await run_statements(connection, due_statements(table_id=table_id, seq=seq, due=due, now=now, lease=lease))


class SqlDue:
    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def replace(self, *, table_id: int, seq: int, due: Sequence[Due], now: datetime,
                      lease: float = DEFAULT_LEASE) -> None:
        """The table's due rows become `due`, held by the caller (a table resumed after a restart)."""
        check_id("table_id", table_id)
        try:
            async with self._db.transaction() as connection:
                await write_due(connection, table_id=table_id, seq=seq, due=due, now=now, lease=lease)
        except INTEGRITY_ERRORS as error:
            if is_foreign_key_error(error):
                raise NotFound(f"no table {table_id}") from None
            raise

    async def take_over(self, *, table_id: int, seq: int, due: Sequence[Due], now: datetime,
                        lease: float = DEFAULT_LEASE) -> bool:
        """A table resumed after a restart: its due rows become `due` (from `now`, held by the caller) unless a
        row at `seq` is still held by its lease: another process is on it (or died a moment ago, and any
        process's scheduler claims it once the lease runs out). True when the caller holds the rows now and
        fires them itself; False: it must not (two processes would play the same AI turn)."""
        check_id("table_id", table_id)
        stamp = to_millis(now)
        try:
            async with self._db.transaction() as connection:
                held = await connection.execute_fetchall(
                    "SELECT claimed_until FROM table_due WHERE table_id = :table_id AND seq = :seq AND kind <> :window"
                    f"{self._db.lock_rows}", {"table_id": table_id, "seq": seq, "window": DueKind.KONTRA.value})
                if any(int(row[0]) > stamp for row in held):
                    return False
                await write_due(connection, table_id=table_id, seq=seq, due=due, now=now, lease=lease)
        except INTEGRITY_ERRORS as error:
            if is_foreign_key_error(error):
                raise NotFound(f"no table {table_id}") from None
            raise
        return True

    async def extend(self, *, table_id: int, seq: int, kind: DueKind, now: datetime,
                     lease: float = DEFAULT_LEASE) -> bool:
        """The holder is still on this row (a strong AI thinking past its lease): it stays the holder's for
        `lease` seconds from `now`. False when the row is gone (the table moved on, or the step was fired)."""
        until = to_millis(now) + _lease_millis(lease)
        async with self._db.transaction() as connection, connection.execute(
                "UPDATE table_due SET claimed_until = CASE WHEN claimed_until < :until THEN :until "
                "ELSE claimed_until END WHERE table_id = :table_id AND seq = :seq AND kind = :kind",
                {"until": until, "table_id": table_id, "seq": seq, "kind": kind.value}) as cursor:
            return bool(cursor.rowcount == 1)

    async def release(self, *, table_id: int, seq: int) -> int:
        """The holder stops (a clean shutdown): the table's rows at `seq` may be claimed by any process as
        soon as they are due, instead of a lease later (a Kontra window whose end was shown stays closed).
        Returns how many rows were released."""
        async with self._db.transaction() as connection, connection.execute(
                "UPDATE table_due SET claimed_until = 0 WHERE table_id = :table_id AND seq = :seq "
                "AND claimed_until < :never", {"table_id": table_id, "seq": seq, "never": NEVER}) as cursor:
            return int(cursor.rowcount)

    async def close_window(self, *, table_id: int, seq: int) -> bool:
        """The end of the table's Kontra window at `seq` is shown: its row stays (keeping the end for later
        entries) and is never claimed again. True for the one caller that closed it, so of two processes
        ending the window (its holder, and one that claimed it after the holder died) only one shows it."""
        [closed] = await self._db.write([Statement(
            "UPDATE table_due SET claimed_until = :never WHERE table_id = :table_id AND seq = :seq "
            "AND kind = :window AND claimed_until < :never",
            {"never": NEVER, "table_id": table_id, "seq": seq, "window": DueKind.KONTRA.value})])
        return closed.rowcount == 1

    async def claim(self, *, now: datetime, lease: float = DEFAULT_LEASE, limit: int = 20) -> list[DueStep]:
        """Take up to `limit` rows whose time has come and whose holder's lease ran out, earliest first; they
        are this caller's for `lease` seconds (then another process may claim them again)."""
        stamp = to_millis(now)
        ready = await self._db.fetch_all("SELECT 1 FROM table_due WHERE claimed_until <= :now AND due_at <= :now "
                                         "LIMIT 1", {"now": stamp})
        if not ready:  # the usual case, every poll: a read, no write transaction
            return []
        async with self._db.transaction() as connection, connection.execute(
                "UPDATE table_due SET claimed_until = :until WHERE (table_id, seq, kind) IN ("
                "SELECT table_id, seq, kind FROM table_due WHERE claimed_until <= :now AND due_at <= :now "
                f"ORDER BY due_at LIMIT :limit{self._db.skip_locked}) "
                "RETURNING table_id, seq, kind, due_at",
                {"until": stamp + _lease_millis(lease), "now": stamp, "limit": limit}) as cursor:
            rows = await cursor.fetchall()
        steps = [DueStep(int(row[0]), int(row[1]), DueKind(row[2]), from_millis(int(row[3]))) for row in rows]
        return sorted(steps, key=lambda step: (step.at, step.table_id, step.seq, step.kind.value))

    async def drop(self, *, table_id: int, seq: int, kind: DueKind) -> bool:
        """Delete one row (fired, or found stale); True when it was there, so of two processes firing a step
        that stores nothing (a turn warning) only the one that dropped it shows it."""
        [dropped] = await self._db.write([Statement(
            "DELETE FROM table_due WHERE table_id = :table_id AND seq = :seq AND kind = :kind",
            {"table_id": table_id, "seq": seq, "kind": kind.value})])
        return dropped.rowcount == 1

    async def pending(self, *, table_id: int) -> list[DueStep]:
        """The table's due rows, earliest first (what it is waiting for)."""
        rows = await self._db.fetch_all(
            "SELECT table_id, seq, kind, due_at FROM table_due WHERE table_id = :table_id "
            "ORDER BY due_at, kind", {"table_id": table_id})
        return [DueStep(int(row[0]), int(row[1]), DueKind(row[2]), from_millis(int(row[3]))) for row in rows]
