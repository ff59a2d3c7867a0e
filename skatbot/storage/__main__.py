"""Maintenance from the command line.

    python -m skatbot.storage [--database PATH|URL] backup TARGET   a consistent copy of a SQLite file
    python -m skatbot.storage [--database PATH|URL] check           soundness, and every deal replays to its result
    python -m skatbot.storage copy SQLITE_FILE postgresql://...     move a server's data into PostgreSQL
    python -m skatbot.storage [--database PATH|URL] ratings --rebuild   rate every stored series and day again

Options may come before or after the subcommand. The database is chosen as the bot chooses it: `--database`,
else SKATBOT_DATABASE_URL (PostgreSQL), else SKATBOT_DATABASE (a relative path in SKATBOT_DATA_DIR), else
skatbot.sqlite3, each read from the environment and from `.env` in the working folder (the environment wins).
The first line of the output names the database and where its setting came from, without the password.
Exit status: 0 fine, 1 problems found, 2 could not run (no such file, a database from a newer skatbot, a
PostgreSQL server that does not answer, a copy into a database that is not empty).

A new subcommand is one more `Subcommand` in SUBCOMMANDS: its arguments and what it runs on the database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from skatbot.config import DATABASE_URL_VAR, DATABASE_VAR, ConfigError, Settings, read_environment
from skatbot.models import Lang
from skatbot.ui.arguments import LocalizedParser, environment_language
from skatbot.wiring import finished_deals

from .copying import copy_database
from .database import backup_file
from .errors import StorageError, StoreBusy
from .interfaces import Storage
from .maintenance import CheckReport, run_check
from .opening import is_postgres_url
from .postgres.database import redact
from .postgres.storage import PostgresStorage
from .sqlite.storage import SqliteStorage

SHOWN_PER_KIND = 5
"""`check` prints this many problems of each kind, then how many more there are."""


@dataclass(frozen=True, slots=True)
class Target:
    """The database a subcommand works on, and where that choice came from (for the operator to see)."""

    database: str  # a SQLite path or a postgresql:// URL
    origin: str  # "--database", "SKATBOT_DATABASE_URL in .env", "the default", ...

    @property
    def is_postgres(self) -> bool:
        return is_postgres_url(self.database)

    def describe(self) -> str:
        return f"{'PostgreSQL' if self.is_postgres else 'SQLite'} {redact(self.database)} ({self.origin})"


@dataclass(frozen=True, slots=True)
class Subcommand:
    """One subcommand: its arguments, and what it does (an exit status). `database`: it works on the configured
    database (named in the output's first line; a missing SQLite file is an error before it runs)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Target], int]
    database: bool = True


def _database_option(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--database", default=default, metavar="PATH|URL",
                        help=f"the SQLite file or a postgresql:// URL (default: as the bot reads it: "
                             f"${DATABASE_URL_VAR}, else ${DATABASE_VAR}, from the environment or .env)")


def _parser(lang: Lang) -> argparse.ArgumentParser:
    """The tool's own texts are English (an operator's tool); argparse's usage line, titles and errors are in the
    environment's language, as the terminal table's."""
    parser = LocalizedParser(prog="python -m skatbot.storage", description="skatbot database maintenance", lang=lang)
    _database_option(parser, None)
    commands = parser.add_subparsers(dest="command", required=True)
    for subcommand in SUBCOMMANDS:
        sub = commands.add_parser(subcommand.name, help=subcommand.help)
        if subcommand.database:
            _database_option(sub, argparse.SUPPRESS)  # after the subcommand too; absent, the one before counts
        subcommand.arguments(sub)
    return parser


def configured_target(values: Mapping[str, str], environ: Mapping[str, str]) -> Target:
    """The bot's database from its settings (ConfigError when they are malformed), with where it was set."""
    settings = Settings.from_env(values)

    def origin(name: str) -> str:
        return f"{name} in the environment" if environ.get(name, "").strip() else f"{name} in .env"

    if settings.database_url:
        return Target(settings.database_url, origin(DATABASE_URL_VAR))
    if values.get(DATABASE_VAR, "").strip():
        return Target(str(settings.database_path), origin(DATABASE_VAR))
    return Target(str(settings.database_path), "the default")


# --- the subcommands -------------------------------------------------------------------------------------------

async def _open(database: str) -> Storage:
    if is_postgres_url(database):
        return await PostgresStorage.open(database, busy_seconds=None)  # a check may run long statements
    return await SqliteStorage.open(Path(database))


def print_report(report: CheckReport, shown: int = SHOWN_PER_KIND) -> None:
    """The first `shown` problems of each kind, how many more of that kind, and a summary line."""
    for kind, problems in report.by_kind.items():
        count = len(problems)
        if count > shown:
            print(f"{kind}: {count}, the first {shown}:")
        for problem in problems[:shown]:
            print(f"  {problem}" if count > shown else problem)
        if count > shown:
            print(f"  ... and {count - shown} more of this kind")
    total, kinds = len(report.problems), len(report.by_kind)
    summary = "ok" if report.ok else f"{total} problem{'s' * (total != 1)} of {kinds} kind{'s' * (kinds != 1)}"
    print(f"checked {report.deals} deals in {report.tables} tables: {summary}")


async def _check(database: str) -> int:
    storage = await _open(database)
    try:
        report = await run_check(storage, finished_deals, progress=lambda line: print(line, file=sys.stderr))
    finally:
        await storage.close()
    print_report(report)
    return 0 if report.ok else 1


def check(args: argparse.Namespace, target: Target) -> int:
    return asyncio.run(_check(target.database))


def backup(args: argparse.Namespace, target: Target) -> int:
    if target.is_postgres:
        print("back up a PostgreSQL database with pg_dump", file=sys.stderr)
        return 2
    asyncio.run(backup_file(Path(target.database), args.target))
    print(f"backed up {target.database} to {args.target}")
    return 0


async def _copy(source: Path, target: str) -> int:
    """Copy from a snapshot of `source`, migrated in a temporary folder: the operator's file stays as it was
    (an older skatbot can still open it), also when the copy is refused."""
    with tempfile.TemporaryDirectory(prefix="skatbot-copy-") as folder:
        snapshot = Path(folder) / "snapshot.sqlite3"
        await backup_file(source, snapshot)
        sqlite = await SqliteStorage.open(snapshot)
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


def copy(args: argparse.Namespace, target: Target) -> int:
    if not args.source.is_file():
        print(f"no SQLite database at {args.source}", file=sys.stderr)
        return 2
    if not is_postgres_url(args.target):
        print(f"the target must be a postgresql:// URL, not {redact(args.target)!r}", file=sys.stderr)
        return 2
    print(f"database: copying SQLite {args.source} into PostgreSQL {redact(args.target)}")
    return asyncio.run(_copy(args.source, args.target))


def _copy_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", type=Path, help="the SQLite file of the server (left unchanged)")
    parser.add_argument("target", help="the PostgreSQL database, postgresql://USER:PASSWORD@HOST:PORT/DATABASE")


def _backup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", type=Path, help="the new file to write (must not exist)")


async def _rebuild_ratings(database: str) -> int:
    storage = await _open(database)
    try:
        events = await storage.ratings.rebuild(now=datetime.now(UTC))
    finally:
        await storage.close()
    print(f"rebuilt the ratings from {events} rated series and challenge days")
    return 0


def ratings(args: argparse.Namespace, target: Target) -> int:
    return asyncio.run(_rebuild_ratings(target.database))


def _ratings_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rebuild", action="store_true", required=True,
                        help="rate every stored finished series and challenge day again from scratch, in the order "
                             "they were first rated (the same numbers), and any not rated yet")


SUBCOMMANDS: list[Subcommand] = [
    Subcommand("backup", "copy a SQLite database consistently, even while the bot runs", _backup_arguments, backup),
    Subcommand("check", "soundness check; every stored deal must replay to its stored result",
               lambda parser: None, check),
    Subcommand("copy", "copy every row of a SQLite database into an empty PostgreSQL one",
               _copy_arguments, copy, database=False),
    Subcommand("ratings", "the skill ratings: --rebuild them from the stored results", _ratings_arguments, ratings),
]


def main(argv: list[str] | None = None, env_file: Path | None = None,
         environ: Mapping[str, str] | None = None) -> int:
    environ = os.environ if environ is None else environ
    args = _parser(environment_language(environ)).parse_args(argv)
    subcommand = next(sub for sub in SUBCOMMANDS if sub.name == args.command)
    try:
        if args.database is not None:
            target = Target(args.database, "--database")
        else:
            target = configured_target(read_environment(env_file or Path(".env"), environ), environ)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        if subcommand.database:
            print(f"database: {target.describe()}")
            if not target.is_postgres and not Path(target.database).is_file():
                print(f"no database at {target.database} (set {DATABASE_VAR} or {DATABASE_URL_VAR} in the environment "
                      "or .env, or pass --database)", file=sys.stderr)
                return 2
        return subcommand.run(args, target)
    except (StorageError, StoreBusy, FileExistsError, ValueError) as error:  # ValueError: a URL asyncpg cannot read
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
