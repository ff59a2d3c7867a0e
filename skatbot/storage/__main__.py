"""Maintenance from the command line.

    python -m skatbot.storage [--database PATH|URL] backup TARGET   a consistent copy of a SQLite file
    python -m skatbot.storage [--database PATH|URL] check           soundness, and every deal replays to its result
    python -m skatbot.storage copy SQLITE_FILE postgresql://...     move a server's data into PostgreSQL

The database defaults to SKATBOT_DATABASE_URL (PostgreSQL), else SKATBOT_DATABASE, else skatbot.sqlite3 in
the working folder. Exit status: 0 fine, 1 problems found, 2 could not run (no such file, a database from
a newer skatbot, a PostgreSQL server that does not answer, a copy into a database that is not empty).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from skatbot.config import DATABASE_URL_VAR, DATABASE_VAR, DEFAULT_DATABASE
from skatbot.wiring import finished_deals

from .copying import copy_database
from .database import backup_file
from .errors import StorageError
from .interfaces import Storage
from .maintenance import run_check
from .opening import is_postgres_url
from .postgres.database import redact
from .postgres.storage import PostgresStorage
from .sqlite.storage import SqliteStorage


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m skatbot.storage", description="skatbot database maintenance")
    default = (os.environ.get(DATABASE_URL_VAR, "").strip() or os.environ.get(DATABASE_VAR, "").strip()
               or str(DEFAULT_DATABASE))
    parser.add_argument("--database", default=default,
                        help=f"the SQLite file or a postgresql:// URL (default: ${DATABASE_URL_VAR}, else "
                             f"${DATABASE_VAR}, else {DEFAULT_DATABASE}; now {redact(default)})")
    commands = parser.add_subparsers(dest="command", required=True)
    backup = commands.add_parser("backup", help="copy a SQLite database consistently, even while the bot runs")
    backup.add_argument("target", type=Path, help="the new file to write (must not exist)")
    commands.add_parser("check", help="soundness check; every stored deal must replay to its stored result")
    copy = commands.add_parser("copy", help="copy every row of a SQLite database into an empty PostgreSQL one")
    copy.add_argument("source", type=Path, help="the SQLite file of the server")
    copy.add_argument("target", help="the PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/DATABASE")
    return parser


async def _open(database: str) -> Storage:
    if is_postgres_url(database):
        return await PostgresStorage.open(database, busy_seconds=None)  # a check may run long statements
    return await SqliteStorage.open(Path(database))


async def _check(database: str) -> int:
    storage = await _open(database)
    try:
        report = await run_check(storage, finished_deals, progress=lambda line: print(line, file=sys.stderr))
    finally:
        await storage.close()
    for problem in report.problems:
        print(problem)
    print(f"checked {report.deals} deals in {report.tables} tables: "
          + ("ok" if report.ok else f"{len(report.problems)} problems"))
    return 0 if report.ok else 1


async def _copy(source: Path, target: str) -> int:
    sqlite = await SqliteStorage.open(source)
    try:
        postgres = await PostgresStorage.open(target, busy_seconds=None)  # a copy may run long statements
        try:
            report = await copy_database(sqlite, postgres, progress=lambda line: print(line, file=sys.stderr))
        finally:
            await postgres.close()
    finally:
        await sqlite.close()
    print(f"{'table':<16} {'SQLite':>10} {'PostgreSQL':>10}")
    for name, (rows_before, rows_after) in report.counts.items():
        print(f"{name:<16} {rows_before:>10} {rows_after:>10}")
    print(f"copied {redact(str(source))} to {redact(target)}; every table has the same number of rows")
    return await _check(target)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "copy":
            if not args.source.is_file():
                print(f"no SQLite database at {args.source}", file=sys.stderr)
                return 2
            if not is_postgres_url(args.target):
                print(f"the target must be a postgresql:// URL, not {redact(args.target)!r}", file=sys.stderr)
                return 2
            return asyncio.run(_copy(args.source, args.target))
        database: str = args.database
        if not is_postgres_url(database) and not Path(database).is_file():
            print(f"no database at {database} (set {DATABASE_VAR} or {DATABASE_URL_VAR}, or pass --database)",
                  file=sys.stderr)
            return 2
        if args.command == "backup":
            if is_postgres_url(database):
                print("back up a PostgreSQL database with pg_dump", file=sys.stderr)
                return 2
            asyncio.run(backup_file(Path(database), args.target))
            print(f"backed up {database} to {args.target}")
            return 0
        return asyncio.run(_check(database))
    except (StorageError, FileExistsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
