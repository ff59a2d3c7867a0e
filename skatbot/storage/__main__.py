"""Maintenance from the command line.

    python -m skatbot.storage [--database PATH] backup TARGET   a consistent copy, safe while the bot runs
    python -m skatbot.storage [--database PATH] check           integrity, and every deal replays to its result

The database defaults to SKATBOT_DATABASE, else skatbot.sqlite3 in the working folder.
Exit status: 0 fine, 1 problems found, 2 could not run (no such file, a database from a newer skatbot).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from skatbot.config import DATABASE_VAR, DEFAULT_DATABASE

from skatbot.wiring import finished_deals

from .database import backup_file
from .errors import StorageError
from .maintenance import run_check
from .sqlite.storage import SqliteStorage


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m skatbot.storage", description="skatbot database maintenance")
    default = os.environ.get(DATABASE_VAR, "").strip() or str(DEFAULT_DATABASE)
    parser.add_argument("--database", type=Path, default=Path(default),
                        help=f"the SQLite file (default: ${DATABASE_VAR} or {DEFAULT_DATABASE}; now {default})")
    commands = parser.add_subparsers(dest="command", required=True)
    backup = commands.add_parser("backup", help="copy the database consistently, even while the bot runs")
    backup.add_argument("target", type=Path, help="the new file to write (must not exist)")
    commands.add_parser("check", help="integrity check; every stored deal must replay to its stored result")
    return parser


async def _check(database: Path) -> int:
    storage = await SqliteStorage.open(database)
    try:
        report = await run_check(storage, finished_deals, progress=lambda line: print(line, file=sys.stderr))
    finally:
        await storage.close()
    for problem in report.problems:
        print(problem)
    print(f"checked {report.deals} deals in {report.tables} tables: "
          + ("ok" if report.ok else f"{len(report.problems)} problems"))
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    database: Path = args.database
    if not database.is_file():
        print(f"no database at {database} (set {DATABASE_VAR} or pass --database)", file=sys.stderr)
        return 2
    try:
        if args.command == "backup":
            asyncio.run(backup_file(database, args.target))
            print(f"backed up {database} to {args.target}")
            return 0
        return asyncio.run(_check(database))
    except (StorageError, FileExistsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
