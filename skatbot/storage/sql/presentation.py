"""What the bot has shown for each table: the messages it keeps up to date, and its outbox.

A restart reads both back: the lobby, the board and each player's hand message are edited rather than
posted again, and what a table still owes (a result card, the final ranking, the closing notice) is
posted once. An outbox row is written with the text before it is posted and marked shown once Discord
took it, so a post interrupted by a crash can be found in the channel instead of being repeated.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from datetime import datetime

from skatbot.models import OutboxItem, ShownMessage, to_seconds

from .connection import SqlDatabase, Statement


class SqlPresentation:
    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    def presenting(self, *, table_id: int) -> AbstractAsyncContextManager[None]:
        """Held while one process shows the table (other processes serving it wait: on PostgreSQL)."""
        return self._db.presentation_lock(table_id)

    async def remember(self, *, table_id: int, role: str, channel_id: int, message_id: int, user_id: int = 0,
                       deal: int = -1) -> None:
        await self._db.write([Statement(
            "INSERT INTO shown_messages (table_id, role, user_id, deal, channel_id, message_id) "
            "VALUES (:table_id, :role, :user_id, :deal, :channel_id, :message_id) "
            "ON CONFLICT (table_id, role, user_id) DO UPDATE SET deal = excluded.deal, "
            "channel_id = excluded.channel_id, message_id = excluded.message_id",
            {"table_id": table_id, "role": role, "user_id": user_id, "deal": deal, "channel_id": channel_id,
             "message_id": message_id})])

    async def forget(self, *, table_id: int, role: str, user_id: int = 0) -> None:
        await self._db.write([Statement(
            "DELETE FROM shown_messages WHERE table_id = :table_id AND role = :role AND user_id = :user_id",
            {"table_id": table_id, "role": role, "user_id": user_id})])

    async def recall(self, *, table_id: int) -> list[ShownMessage]:
        rows = await self._db.fetch_all(
            "SELECT role, user_id, deal, channel_id, message_id FROM shown_messages WHERE table_id = :table_id "
            "ORDER BY role, user_id", {"table_id": table_id})
        return [ShownMessage(r["role"], r["user_id"], r["deal"], r["channel_id"], r["message_id"]) for r in rows]

    async def owe(self, *, table_id: int, item: str, content: str) -> None:
        """About to post `content` for `item` (kept, so that after a crash the post can be looked for)."""
        await self._db.write([Statement(
            "INSERT INTO table_outbox (table_id, item, content) VALUES (:table_id, :item, :content) "
            "ON CONFLICT (table_id, item) DO UPDATE SET content = excluded.content "
            "WHERE table_outbox.shown_at IS NULL",
            {"table_id": table_id, "item": item, "content": content})])

    async def mark_shown(self, *, table_id: int, item: str, now: datetime, up_to: int | None = None) -> None:
        """`item` was shown; `up_to`: and so was everything the table's first `up_to` log entries owe ("shown up
        to seq N", in the same transaction; it only moves forward)."""
        statements = [Statement(
            "INSERT INTO table_outbox (table_id, item, shown_at) VALUES (:table_id, :item, :now) "
            "ON CONFLICT (table_id, item) DO UPDATE SET shown_at = excluded.shown_at",
            {"table_id": table_id, "item": item, "now": to_seconds(now)})]
        if up_to is not None:
            statements.append(Statement(
                "INSERT INTO table_shown (table_id, shown_up_to) VALUES (:table_id, :up_to) "
                "ON CONFLICT (table_id) DO UPDATE SET shown_up_to = excluded.shown_up_to "
                "WHERE table_shown.shown_up_to < excluded.shown_up_to",
                {"table_id": table_id, "up_to": up_to}))
        await self._db.write(statements)

    async def shown_up_to(self, *, table_id: int) -> int:
        """N: what the table's first N log entries owe is shown (0 when nothing was marked so)."""
        rows = await self._db.fetch_all(
            "SELECT shown_up_to FROM table_shown WHERE table_id = :table_id", {"table_id": table_id})
        return int(rows[0]["shown_up_to"]) if rows else 0

    async def outbox(self, *, table_id: int) -> dict[str, OutboxItem]:
        rows = await self._db.fetch_all(
            "SELECT item, content, shown_at FROM table_outbox WHERE table_id = :table_id", {"table_id": table_id})
        return {r["item"]: OutboxItem(r["item"], r["content"], r["shown_at"] is not None) for r in rows}

    async def ended_owing(self) -> list[int]:
        """Tables that ended (finished or closed) without everything they owe shown: the outbox to drain."""
        rows = await self._db.fetch_all(
            "SELECT table_id FROM tables WHERE state IN ('finished', 'abandoned') AND table_id NOT IN "
            "(SELECT table_id FROM table_outbox WHERE item = 'end' AND shown_at IS NOT NULL) ORDER BY table_id")
        return [int(r["table_id"]) for r in rows]
