"""The PostgreSQL database: an asyncpg pool, numbered migrations, and the connection the SQL repositories use.

Several bot processes may share one database, so nothing here relies on an in-process lock: a write
is one PostgreSQL transaction (READ COMMITTED; the unique keys make a second writer fail rather than
double anything), a read is a read-only REPEATABLE READ transaction (one snapshot, as with SQLite's
reader). Migrations run under a transaction-level advisory lock, so processes starting together apply
each migration once; the applied version is the single row of `schema_version`.

A server that is slow or out of reach counts as busy, as a locked SQLite file does: a connection that cannot
be had within `busy_seconds` (refused, none free in the pool), a statement that runs past it (PostgreSQL's
statement_timeout: held up by another session's lock, say), or a table's lock held longer than
`table_lock_seconds` raises `StoreBusy`. Nothing was written then, and the same step may be tried again.
A failing COMMIT is not said to be busy: it may have been applied.

The repositories' SQL is portable: `:name` and `?` parameters are rewritten to `$1, $2 ...` once per
statement text, outside quoted strings.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping, Sequence
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from ..database import Migration, load_migrations
from ..errors import MigrationError, SchemaTooNew, StorageError, StoreBusy
from ..sql.connection import Outcome, Params, Statement, run_statements
from .io import IOThread

log = logging.getLogger(__name__)
T = TypeVar("T")
MIGRATIONS = Path(__file__).parents[1] / "migrations" / "postgres"
MIGRATION_LOCK = 0x5CA7B07  # the advisory lock key every skatbot process takes while migrating
TABLE_LOCKS = 0x5CA7  # the first key of a table's advisory lock; the second is the table id
PRESENTATION_LOCKS = 0x5CA8  # the first key of the lock held while a table is shown
SHARED_CONNECTIONS = 4
"""The bot loop's own pool, for the few writes that are blocks of statements (claiming due steps, say): the
writes and reads known up front go through the database thread's pool (`max_size` connections)."""
LOCK_CONNECTIONS = 20
"""Connections kept apart for holding table locks: a lock holder then writes through the main pool, which
no one holds while waiting for a lock, so a busy process can wait but never deadlock on its pools."""
PRESENTING_AT_ONCE = LOCK_CONNECTIONS // 2
"""Of those, at most this many hold a table's presentation lock (held while its messages are posted, which
may wait on Discord): moves always find a connection for their table lock."""
BUSY_SECONDS = 5.0
"""How long a connection or a statement may take before the database counts as busy (SQLite's busy timeout)."""
TABLE_LOCK_SECONDS = 30.0
"""How long a step waits for a table another process holds (a claim is judged under that lock)."""
CONNECT_SECONDS = 60.0
"""How long a new connection may take when no busy limit is set (asyncpg's default)."""
BUSY = (OSError, asyncpg.PostgresConnectionError, asyncpg.InsufficientResourcesError,
        asyncpg.OperatorInterventionError, asyncpg.LockNotAvailableError, asyncpg.TransactionRollbackError)
"""What a slow or unreachable server raises before anything is written: timeouts (TimeoutError is an OSError)
and refused or lost connections, too many connections, a statement cancelled by statement_timeout, a lock not
granted, a transaction the server rolled back."""
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

    def __init__(self, pool: asyncpg.Pool, url: str, lock_pool: asyncpg.Pool | None = None, *,
                 busy_seconds: float | None = BUSY_SECONDS,
                 table_lock_seconds: float | None = TABLE_LOCK_SECONDS, io: IOThread | None = None,
                 io_pool: asyncpg.Pool | None = None) -> None:
        self.pool = pool
        self.url = url
        self.lock_pool = lock_pool
        self.io = io  # where `write`, `read` and `fetch_all` run, on `io_pool`; None: on the caller's loop
        self.io_pool = io_pool
        self.busy_seconds = busy_seconds
        self.table_lock_seconds = table_lock_seconds
        self._presenting = asyncio.Semaphore(PRESENTING_AT_ONCE)

    @classmethod
    async def open(cls, url: str, *, migrations: Path = MIGRATIONS, min_size: int = 1, max_size: int = 10,
                   busy_seconds: float | None = BUSY_SECONDS,
                   table_lock_seconds: float | None = TABLE_LOCK_SECONDS) -> PostgresDatabase:
        """Connect, and bring the schema up to date (SchemaTooNew for a database from a newer skatbot).
        `busy_seconds` None: no limit (the maintenance commands, whose statements may run long). The writes
        and reads known up front run on a thread of their own (`IOThread`), on a pool of `max_size`."""
        patience = CONNECT_SECONDS if busy_seconds is None else busy_seconds
        limit = "0" if busy_seconds is None else str(max(1, round(busy_seconds * 1000)))

        def connections(least: int, most: int, settings: dict[str, str] | None) -> asyncpg.Pool:
            return asyncpg.create_pool(url, min_size=least, max_size=most, reset=_unchanged, timeout=patience,
                                       server_settings=settings)

        try:
            pool = await connections(1, max(1, min(max_size, SHARED_CONNECTIONS)), {"statement_timeout": limit})
        except (OSError, asyncpg.PostgresError) as error:
            raise StorageError(f"cannot connect to the PostgreSQL database {redact(url)}: {error}") from error
        database = cls(pool, url, busy_seconds=busy_seconds, table_lock_seconds=table_lock_seconds)
        try:
            await database.migrate(load_migrations(migrations))
            database.io = IOThread()

            async def io_pools() -> tuple[asyncpg.Pool, asyncpg.Pool]:
                # no statement_timeout on the locks' pool: a lock is waited for as long as its caller says
                return (await connections(min_size, max_size, {"statement_timeout": limit}),
                        await connections(0, LOCK_CONNECTIONS, None))

            database.io_pool, database.lock_pool = await database.io.run(io_pools())
        except BaseException:
            await database.close()
            raise
        return database

    @asynccontextmanager
    async def _connection(self, pool: asyncpg.Pool | None) -> AsyncIterator[asyncpg.Connection]:
        """A connection of `pool` within `busy_seconds`, or StoreBusy (the server refused or did not answer,
        or every connection stayed in use)."""
        connection = await self._acquire(pool)
        try:
            yield connection
        finally:
            assert pool is not None
            await pool.release(connection)

    async def _acquire(self, pool: asyncpg.Pool | None) -> asyncpg.Connection:
        """A connection of `pool` within `busy_seconds`, or StoreBusy; the caller gives it back."""
        if pool is None:
            raise StorageError("the database is not open")
        try:
            return await pool.acquire(timeout=self.busy_seconds)
        except BUSY as error:
            raise StoreBusy(f"no connection to the PostgreSQL database {redact(self.url)} in time: "
                              f"{error!r}") from error

    def _busy(self, error: BaseException) -> StoreBusy:
        return StoreBusy(f"the PostgreSQL database {redact(self.url)} did not answer in time: {error!r}")

    async def close(self) -> None:
        if self.io is not None:
            pools = [pool for pool in (self.io_pool, self.lock_pool) if pool is not None]

            async def close_pools() -> None:
                for pool in pools:
                    await pool.close()

            await self.io.run(close_pools())
            self.io.stop()
        elif self.lock_pool is not None:
            await self.lock_pool.close()
        await self.pool.close()

    @asynccontextmanager
    async def table_lock(self, table_id: int, then: Statement | None = None) -> AsyncIterator[list[Any]]:
        """Hold one table against every process sharing the database (a session advisory lock on a
        connection of its own, released when the block ends, or by the server if this process dies). `then`:
        a read made as soon as the lock is held, whose rows the block gets (with the lock, one turn of the
        caller's loop)."""
        async with self._session_lock(TABLE_LOCKS, table_id & 0x7FFFFFFF, self.table_lock_seconds, then) as rows:
            yield rows

    @asynccontextmanager
    async def presentation_lock(self, table_id: int) -> AsyncIterator[None]:
        """Show one table in one process at a time, so that the messages end up showing its newest state (an
        advisory lock of its own key space: moves are not held up by a slow post)."""
        async with self._presenting, self._session_lock(PRESENTATION_LOCKS, table_id & 0x7FFFFFFF, None):
            yield

    @asynccontextmanager
    async def _session_lock(self, space: int, key: int, patience: float | None,
                            then: Statement | None = None) -> AsyncIterator[list[Any]]:
        """An advisory lock held by a connection of the locks' pool while the block runs (with the rows of
        `then`, read under it); taken and let go on the database thread when there is one."""
        io = self.io
        if io is None:
            connection, rows = await self._take_lock(space, key, patience, then)
            try:
                yield rows
            finally:
                await self._let_go(connection, space, key)
            return
        taking = asyncio.run_coroutine_threadsafe(self._take_lock(space, key, patience, then), io.loop)
        try:
            connection, rows = await asyncio.wrap_future(taking)
        except asyncio.CancelledError:  # the caller gave up: a lock taken all the same is let go there
            taking.add_done_callback(lambda done: self._let_go_later(done, space, key))
            raise
        try:
            yield rows
        finally:  # let go there without waiting for it (whoever takes the lock next waits for it there): a
            # move is acknowledged as soon as it is stored
            letting_go = asyncio.run_coroutine_threadsafe(self._let_go(connection, space, key), io.loop)
            letting_go.add_done_callback(_failure_logged)

    def _let_go_later(self, taking: Future[tuple[asyncpg.Connection, list[Any]]], space: int, key: int) -> None:
        if self.io is not None and not taking.cancelled() and taking.exception() is None:
            asyncio.run_coroutine_threadsafe(self._let_go(taking.result()[0], space, key), self.io.loop)

    async def _take_lock(self, space: int, key: int, patience: float | None,
                         then: Statement | None) -> tuple[asyncpg.Connection, list[Any]]:
        connection = await self._acquire(self.lock_pool)
        assert self.lock_pool is not None
        try:
            await _on_session(connection, "SELECT pg_advisory_lock($1, $2)", space, key, timeout=patience)
        except BaseException as error:
            await self.lock_pool.release(connection)
            if isinstance(error, BUSY):
                raise self._busy(error) from error
            raise
        if then is None:
            return connection, []
        try:
            translated, values = _arguments(then.sql, then.params)
            rows = list(await connection.fetch(translated, *values, timeout=self.busy_seconds))
        except BaseException as error:
            await self._let_go(connection, space, key)
            if isinstance(error, BUSY):
                raise self._busy(error) from error
            raise
        return connection, rows

    async def _let_go(self, connection: asyncpg.Connection, space: int, key: int) -> None:
        assert self.lock_pool is not None
        try:
            await _on_session(connection, "SELECT pg_advisory_unlock($1, $2)", space, key)
        finally:
            await self.lock_pool.release(connection)

    async def migrate(self, migrations: Sequence[Migration]) -> int:
        """Apply every pending migration in one transaction, one process at a time; refuse a newer schema."""
        latest = migrations[-1].version if migrations else 0
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute("SET LOCAL statement_timeout = 0")  # a migration takes what it takes
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

    def transaction(self) -> AbstractAsyncContextManager[PgConnection]:
        """One write transaction: committed when the block ends, rolled back by any exception (StoreBusy
        when the server was slow or out of reach before the COMMIT: nothing was written)."""
        return self._transaction(self.pool)

    @asynccontextmanager
    async def _transaction(self, pool: asyncpg.Pool | None) -> AsyncIterator[PgConnection]:
        async with self._connection(pool) as connection:
            transaction = connection.transaction()
            try:
                await transaction.start()
            except BUSY as error:
                raise self._busy(error) from error
            try:
                yield PgConnection(connection)
            except BaseException as error:
                try:
                    await transaction.rollback()
                except Exception:  # the connection is lost: the server rolled it back itself
                    connection.terminate()
                if isinstance(error, BUSY):
                    raise self._busy(error) from error
                raise
            await transaction.commit()

    async def write(self, statements: Sequence[Statement]) -> list[Outcome]:
        """The statements in one transaction (see `SqlDatabase.write`), on the database thread: a round trip
        each there, one turn of the caller's loop for all of them."""
        return await self._on_io(lambda pool: self._write(pool, statements))

    async def _write(self, pool: asyncpg.Pool | None, statements: Sequence[Statement]) -> list[Outcome]:
        async with self._transaction(pool) as connection:
            return await run_statements(connection, statements)

    def reading(self) -> AbstractAsyncContextManager[PgConnection]:
        """A read-only transaction on one snapshot of what was committed."""
        return self._reading(self.pool)

    @asynccontextmanager
    async def _reading(self, pool: asyncpg.Pool | None) -> AsyncIterator[PgConnection]:
        async with self._connection(pool) as connection:
            try:
                async with connection.transaction(isolation="repeatable_read", readonly=True):
                    yield PgConnection(connection)
            except BUSY as error:
                raise self._busy(error) from error

    async def read(self, statements: Sequence[Statement]) -> list[list[asyncpg.Record]]:
        """Each statement's rows from one snapshot (one read-only transaction), on the database thread."""
        return await self._on_io(lambda pool: self._read(pool, statements))

    async def _read(self, pool: asyncpg.Pool | None, statements: Sequence[Statement]) -> list[list[asyncpg.Record]]:
        if len(statements) == 1:
            return [await self._fetch_all(pool, statements[0].sql, statements[0].params)]
        async with self._reading(pool) as connection:
            return [await connection.execute_fetchall(statement.sql, statement.params) for statement in statements]

    async def fetch_all(self, sql: str, params: Params = ()) -> list[asyncpg.Record]:
        """One statement's rows, on the database thread."""
        return await self._on_io(lambda pool: self._fetch_all(pool, sql, params))

    async def _on_io(self, work: Callable[[asyncpg.Pool | None], Coroutine[Any, Any, T]]) -> T:
        """`work` on the database thread's pool there, or (no thread) on the main pool here."""
        if self.io is None:
            return await work(self.pool)
        return await self.io.run(work(self.io_pool))

    async def _fetch_all(self, pool: asyncpg.Pool | None, sql: str, params: Params) -> list[asyncpg.Record]:
        translated, values = _arguments(sql, params)
        async with self._connection(pool) as connection:
            try:
                return list(await connection.fetch(translated, *values))
            except BUSY as error:
                raise self._busy(error) from error


def _failure_logged(done: Future[None]) -> None:
    """A lock let go in the background that could not be: its session was ended (`_on_session`), which lets
    go of it on the server."""
    if not done.cancelled() and done.exception() is not None:
        log.warning("letting go of an advisory lock failed: %r", done.exception())


async def _unchanged(connection: asyncpg.Connection) -> None:
    """What a pool does to a connection given back (asyncpg has rolled back any open transaction already):
    nothing more. The repositories change no session state (no SET, LISTEN or cursors kept open), and a
    table's or presentation's lock is released by its holder or its session ended (`_on_session`), so
    asyncpg's reset query, one more round trip on every release, would find nothing to undo."""


async def _on_session(connection: asyncpg.Connection, sql: str, *args: object, timeout: float | None = None) -> None:
    """Take or release a session-level lock; if that fails, times out or is cancelled halfway, end the session,
    so the server drops whatever it holds and the pool never hands out a connection holding a table's lock."""
    try:
        await connection.execute(sql, *args, timeout=timeout)
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
