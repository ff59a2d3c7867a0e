"""The shared backend: one PostgreSQL database behind the `Storage` interface, for several bot processes.

The repositories are the SQL ones SQLite uses (`skatbot.storage.sql`); only the database underneath differs.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import StorageError
from ..sql.storage import SqlStorage
from .database import BUSY_SECONDS, MIGRATIONS, TABLE_LOCK_SECONDS, PostgresDatabase, redact


class PostgresStorage(SqlStorage[PostgresDatabase]):
    shared = True  # several bot processes write the same tables, each under the table's advisory lock

    @classmethod
    async def open(cls, url: str, *, migrations: Path = MIGRATIONS, busy_seconds: float | None = BUSY_SECONDS,
                   table_lock_seconds: float | None = TABLE_LOCK_SECONDS) -> PostgresStorage:
        """Connect to `url` (postgresql://user@host:port/database), upgrading its schema; SchemaTooNew for
        a database from a newer skatbot, StorageError when the server cannot be reached. Later, a server
        slower than `busy_seconds` (a table held longer than `table_lock_seconds`) raises StoreBusy; None
        waits as long as it takes."""
        return cls(await PostgresDatabase.open(url, migrations=migrations, busy_seconds=busy_seconds,
                                               table_lock_seconds=table_lock_seconds))

    async def integrity_problems(self) -> list[str]:
        """PostgreSQL enforces every constraint as it writes and checksums its pages itself; what is left to
        check is that the leaderboard summary agrees with the score rows it sums."""
        rows = await self.database.fetch_all(
            "SELECT d.server_id, d.player_id FROM (SELECT server_id, player_id, SUM(score) AS points, "
            "COUNT(CASE WHEN role <> 'out' THEN 1 END) AS deals FROM deal_scores GROUP BY server_id, player_id) d "
            "FULL JOIN (SELECT server_id, player_id, SUM(points) AS points, SUM(deals) AS deals FROM player_days "
            "GROUP BY server_id, player_id) p ON p.server_id = d.server_id AND p.player_id = d.player_id "
            "WHERE COALESCE(d.points, 0) <> COALESCE(p.points, 0) OR COALESCE(d.deals, 0) <> COALESCE(p.deals, 0)")
        return [f"player_days of player {row[1]} on server {row[0]} disagree with the score rows" for row in rows]

    async def backup(self, target: Path) -> None:
        raise StorageError(f"back up the PostgreSQL database {redact(self.database.url)} with pg_dump; "
                           f"{target} was not written")
