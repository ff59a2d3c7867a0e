"""One aiosqlite connection per process: WAL, foreign keys, busy timeout, and numbered migrations.

All statements go through `transaction()` or `write()`, which hold an asyncio lock: a single connection is
shared by every table's coroutine, so without the lock one table's statements could land inside another's
transaction. `write()` (a transaction whose statements are known up front) runs whatever writes are waiting
in one trip to the connection's thread, each in its own transaction. Migrations are applied at start-up in one transaction; a database whose `user_version`
is newer than the newest migration file is refused rather than touched.

Durability: in WAL mode with synchronous=NORMAL (the default) a committed transaction survives the bot
process dying at any point (the SIGKILL test proves it); only a power cut or an OS crash can lose the last
commits, never corrupt the file. synchronous=FULL also survives those, at one fsync per commit
(benchmarks/storage.py measures both).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from .errors import MigrationError, SchemaTooNew, StoreBusy
from .sql.connection import Outcome, Statement

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).with_name("migrations") / "sqlite"
CHECKPOINT_EVERY = 100
"""Commits between WAL checkpoints. They run on a second connection in the background, so no store pays
for copying the WAL into the database file (SQLite's automatic checkpoint would stall one commit in
every few hundred)."""
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
SYNCHRONOUS_MODES = ("FULL", "NORMAL")
BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(folder: Path = MIGRATIONS) -> list[Migration]:
    """The migration files in order; numbering must run 1, 2, 3 ... without gaps."""
    found: list[Migration] = []
    for path in sorted(folder.iterdir()):
        if path.suffix != ".sql":
            continue
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name!r} must be named NNNN_words.sql")
        found.append(Migration(int(match.group(1)), path.name, path.read_text(encoding="utf-8")))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration {migration.name} should be number {expected:04d}")
    return found


def split_statements(sql: str) -> list[str]:
    """Split a migration into statements (executescript would commit mid-migration)."""
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        if not pending and (not line.strip() or line.lstrip().startswith("--")):
            continue  # comments and blank lines between statements
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        raise MigrationError(f"unterminated SQL statement: {pending.strip()[:80]!r}")
    return statements


T = TypeVar("T")


class Trips:
    """Calls for one aiosqlite connection's thread, run together: whatever is waiting goes in one trip.

    Each trip to the thread costs a turn of the event loop to come back, and each hand-over of the
    connection's lock another; under load those turns are late. One trip per statement and one lock per
    transaction made 100 tables' appends queue for the lock (append p50 about 400 ms) while each took a
    fraction of a millisecond on the thread. A call's failure is its own: the others' results stand."""

    def __init__(self, connection: aiosqlite.Connection | None, lock: asyncio.Lock) -> None:
        self.connection = connection
        self.lock = lock
        self._waiting: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        self._runner: asyncio.Task[None] | None = None

    async def run(self, call: Callable[[], T]) -> T:
        """`call()` on the connection's thread (it must not touch the event loop); its result, or what it raised."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.append((call, future))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run_waiting(), name="sqlite-trips")
        return await future

    async def finish(self) -> None:
        """Wait for the calls queued so far (before the connection closes)."""
        if self._runner is not None:
            await asyncio.gather(self._runner, return_exceptions=True)

    async def _run_waiting(self) -> None:
        while self._waiting:
            batch = [(call, future) for call, future in self._waiting if not future.cancelled()]
            self._waiting.clear()
            if not batch:
                continue
            try:
                if self.connection is None:
                    raise RuntimeError("the database is not open")
                async with self.lock:
                    # aiosqlite runs its calls one after another on the connection's thread; `_execute` queues
                    # one more (aiosqlite is pinned in requirements.txt; tests/storage run this path)
                    on_thread = cast(Callable[[Callable[[], None]], Awaitable[None]], self.connection._execute)
                    await on_thread(partial(_run_each, asyncio.get_running_loop(), batch))
            except BaseException as error:  # the connection failed (or this task was cancelled): all fail
                for _, future in batch:
                    if not future.done():
                        if isinstance(error, Exception):
                            future.set_exception(error)
                        else:
                            future.cancel()
                raise


def _run_each(loop: asyncio.AbstractEventLoop, batch: list[tuple[Callable[[], Any], asyncio.Future[Any]]]) -> None:
    """On the connection's thread: each call, its result (or what it raised) handed to its caller as soon as it
    is done, not when the whole batch is."""
    for call, future in batch:
        try:
            result = call()
        except Exception as error:
            loop.call_soon_threadsafe(_settle, future, False, error)
        else:
            loop.call_soon_threadsafe(_settle, future, True, result)


def _settle(future: asyncio.Future[Any], ok: bool, result: Any) -> None:
    if future.done():  # its caller gave up waiting; what it wrote stands (as after a crash)
        return
    if ok:
        future.set_result(result)
    else:
        future.set_exception(result)


def _read_now(connection: sqlite3.Connection, statements: Sequence[Statement]) -> list[list[sqlite3.Row]]:
    """On the reading connection's thread: each statement's rows, one snapshot for them all."""
    if len(statements) == 1:  # one statement is one snapshot by itself
        return [connection.execute(statements[0].sql, statements[0].params).fetchall()]
    connection.execute("BEGIN")
    try:
        return [connection.execute(statement.sql, statement.params).fetchall() for statement in statements]
    finally:
        connection.execute("COMMIT")


class Database:
    """The writing connection (with its lock) and a read-only one. Repositories borrow them through
    `transaction()` and `reading()`: in WAL mode a leaderboard read never holds up a table's next action."""

    skip_locked = ""  # one process writes the file, one transaction at a time: nothing to skip
    lock_rows = ""  # ... nor to lock

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self._lock = asyncio.Lock()
        self._reader: aiosqlite.Connection | None = None
        self._reader_lock = asyncio.Lock()
        self._commits = 0
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._table_locks: dict[int, asyncio.Lock] = {}
        self._writes = Trips(connection, self._lock)
        self._reads = Trips(None, self._reader_lock)

    @classmethod
    async def open(cls, path: Path | str, *, migrations: Path = MIGRATIONS, busy_timeout_ms: int = 5000,
                   synchronous: str = "NORMAL") -> Database:
        """Open (creating if needed), set the pragmas, and bring the schema up to date."""
        if synchronous not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}")
        path = Path(path)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        try:
            await connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute(f"PRAGMA synchronous = {synchronous}")
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA wal_autocheckpoint = 0")  # see CHECKPOINT_EVERY
            database = cls(connection, path)
            await database.migrate(load_migrations(migrations))
            reader = await aiosqlite.connect(path, isolation_level=None)
        except BaseException:
            await connection.close()
            raise
        try:
            reader.row_factory = aiosqlite.Row
            await reader.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await reader.close()
            await connection.close()
            raise
        database._reader = reader
        database._reads.connection = reader
        return database

    async def close(self) -> None:
        """Close both connections (after the writes queued); the last close checkpoints the WAL into the file."""
        await self._writes.finish()
        await self._reads.finish()
        if self._checkpoint_task is not None:
            await self._checkpoint_task
        if self._checkpointer is not None:
            await self._checkpointer.close()
        if self._reader is not None:
            async with self._reader_lock:
                await self._reader.close()
        async with self._lock:
            await self.connection.close()

    def _committed(self, commits: int = 1) -> None:
        self._commits += commits
        if self._commits >= CHECKPOINT_EVERY and (self._checkpoint_task is None or self._checkpoint_task.done()):
            self._commits = 0
            self._checkpoint_task = asyncio.create_task(self.checkpoint())

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file without blocking writers (PASSIVE), on its own connection."""
        try:
            if self._checkpointer is None:
                self._checkpointer = await aiosqlite.connect(self.path)
                await self._checkpointer.execute("PRAGMA busy_timeout = 1000")
            await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as error:  # a later checkpoint (or the last close) catches up
            log.warning("WAL checkpoint of %s failed: %s", self.path, error)

    async def _user_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self, migrations: list[Migration]) -> int:
        """Apply every pending migration in one transaction; refuse a database from the future."""
        latest = migrations[-1].version if migrations else 0
        async with self.transaction():
            current = await self._user_version()
            if current > latest:
                raise SchemaTooNew(
                    f"the database {self.path} has schema version {current}, but this skatbot knows only up to "
                    f"version {latest}: it was written by a newer skatbot. Run that version, or restore a backup "
                    "made for this one; the database was not changed.")
            for migration in migrations[current:]:
                for statement in split_statements(migration.sql):
                    try:
                        await self.connection.execute(statement)
                    except sqlite3.Error as error:
                        raise MigrationError(f"migration {migration.name} failed ({error}); the database "
                                             f"{self.path} was not changed") from error
            if latest != current:
                await self.connection.execute(f"PRAGMA user_version = {latest}")
        return latest

    @asynccontextmanager
    async def table_lock(self, table_id: int, then: Statement | None = None) -> AsyncIterator[list[Any]]:
        """Hold one table against other writers. A SQLite file serves one bot process, so an in-process
        lock per table is the whole story here (PostgreSQL's is an advisory lock across processes). `then`:
        a read made once the lock is held, whose rows the block gets."""
        lock = self._table_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            yield [] if then is None else await self.fetch_all(then.sql, then.params)

    @asynccontextmanager
    async def presentation_lock(self, table_id: int) -> AsyncIterator[None]:
        """Showing one table is serialised by the presenter itself in the one process a SQLite file serves."""
        yield

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT under the lock; any exception rolls everything back. Another connection
        holding the write lock past the busy timeout raises `StoreBusy` (nothing was written)."""
        async with self._lock:
            try:
                await self.connection.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                if getattr(error, "sqlite_errorcode", None) in BUSY_CODES:
                    raise StoreBusy(f"{self.path} stayed locked by another writer: {error}") from error
                raise
            try:
                yield self.connection
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            try:
                await self.connection.execute("COMMIT")
            except sqlite3.Error:
                if self.connection.in_transaction:  # a failed COMMIT leaves it open: end it, changing nothing
                    await self.connection.execute("ROLLBACK")
                raise
        self._committed()

    async def write(self, statements: Sequence[Statement]) -> list[Outcome]:
        """One write transaction, run with whatever other writes are waiting in one trip to the connection's
        thread (see `SqlDatabase.write` and `Trips`). Each write stays its own transaction (a failed one
        changes nothing and fails alone); only the trips are shared."""
        outcomes = await self._writes.run(partial(self._write_now, statements))
        self._committed()
        return outcomes

    async def read(self, statements: Sequence[Statement]) -> list[list[sqlite3.Row]]:
        """Each statement's rows, all from one snapshot, in one trip to the reading connection's thread (with
        whatever other reads are waiting)."""
        return await self._reads.run(partial(_read_now, self._reader_connection(), statements))

    def _reader_connection(self) -> sqlite3.Connection:
        if self._reader is None:
            raise RuntimeError("the database is not open")
        return self._reader._conn

    def _write_now(self, statements: Sequence[Statement]) -> list[Outcome]:
        """On the connection's thread: BEGIN IMMEDIATE, the statements, COMMIT; anything raised rolls back."""
        connection = self.connection._conn
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if getattr(error, "sqlite_errorcode", None) in BUSY_CODES:
                raise StoreBusy(f"{self.path} stayed locked by another writer: {error}") from error
            raise
        try:
            outcomes = []
            for statement in statements:
                if statement.many is not None:
                    parameter_sets = statement.parameter_sets()
                    if parameter_sets:
                        connection.executemany(statement.sql, parameter_sets)
                    outcome = Outcome([], -1)
                else:
                    cursor = connection.execute(statement.sql, statement.params)
                    outcome = Outcome(cursor.fetchall(), cursor.rowcount)
                    cursor.close()
                if statement.check is not None:
                    statement.check(outcome.rows, outcome.rowcount)
                outcomes.append(outcome)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:  # a failed COMMIT leaves it open too: end it, changing nothing
                connection.execute("ROLLBACK")
            raise
        return outcomes

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction on the read-only connection: its SELECTs see one snapshot of what was committed."""
        reader = self._reader
        if reader is None:
            raise RuntimeError("the database is not open")
        async with self._reader_lock:
            await reader.execute("BEGIN")
            try:
                yield reader
            finally:
                await reader.execute("COMMIT")

    async def fetch_all(self, sql: str, params: dict[str, object] | Iterable[object] = ()) -> list[sqlite3.Row]:
        """One query's rows, in one trip to the reading connection's thread."""
        return (await self.read([Statement(sql, params if isinstance(params, Mapping) else tuple(params))]))[0]

    async def integrity_check(self) -> list[str]:
        """PRAGMA integrity_check and foreign_key_check; an empty list means the file is sound."""
        async with self._lock:
            async with self.connection.execute("PRAGMA integrity_check") as cursor:
                problems = [str(row[0]) for row in await cursor.fetchall() if row[0] != "ok"]
            async with self.connection.execute("PRAGMA foreign_key_check") as cursor:
                problems += [f"foreign key: table {row[0]} rowid {row[1]} -> {row[2]}"
                             for row in await cursor.fetchall()]
        return problems

    async def backup(self, target: Path | str) -> None:
        """A consistent copy through SQLite's online backup API, while other writers keep going."""
        target = Path(target)
        if target.exists():
            raise FileExistsError(f"{target} exists; choose a new file for the backup")
        async with self._lock:
            destination = await aiosqlite.connect(target)
            try:
                await self.connection.backup(destination)
            finally:
                await destination.close()


async def backup_file(source: Path | str, target: Path | str, busy_timeout_ms: int = 5000) -> None:
    """Back up a database file another process may be writing, without migrating or changing it."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise FileNotFoundError(f"no database at {source}")
    if target.exists():
        raise FileExistsError(f"{target} exists; choose a new file for the backup")
    connection = await aiosqlite.connect(source)
    try:
        await connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        destination = await aiosqlite.connect(target)
        try:
            await connection.backup(destination)
        finally:
            await destination.close()
    finally:
        await connection.close()
