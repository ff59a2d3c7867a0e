"""The PostgreSQL database: an asyncpg pool, numbered migrations, and the connection the SQL repositories use.

Several bot processes may share one database, so nothing here relies on an in-process lock: a write
is one PostgreSQL transaction (READ COMMITTED; the unique keys make a second writer fail rather than
double anything), a read is a read-only REPEATABLE READ transaction (one snapshot, as with SQLite's
reader). Migrations run under a transaction-level advisory lock, so processes starting together apply
each migration once; the applied version is the single row of `schema_version`.

The repositories' SQL is portable: `:name` and `?` parameters are rewritten to `$1, $2 ...` once per
statement text, outside quoted strings.
"""

from __future__ import annotations

import asyncio

import re
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import asyncpg

from ..database import Migration, load_migrations
from ..errors import MigrationError, SchemaTooNew, StorageError
from ..sql.connection import Params

MIGRATIONS = Path(__file__).parents[1] / "migrations" / "postgres"
MIGRATION_LOCK = 0x5CA7B07  # the advisory lock key every skatbot process takes while migrating
TABLE_LOCKS = 0x5CA7  # the first key of a table's advisory lock; the second is the table id
PRESENTATION_LOCKS = 0x5CA8  # the first key of the lock held while a table is shown
LOCK_CONNECTIONS = 20
"""Connections kept apart for holding table locks: a lock holder then writes through the main pool, which
no one holds while waiting for a lock, so a busy process can wait but never deadlock on its pools."""
PRESENTING_AT_ONCE = LOCK_CONNECTIONS // 2
"""Of those, at most this many hold a table's presentation lock (held while its messages are posted, which
may wait on Discord): moves always find a connection for their table lock."""
_PARAMETER = re.compile(r"'(?:[^']|'')*'|(?<!:):([A-Za-z_]\w*)|\?")
_FETCHES = re.compile(r"^\s*(SELECT|WITH)\b|\bRETURNING\b", re.IGNORECASE)


@lru_cache(maxsize=512)
def translate(sql: str) -> tuple[str, tuple[str, ...] | int]:
    """`sql` with $n placeholders, and the parameter names in order (or the count of `?` placeholders)."""
    names: list[str] = []
    positional = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal positional
        text = match.group(0)
        if text.startswith("'"):
            return text
        if text == "?":
            positional += 1
            return f"${positional}"
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    translated = _PARAMETER.sub(replace, sql)
    if names and positional:
        raise ValueError("a statement uses either :name or ? parameters, not both")
    return translated, tuple(names) if names else positional


def _arguments(sql: str, parameters: Params) -> tuple[str, list[object]]:
    translated, order = translate(sql)
    if isinstance(order, tuple):
        if not isinstance(parameters, Mapping):
            raise TypeError("named parameters need a mapping")
        return translated, [parameters[name] for name in order]
    if isinstance(parameters, Mapping):
        if order:
            raise TypeError("? parameters need a sequence")
        return translated, []
    values = list(parameters)
    if len(values) != order:
        raise ValueError(f"the statement takes {order} parameters, {len(values)} given")
    return translated, values


class PgCursor:
    """The rows (or the row count) of one statement, shaped like an aiosqlite cursor."""

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[asyncpg.Record]:
        return self._rows


class _Pending:
    """What `PgConnection.execute` returns: await it, or `async with` it for the cursor (as aiosqlite)."""

    def __init__(self, connection: asyncpg.Connection, sql: str, parameters: Params) -> None:
        self._connection = connection
        self._sql = sql
        self._parameters = parameters

    async def _run(self) -> PgCursor:
        sql, values = _arguments(self._sql, self._parameters)
        if _FETCHES.search(sql):
            rows = await self._connection.fetch(sql, *values)
            return PgCursor(list(rows), len(rows))
        status = await self._connection.execute(sql, *values)
        count = status.rsplit(" ", 1)[-1]
        return PgCursor([], int(count) if count.isdigit() else -1)

    def __await__(self) -> Any:
        return self._run().__await__()

    async def __aenter__(self) -> PgCursor:
        return await self._run()

    async def __aexit__(self, *exc_info: object) -> None:
        return None


class PgConnection:
    """An asyncpg connection with the aiosqlite calls the SQL repositories make."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.raw = connection

    def execute(self, sql: str, parameters: Params = (), /) -> _Pending:
        return _Pending(self.raw, sql, parameters)

    async def execute_fetchall(self, sql: str, parameters: Params = (), /) -> list[asyncpg.Record]:
        translated, values = _arguments(sql, parameters)
        return list(await self.raw.fetch(translated, *values))

    async def executemany(self, sql: str, parameters: Iterable[Params], /) -> None:
        rows = list(parameters)
        if not rows:
            return
        translated = _arguments(sql, rows[0])[0]
        await self.raw.executemany(translated, [_arguments(sql, row)[1] for row in rows])


class PostgresDatabase:
    """A pool of connections to one PostgreSQL database (its schema chosen by the URL's search_path)."""

    skip_locked = " FOR UPDATE SKIP LOCKED"  # a row another process is claiming is left to it
    lock_rows = " FOR UPDATE"  # a row another process is claiming is waited for, then read as it left it

    def __init__(self, pool: asyncpg.Pool, url: str, lock_pool: asyncpg.Pool | None = None) -> None:
        self.pool = pool
        self.url = url
        self.lock_pool = lock_pool
        self._presenting = asyncio.Semaphore(PRESENTING_AT_ONCE)

    @classmethod
    async def open(cls, url: str, *, migrations: Path = MIGRATIONS, min_size: int = 1,
                   max_size: int = 10) -> PostgresDatabase:
        """Connect, and bring the schema up to date (SchemaTooNew for a database from a newer skatbot)."""
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, reset=_unchanged)
        except (OSError, asyncpg.PostgresError) as error:
            raise StorageError(f"cannot connect to the PostgreSQL database {redact(url)}: {error}") from error
        database = cls(pool, url)
        try:
            await database.migrate(load_migrations(migrations))
            database.lock_pool = await asyncpg.create_pool(url, min_size=0, max_size=LOCK_CONNECTIONS,
                                                           reset=_unchanged)
        except BaseException:
            await pool.close()
            raise
        return database

    async def close(self) -> None:
        if self.lock_pool is not None:
            await self.lock_pool.close()
        await self.pool.close()

    @asynccontextmanager
    async def table_lock(self, table_id: int) -> AsyncIterator[None]:
        """Hold one table against every process sharing the database (a session advisory lock on a
        connection of its own, released when the block ends, or by the server if this process dies)."""
        if self.lock_pool is None:
            raise StorageError("the database is not open")
        key = table_id & 0x7FFFFFFF
        async with self.lock_pool.acquire() as connection:
            await _on_session(connection, "SELECT pg_advisory_lock($1, $2)", TABLE_LOCKS, key)
            try:
                yield
            finally:
                await _on_session(connection, "SELECT pg_advisory_unlock($1, $2)", TABLE_LOCKS, key)

    @asynccontextmanager
    async def presentation_lock(self, table_id: int) -> AsyncIterator[None]:
        """Show one table in one process at a time, so that the messages end up showing its newest state (an
        advisory lock of its own key space: moves are not held up by a slow post)."""
        if self.lock_pool is None:
            raise StorageError("the database is not open")
        key = table_id & 0x7FFFFFFF
        async with self._presenting, self.lock_pool.acquire() as connection:
            await _on_session(connection, "SELECT pg_advisory_lock($1, $2)", PRESENTATION_LOCKS, key)
            try:
                yield
            finally:
                await _on_session(connection, "SELECT pg_advisory_unlock($1, $2)", PRESENTATION_LOCKS, key)

    async def schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            return await _version(connection)

    async def migrate(self, migrations: Sequence[Migration]) -> int:
        """Apply every pending migration in one transaction, one process at a time; refuse a newer schema."""
        latest = migrations[-1].version if migrations else 0
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await _version(connection)
            if current > latest:
                raise SchemaTooNew(
                    f"the database {redact(self.url)} has schema version {current}, but this skatbot knows only up "
                    f"to version {latest}: it was written by a newer skatbot. Run that version, or restore a backup "
                    "made for this one; the database was not changed.")
            for migration in migrations[current:]:
                try:
                    await connection.execute(migration.sql)
                except asyncpg.PostgresError as error:
                    raise MigrationError(f"migration {migration.name} failed ({error}); the database "
                                         f"{redact(self.url)} was not changed") from error
            if latest != current:
                await connection.execute("DELETE FROM schema_version")
                await connection.execute("INSERT INTO schema_version (version) VALUES ($1)", latest)
        return latest

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """One write transaction: committed when the block ends, rolled back by any exception."""
        async with self.pool.acquire() as connection, connection.transaction():
            yield PgConnection(connection)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[PgConnection]:
        """A read-only transaction on one snapshot of what was committed."""
        async with self.pool.acquire() as connection, \
                connection.transaction(isolation="repeatable_read", readonly=True):
            yield PgConnection(connection)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[asyncpg.Record]:
        translated, values = _arguments(sql, params)
        async with self.pool.acquire() as connection:
            return list(await connection.fetch(translated, *values))


async def _unchanged(connection: asyncpg.Connection) -> None:
    """What a pool does to a connection given back (asyncpg has rolled back any open transaction already):
    nothing more. The repositories change no session state (no SET, LISTEN or cursors kept open), and a
    table's or presentation's lock is released by its holder or its session ended (`_on_session`), so
    asyncpg's reset query, one more round trip on every release, would find nothing to undo."""


async def _on_session(connection: asyncpg.Connection, sql: str, *args: object) -> None:
    """Take or release a session-level lock; if that fails or is cancelled halfway, end the session, so the
    server drops whatever it holds and the pool never hands out a connection holding a table's lock."""
    try:
        await connection.execute(sql, *args)
    except BaseException:
        connection.terminate()
        raise


async def _version(connection: asyncpg.Connection) -> int:
    exists = await connection.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    value = await connection.fetchval("SELECT MAX(version) FROM schema_version")
    return int(value or 0)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)
