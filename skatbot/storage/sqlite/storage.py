"""The embedded backend: one SQLite file behind the `Storage` interface (the SQL repositories are shared
with PostgreSQL: `skatbot.storage.sql`)."""

from __future__ import annotations

from pathlib import Path

from ..database import MIGRATIONS, Database
from ..sql.storage import SqlStorage


class SqliteStorage(SqlStorage[Database]):
    shared = False  # one bot process per file: its in-process table locks are the whole story

    @classmethod
    async def open(cls, path: Path | str, *, migrations: Path = MIGRATIONS, synchronous: str = "NORMAL",
                   busy_timeout_ms: int = 5000) -> SqliteStorage:
        """Open the file, upgrading its schema; raises SchemaTooNew for a database from a newer skatbot."""
        return cls(await Database.open(path, migrations=migrations, synchronous=synchronous,
                                       busy_timeout_ms=busy_timeout_ms))

    async def integrity_problems(self) -> list[str]:
        return await self.database.integrity_check()

    async def backup(self, target: Path) -> None:
        await self.database.backup(target)
