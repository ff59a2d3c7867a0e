"""Maintenance from the command line.

    python -m skatbot.storage [--database PATH|URL] backup TARGET   a consistent copy of a SQLite file
    python -m skatbot.storage [--database PATH|URL] check           soundness, and every deal replays to its result
    python -m skatbot.storage copy SQLITE_FILE postgresql://...     move a server's data into PostgreSQL
                                                                    (no --database: the file is its source)
    python -m skatbot.storage [--database PATH|URL] ratings --rebuild   rate every stored series and day again

Options may come before or after the subcommand. The database is chosen as the bot chooses it: `--database`,
else SKATBOT_DATABASE_URL (PostgreSQL), else SKATBOT_DATABASE (a relative path in SKATBOT_DATA_DIR), else
skatbot.sqlite3, each read from the environment and from `.env` in the working folder (the environment wins).
The first line of the output names the database and where its setting came from, without the password.
Neither `check` nor `copy` changes a SQLite file an older skatbot wrote: they work on an upgraded snapshot of it.
Exit status: 0 fine, 1 problems found, 2 could not run (no such file, a database from a newer skatbot, a
PostgreSQL server that does not answer, a copy into a database that is not empty).

The help (`--help`, also after a subcommand) and argparse's usage line and errors are in the environment's
language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), as the terminal table's: an operator reads them to learn the tool.
What it prints while it works stays English: a record to paste into an issue or grep in a log, beside the
storage layer's own English problem lines.

A new subcommand is one more `Subcommand` in SUBCOMMANDS: its arguments, its help (a catalog key) and what it
runs on the database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Mapping
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from skatbot.config import DATABASE_URL_VAR, DATABASE_VAR, ConfigError, Settings, read_environment
from skatbot.models import Lang, counted
from skatbot.ui.arguments import LocalizedParser, environment_language
from skatbot.ui.i18n import N_, t
from skatbot.wiring import finished_deals

from .copying import copy_database
from .database import backup_file, load_migrations
from .errors import StorageError, StoreBusy
from .interfaces import Storage
from .maintenance import CheckReport, run_check
from .opening import is_postgres_url
from .postgres.database import redact
from .postgres.storage import PostgresStorage
from .sqlite.storage import SqliteStorage

SHOWN_PER_KIND = 5
"""`check` prints this many problems of each kind, then how many more there are."""

NO_DATABASE = N_("storage.args.no_database")
"""Why a subcommand that takes its databases as arguments (copy) refuses `--database`: the help's epilog and
the refusal, so an operator who typed `--database X copy SRC DST` is not left thinking X was read."""


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
    """One subcommand: its arguments (added in the help's language), the catalog key of its help, and what it does
    (an exit status). `database`: it works on the configured database (named in the output's first line; a
    missing SQLite file is an error before it runs)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser, Lang], None]
    run: Callable[[argparse.Namespace, Target], int]
    database: bool = True


def _database_option(parser: argparse.ArgumentParser, default: object, lang: Lang) -> None:
    parser.add_argument("--database", default=default, metavar="PATH|URL",
                        help=t(lang, "storage.args.database", url_variable=f"${DATABASE_URL_VAR}",
                               path_variable=f"${DATABASE_VAR}"))


def _parser(lang: Lang) -> argparse.ArgumentParser:
    """The whole help in `lang`: the tool's texts from the catalogs (`storage.args.*`), argparse's usage line,
    titles and errors through LocalizedParser. The subcommands are named by their choices where argparse would
    say the English `command` ("the following arguments are required: {backup,check,copy,ratings}")."""
    parser = LocalizedParser(prog="python -m skatbot.storage", description=t(lang, "storage.args.description"),
                             lang=lang)
    _database_option(parser, None, lang)
    names = "{" + ",".join(subcommand.name for subcommand in SUBCOMMANDS) + "}"
    commands = parser.add_subparsers(dest="command", required=True, metavar=names)
    for subcommand in SUBCOMMANDS:
        said = t(lang, subcommand.help)
        sub = commands.add_parser(subcommand.name, help=said, description=said,
                                  epilog=None if subcommand.database else t(lang, NO_DATABASE))
        if subcommand.database:
            _database_option(sub, argparse.SUPPRESS, lang)  # after the subcommand too; absent, the one before counts
        subcommand.arguments(sub, lang)
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
    summary = "ok" if report.ok else f"{counted(total, 'problem')} of {counted(kinds, 'kind')}"
    print(f"checked {counted(report.deals, 'deal')} in {counted(report.tables, 'table')}: {summary}")


async def _check(database: str) -> int:
    if not is_postgres_url(database) and (older := older_schema(Path(database))) is not None:
        return await _check_snapshot(Path(database), older)
    return await _check_as_it_is(database)


async def _check_as_it_is(database: str) -> int:
    storage = await _open(database)  # upgrades its schema
    try:
        report = await run_check(storage, finished_deals, progress=lambda line: print(line, file=sys.stderr))
    finally:
        await storage.close()
    print_report(report)
    return 0 if report.ok else 1


def older_schema(path: Path) -> int | None:
    """The SQLite file's schema version when an older skatbot wrote it (opening it would upgrade it), else None."""
    with closing(sqlite3.connect(path)) as db:  # reads the header only
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
    return version if version < load_migrations()[-1].version else None


async def _check_snapshot(path: Path, version: int) -> int:
    """Check a file an older skatbot wrote without upgrading it: a snapshot of it is upgraded and checked in a
    temporary folder, so the file still opens in the version that wrote it (the bot upgrades it at its start)."""
    print(f"schema version {version}, older than this skatbot's {load_migrations()[-1].version}: checking an "
          "upgraded copy; the file is left as it was")
    with tempfile.TemporaryDirectory(prefix="skatbot-check-") as folder:
        snapshot = Path(folder) / "snapshot.sqlite3"
        await backup_file(path, snapshot)
        return await _check_as_it_is(str(snapshot))


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
    width = max([len("table"), *map(len, report.counts)])  # challenge_par_claims is 20 characters
    print(f"{'table':<{width}} {'SQLite':>10} {'PostgreSQL':>10}")
    for name, (rows_before, rows_after) in report.counts.items():
        print(f"{name:<{width}} {rows_before:>10} {rows_after:>10}")
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


def _copy_arguments(parser: argparse.ArgumentParser, lang: Lang) -> None:
    parser.add_argument("source", type=Path, help=t(lang, "storage.args.copy.source"))
    parser.add_argument("target", help=t(lang, "storage.args.copy.target"))


def _backup_arguments(parser: argparse.ArgumentParser, lang: Lang) -> None:
    parser.add_argument("target", type=Path, help=t(lang, "storage.args.backup.target"))


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


def _ratings_arguments(parser: argparse.ArgumentParser, lang: Lang) -> None:
    parser.add_argument("--rebuild", action="store_true", required=True, help=t(lang, "storage.args.ratings.rebuild"))


SUBCOMMANDS: list[Subcommand] = [
    Subcommand("backup", N_("storage.args.backup"), _backup_arguments, backup),
    Subcommand("check", N_("storage.args.check"), lambda parser, lang: None, check),
    Subcommand("copy", N_("storage.args.copy"), _copy_arguments, copy, database=False),
    Subcommand("ratings", N_("storage.args.ratings"), _ratings_arguments, ratings),
]


def main(argv: list[str] | None = None, env_file: Path | None = None,
         environ: Mapping[str, str] | None = None) -> int:
    environ = os.environ if environ is None else environ
    lang = environment_language(environ)
    parser = _parser(lang)
    args = parser.parse_args(argv)
    subcommand = next(sub for sub in SUBCOMMANDS if sub.name == args.command)
    if not subcommand.database and args.database is not None:  # before it: copy would not read it (exit 2)
        parser.error(t(lang, NO_DATABASE))
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
    # ValueError: a URL asyncpg cannot read; sqlite3.Error: a file that is no SQLite database
    except (StorageError, StoreBusy, FileExistsError, ValueError, sqlite3.Error) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
