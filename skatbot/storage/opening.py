"""Choose the backend: PostgreSQL when a database URL is configured, else the SQLite file (the default)."""

from __future__ import annotations

from pathlib import Path

from .interfaces import Storage
from .postgres.database import redact
from .postgres.storage import PostgresStorage
from .sqlite.storage import SqliteStorage

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)


async def open_storage(*, database_url: str | None, database_path: Path) -> Storage:
    """PostgreSQL at `database_url` (several processes may share it), else the SQLite file at `database_path`."""
    if database_url:
        return await PostgresStorage.open(database_url)
    return await SqliteStorage.open(database_path)


def describe(*, database_url: str | None, database_path: Path) -> str:
    """Where the data lives, for the log (without a password)."""
    return f"PostgreSQL {redact(database_url)}" if database_url else f"SQLite {database_path}"
