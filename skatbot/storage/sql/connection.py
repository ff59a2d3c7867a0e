"""What the SQL repositories need from a database, so one set of repositories serves both backends.

The repositories write portable SQL with named (`:name`) or positional (`?`) parameters against an
aiosqlite-shaped connection: `execute` (awaited, or used as `async with ... as cursor`), `executemany`,
`execute_fetchall`, and cursors with `fetchone`, `fetchall` and `rowcount`. SQLite hands over its aiosqlite connection as it
is; PostgreSQL wraps an asyncpg connection (`postgres.database.PgConnection`). Rows are read by column
name or by position (sqlite3.Row and asyncpg.Record both allow both).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
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


class SqlDatabase(Protocol):
    """A backend's database: a write transaction, a consistent read, and a one-shot query. `skip_locked` is
    what a row-claiming SELECT ends with: ` FOR UPDATE SKIP LOCKED` where several processes share the
    database, nothing on SQLite (one process, whose write transactions run one at a time); `lock_rows` what a
    SELECT that reads rows it is about to change ends with (` FOR UPDATE` there, nothing on SQLite)."""

    skip_locked: str
    lock_rows: str

    def transaction(self) -> AbstractAsyncContextManager[Any]: ...

    def reading(self) -> AbstractAsyncContextManager[Any]: ...

    def table_lock(self, table_id: int) -> AbstractAsyncContextManager[None]: ...

    def presentation_lock(self, table_id: int) -> AbstractAsyncContextManager[None]: ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Any]: ...
