"""Move an existing server's data from its SQLite file into PostgreSQL, for operators who outgrow the file.

Everything is copied in one PostgreSQL transaction (all or nothing), table by table in the order their
foreign keys need, with the ids kept (the id sequences move on past them). `player_days`, the leaderboard
summary, is not copied: PostgreSQL's trigger rebuilds it from the score rows, and the row counts below
prove it came out the same. Only an empty PostgreSQL database is written to. Afterwards the copied tables
are vacuumed and analysed, so queries are planned on real statistics from the first one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from skatbot.models import counted

from .errors import StorageError
from .postgres.storage import PostgresStorage
from .sqlite.storage import SqliteStorage

ORDER = ("servers", "players", "tables", "table_seats", "table_log", "deals", "deal_records", "deal_scores",
         "series_results")
"""Tables in an order that satisfies their foreign keys; tables not named here follow, by name."""
DERIVED = frozenset({"player_days"})
"""Kept in step by triggers on both backends: compared after the copy, never copied."""
IDENTITIES = {"tables": "table_id", "deals": "deal_id"}
BATCH = 5000


class CopyRefused(StorageError):
    """The copy was not made (the target is not empty); nothing was written."""


@dataclass(slots=True)
class CopyReport:
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # table -> (in SQLite, in PostgreSQL)

    @property
    def mismatches(self) -> list[str]:
        return [name for name, (source, target) in self.counts.items() if source != target]


async def _sqlite_tables(source: SqliteStorage) -> list[str]:
    rows = await source.database.fetch_all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    names = [str(row[0]) for row in rows]
    return [name for name in ORDER if name in names] + [n for n in names if n not in ORDER]


async def copy_database(source: SqliteStorage, target: PostgresStorage,
                        progress: Callable[[str], None] = lambda _: None) -> CopyReport:
    """Copy every row of `source` into the empty `target`; return the row counts of both, table by table."""
    names = await _sqlite_tables(source)
    reader = source.database
    async with target.database.pool.acquire() as connection, connection.transaction():
        for name in names:
            if await connection.fetchval(f"SELECT EXISTS (SELECT 1 FROM {name})"):
                raise CopyRefused(f"the PostgreSQL database already has rows in {name}; copy into an empty "
                                  "database (nothing was written)")
        for name in names:
            if name in DERIVED:
                continue
            columns = [str(row[1]) for row in await reader.fetch_all(f"PRAGMA table_info({name})")]
            copied = 0
            select = f"SELECT {', '.join(columns)} FROM {name} ORDER BY rowid"
            async with reader.reading() as sqlite, sqlite.execute(select) as cursor:
                while batch := list(await cursor.fetchmany(BATCH)):
                    await connection.copy_records_to_table(name, records=[tuple(row) for row in batch],
                                                           columns=columns)
                    copied += len(batch)
            progress(f"{name}: {counted(copied, 'row')}")
        for name, column in IDENTITIES.items():
            await connection.execute(
                f"SELECT setval(pg_get_serial_sequence('{name}', '{column}'), "
                f"COALESCE((SELECT MAX({column}) FROM {name}), 0) + 1, false)")
        report = CopyReport()
        for name in names:
            [source_count] = await reader.fetch_all(f"SELECT COUNT(*) FROM {name}")
            report.counts[name] = (int(source_count[0]), int(await connection.fetchval(f"SELECT COUNT(*) FROM {name}")))
        if report.mismatches:
            raise CopyRefused(f"row counts differ after the copy in {', '.join(report.mismatches)}; "
                              "the copy was rolled back")
    # Fresh statistics and visibility maps: without them the planner guesses and the covering indexes
    # of the statistics still visit every row (autovacuum would get there, later).
    async with target.database.pool.acquire() as connection:
        await connection.execute(f"VACUUM (ANALYZE) {', '.join(names)}")
    progress("vacuumed and analysed")
    return report
