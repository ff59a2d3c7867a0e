"""What the SQL repositories need from a database, so one set of repositories serves both backends.

The repositories write portable SQL with named (`:name`) or positional (`?`) parameters against an
aiosqlite-shaped connection: `execute` (awaited, or used as `async with ... as cursor`), `executemany`,
`execute_fetchall`, and cursors with `fetchone`, `fetchall` and `rowcount`. SQLite hands over its aiosqlite connection as it
is; PostgreSQL wraps an asyncpg connection (`postgres.database.PgConnection`). Rows are read by column
name or by position (sqlite3.Row and asyncpg.Record both allow both).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

import asyncpg

Params = Mapping[str, object] | Sequence[object]

INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
"""A constraint refused a write (unique key, foreign key, check), whichever backend said so."""


def is_foreign_key_error(error: Exception) -> bool:
    """The constraint that refused the write was a foreign key (a row it refers to does not exist)."""
    if isinstance(error, asyncpg.ForeignKeyViolationError):
        return True
    return isinstance(error, sqlite3.IntegrityError) and "FOREIGN KEY" in str(error)


class Connection(Protocol):
    """The aiosqlite calls the repositories make; `execute` returns an awaitable cursor context."""

    def execute(self, sql: str, parameters: Params = ..., /) -> Any: ...

    async def executemany(self, sql: str, parameters: Iterable[Params], /) -> Any: ...

    async def execute_fetchall(self, sql: str, parameters: Params = ..., /) -> Iterable[Any]:
        """A query's rows in one call (aiosqlite: one trip to its thread instead of execute, fetch, close)."""


def in_list(prefix: str, values: Sequence[object]) -> tuple[str, dict[str, object]]:
    """The placeholders of `IN (...)` for `values` (named `:<prefix>0`, `:<prefix>1`, ...) and their
    parameters: both SQLite and PostgreSQL take them, where a bound list is not portable. "NULL" for none."""
    params = {f"{prefix}{index}": value for index, value in enumerate(values)}
    return ", ".join(f":{name}" for name in params) or "NULL", params


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a `SqlDatabase.write`: run once with `params`, or once per parameter set in `many`
    (executemany; skipped when `many` is empty; a function is called for them just before, after the checks
    of the statements before it). `check(rows, rowcount)` sees its outcome and may raise, which rolls the whole
    write back. Neither may wait (on SQLite they run on the database's thread)."""

    sql: str
    params: Params = ()
    many: Sequence[Params] | Callable[[], Sequence[Params]] | None = None
    check: Callable[[list[Any], int], None] | None = None

    def parameter_sets(self) -> Sequence[Params]:
        """`many`, called if it is a function (only for a statement that has it)."""
        assert self.many is not None
        return self.many() if callable(self.many) else self.many


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one statement of a write returned: its rows (for a SELECT or RETURNING) and its row count (-1 for
    an executemany: not every driver counts those)."""

    rows: list[Any]
    rowcount: int


async def run_statements(connection: Connection, statements: Sequence[Statement]) -> list[Outcome]:
    """The statements one after another on `connection` (inside the caller's transaction), with their checks."""
    outcomes = []
    for statement in statements:
        if statement.many is not None:
            await connection.executemany(statement.sql, statement.parameter_sets())
            outcome = Outcome([], -1)
        else:
            async with connection.execute(statement.sql, statement.params) as cursor:
                outcome = Outcome(list(await cursor.fetchall()), cursor.rowcount)
        if statement.check is not None:
            statement.check(outcome.rows, outcome.rowcount)
        outcomes.append(outcome)
    return outcomes


class SqlDatabase(Protocol):
    """A backend's database: a write transaction, a consistent read, and a one-shot query. `skip_locked` is
    what a row-claiming SELECT ends with: ` FOR UPDATE SKIP LOCKED` where several processes share the
    database, nothing on SQLite (one process, whose write transactions run one at a time); `lock_rows` what a
    SELECT that reads rows it is about to change ends with (` FOR UPDATE` there, nothing on SQLite)."""

    skip_locked: str
    lock_rows: str

    def transaction(self) -> AbstractAsyncContextManager[Any]: ...

    async def write(self, statements: Sequence[Statement]) -> list[Outcome]:
        """The statements in order in one write transaction (all or none), each one's outcome. A write whose
        statements are known up front: SQLite runs it in one trip to its connection's thread, where a
        `transaction()` block pays a trip (and waits for the event loop) per statement, holding every other
        writer up meanwhile."""

    def reading(self) -> AbstractAsyncContextManager[Any]: ...

    async def read(self, statements: Sequence[Statement]) -> list[list[Any]]:
        """Each statement's rows (`params` only; no `many` or `check`), all from one snapshot: on SQLite in one
        trip to the reading connection's thread, where a `reading()` block pays a trip per call."""

    def table_lock(self, table_id: int, then: Statement | None = None) -> AbstractAsyncContextManager[list[Any]]:
        """Hold the table against other writers (other processes too, where they share the database); the
        block gets the rows of `then`, read once the lock is held."""

    def presentation_lock(self, table_id: int) -> AbstractAsyncContextManager[None]: ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Any]: ...
