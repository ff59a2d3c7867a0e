"""What both backends' `Storage` objects share: the SQL repositories over one database, and its closing."""

from __future__ import annotations

from typing import Generic, Protocol, Self, TypeVar

from skatbot.models import UnfinishedTable

from .challenge import SqlChallenge
from .connection import SqlDatabase
from .deals import SqlDeals
from .due import SqlDue
from .meta import SqlMeta
from .presentation import SqlPresentation
from .ratings import SqlRatings
from .settings import SqlPlayers, SqlSettings
from .stats import SqlStats
from .tables import SqlTables
from .tournaments import SqlTournaments


class ClosableDatabase(SqlDatabase, Protocol):
    async def close(self) -> None: ...


D = TypeVar("D", bound=ClosableDatabase)


class SqlStorage(Generic[D]):
    """The repositories over `database`; a backend adds how it opens, checks and backs up its database."""

    def __init__(self, database: D) -> None:
        self.database = database
        self.settings = SqlSettings(database)
        self.players = SqlPlayers(database)
        self.tables = SqlTables(database)
        self.deals = SqlDeals(database)
        self.stats = SqlStats(database)
        self.meta = SqlMeta(database)
        self.presentation = SqlPresentation(database)
        self.due = SqlDue(database)
        self.tournaments = SqlTournaments(database)
        self.challenge = SqlChallenge(database)
        self.ratings = SqlRatings(database)

    async def load_unfinished_tables(self) -> list[UnfinishedTable]:
        return await self.tables.load_unfinished()

    async def close(self) -> None:
        await self.database.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
