"""The embedded backend: one SQLite file behind the `Storage` interface (the SQL repositories are shared
with PostgreSQL: `skatbot.storage.sql`)."""

from __future__ import annotations

from pathlib import Path

from ..database import MIGRATIONS, Database
from skatbot.models import UnfinishedTable

from ..sql.deals import SqlDeals
from ..sql.meta import SqlMeta
from ..sql.presentation import SqlPresentation
from ..sql.settings import SqlPlayers, SqlSettings
from ..sql.stats import SqlStats
from ..sql.tables import SqlTables


class SqliteStorage:
    def __init__(self, database: Database) -> None:
        self.database = database
        self.settings = SqlSettings(database)
        self.players = SqlPlayers(database)
        self.tables = SqlTables(database)
        self.deals = SqlDeals(database)
        self.stats = SqlStats(database)
        self.meta = SqlMeta(database)
        self.presentation = SqlPresentation(database)

    @classmethod
    async def open(cls, path: Path | str, *, migrations: Path = MIGRATIONS, synchronous: str = "NORMAL",
                   busy_timeout_ms: int = 5000) -> SqliteStorage:
        """Open the file, upgrading its schema; raises SchemaTooNew for a database from a newer skatbot."""
        return cls(await Database.open(path, migrations=migrations, synchronous=synchronous,
                                       busy_timeout_ms=busy_timeout_ms))

    async def load_unfinished_tables(self) -> list[UnfinishedTable]:
        return await self.tables.load_unfinished()

    async def integrity_problems(self) -> list[str]:
        return await self.database.integrity_check()

    async def backup(self, target: Path) -> None:
        await self.database.backup(target)

    async def close(self) -> None:
        await self.database.close()

    async def __aenter__(self) -> SqliteStorage:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
