"""What the bot has shown for each table: the messages it keeps up to date, and how far what its log owes is shown.

A restart reads both back: the lobby, the board and each player's hand message are edited rather than
posted again, and what a table still owes (a result card, the final ranking, the closing notice) is
posted once, by the position in the table's log of the entry that owes it ("shown up to", `table_shown`).
The text of the item being posted is written first, with the position, and the position moves past it once
Discord took it, so a post interrupted by a crash can be found in the channel instead of being repeated.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from skatbot.models import OutboxItem, ShownMessage, ShownUpTo

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

    async def shown_up_to(self, *, table_id: int) -> ShownUpTo:
        """How far what the table's log owes is shown (nothing yet: the start of the log), and the draft of the
        item at that position being posted."""
        rows = await self._db.fetch_all(
            "SELECT shown_up_to, shown_in, draft FROM table_shown WHERE table_id = :table_id", {"table_id": table_id})
        if not rows:
            return ShownUpTo()
        return ShownUpTo(int(rows[0]["shown_up_to"]), int(rows[0]["shown_in"]), rows[0]["draft"])

    async def owe(self, *, table_id: int, at: tuple[int, int], content: str) -> None:
        """About to post `content`, the item at position `at` (everything before it is shown): the position moves
        to it (only forward) and the text is kept with it, so that after a crash the post can be looked for."""
        seq, part = at
        await self._db.write([Statement(
            "INSERT INTO table_shown (table_id, shown_up_to, shown_in, draft) VALUES (:table_id, :seq, :part, :draft) "
            "ON CONFLICT (table_id) DO UPDATE SET shown_up_to = excluded.shown_up_to, shown_in = excluded.shown_in, "
            "draft = excluded.draft WHERE table_shown.shown_up_to < excluded.shown_up_to OR "
            "(table_shown.shown_up_to = excluded.shown_up_to AND table_shown.shown_in <= excluded.shown_in)",
            {"table_id": table_id, "seq": seq, "part": part, "draft": content})])

    async def mark_shown(self, *, table_id: int, up_to: tuple[int, int]) -> None:
        """Everything the table's log owes before position `up_to` is shown (only forward; the draft goes)."""
        seq, part = up_to
        await self._db.write([Statement(
            "INSERT INTO table_shown (table_id, shown_up_to, shown_in) VALUES (:table_id, :seq, :part) "
            "ON CONFLICT (table_id) DO UPDATE SET shown_up_to = excluded.shown_up_to, shown_in = excluded.shown_in, "
            "draft = NULL WHERE table_shown.shown_up_to < excluded.shown_up_to OR "
            "(table_shown.shown_up_to = excluded.shown_up_to AND table_shown.shown_in < excluded.shown_in)",
            {"table_id": table_id, "seq": seq, "part": part})])

    async def legacy_outbox(self, *, table_id: int) -> dict[str, OutboxItem]:
        """The outbox rows by name that a version before migration 0019 left for a running table."""
        rows = await self._db.fetch_all(
            "SELECT item, content, shown_at FROM table_outbox WHERE table_id = :table_id", {"table_id": table_id})
        return {r["item"]: OutboxItem(r["item"], r["content"], r["shown_at"] is not None) for r in rows}

    async def drop_legacy_outbox(self, *, table_id: int) -> None:
        await self._db.write([Statement("DELETE FROM table_outbox WHERE table_id = :table_id",
                                        {"table_id": table_id})])

    async def ended_owing(self) -> list[int]:
        """Tables that ended (finished or closed) without everything they owe shown: not shown up to the end of
        their log (where an ended table's end is)."""
        rows = await self._db.fetch_all(
            "SELECT t.table_id FROM tables t LEFT JOIN table_shown s ON s.table_id = t.table_id "
            "WHERE t.state IN ('finished', 'abandoned') AND (s.table_id IS NULL OR s.shown_up_to < "
            "(SELECT COALESCE(MAX(l.seq) + 1, 0) FROM table_log l WHERE l.table_id = t.table_id)) "
            "ORDER BY t.table_id")
        return [int(r["table_id"]) for r in rows]
