"""The bot's own small facts (e.g. which slash commands it last published), one text value per key."""

from __future__ import annotations

from datetime import datetime

from skatbot.models import to_seconds

from .connection import SqlDatabase


class SqlMeta:
    """Key-value rows for the bot itself; a missing key reads as None."""

    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def get(self, *, key: str) -> str | None:
        rows = await self._db.fetch_all("SELECT value FROM bot_meta WHERE key = :key", {"key": key})
        return str(rows[0]["value"]) if rows else None

    async def put(self, *, key: str, value: str, now: datetime) -> None:
        async with self._db.transaction() as connection:
            await connection.execute(
                "INSERT INTO bot_meta (key, value, updated_at) VALUES (:key, :value, :now) ON CONFLICT (key) "
                "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                {"key": key, "value": value, "now": to_seconds(now)})
