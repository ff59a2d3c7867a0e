"""The two ports of a table: where its log is stored and how it is shown.

Storage implements `TableStore`; the Discord layer implements `Presenter`. Tests use the in-memory store
(tests/tables/memory_store.py) and the recording presenter (`skatbot.tables.memory`).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from skatbot.engine import RuleSet
from skatbot.models import Due, DueKind, DueStep, TableState

from .game import FinishedDeal
from .view import Step, TableView


class TableStore(Protocol):
    def lock_table(self, *, table_id: int, since: int) -> AbstractAsyncContextManager[list[str]]:
        """Hold the table against every other writer, other processes included, while a step is applied; the
        block gets the stored entries from sequence number `since` on, read under the lock (what other
        processes added since this one last looked)."""

    async def entries_since(self, *, table_id: int, seq: int) -> list[str]:
        """The stored entries from sequence number `seq` on: what other processes added since we last looked."""

    async def append_log(self, *, table_id: int, seq: int, entry: str, due: Sequence[Due] = ()) -> None:
        """Store one accepted entry; it must be durable when this returns. `due`, in the same transaction:
        what the table must do by itself after this entry (the table's earlier due steps are dropped), held by
        this process, which fires them itself, until a lease past their time runs out."""

    lease: float
    """Seconds past their time this process holds the due steps it writes or claims."""

    async def take_over(self, *, table_id: int, seq: int, due: Sequence[Due]) -> bool:
        """A table resumed after a restart: its due steps become `due` from now, held by this process, unless
        a step at `seq` is still held by another (False: this process must not fire them)."""

    async def extend_due(self, *, table_id: int, seq: int, kind: DueKind) -> bool:
        """This process is still on this step (an AI thinking): hold it for another lease from now."""

    async def window_left(self, *, table_id: int) -> float:
        """Seconds until the table's stored Kontra window ends (0 when it has none, or it ended): for a process
        that did not see it open (another process stored the declaration)."""

    async def close_window(self, *, table_id: int, seq: int) -> bool:
        """The end of the table's Kontra window at `seq` is shown: no process claims it again (its end is kept).
        True for the one process that closed it (it shows it: once, even after a takeover)."""

    async def release_due(self, *, table_id: int, seq: int) -> None:
        """A clean shutdown: the table's steps at `seq` may be claimed by any process as soon as they are due."""

    async def drop_due(self, *, table_id: int, seq: int, kind: DueKind) -> bool:
        """Forget one due step (fired, or stale); True if it was still there (so only one process warns)."""

    async def record_deal(self, *, table_id: int, row: FinishedDeal, table: TableView) -> None:
        """Store a finished deal and its score rows once: a second call for the same deal is a no-op. `table`:
        the table as stored with the entry that finished it."""

    async def set_table_state(self, *, table_id: int, state: TableState) -> None:
        """Keep the table's state (open, playing, finished, abandoned) for queries and restore."""

    async def table_started(self, *, table: TableView) -> None:
        """Play begins: the seating is final, so the players and seats can be written."""


class DueClaims(Protocol):
    async def claim_due(self, *, limit: int) -> list[DueStep]:
        """Due steps whose time has come and whose holder's lease ran out (it died, or is late), now held
        by this process for a lease: the scheduler's work."""


class Presenter(Protocol):
    async def show(self, step: Step) -> None:
        """Render what happened (`step.events`) and the table as it stands after it (`step.view`). Called in
        order, outside the table lock."""

    async def idle(self, table_id: int) -> None:
        """Return once what `show` left queued for this table (a channel's rate-limited messages) is shown."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as storage keeps it: enough to rebuild it by replaying `entries`. `channel_id` is where it
    plays (its own thread, if it has one)."""

    table_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    size: int
    deals: int
    rules: RuleSet
    entries: tuple[str, ...]


class TableCatalog(Protocol):
    async def create_table(self, *, guild_id: int, channel_id: int, creator_id: int, size: int, deals: int,
                           rules: RuleSet, parent_id: int | None = None, creator_name: str | None = None,
                           entries: Sequence[str] = ()) -> int:
        """Store a new table and return its id. `channel_id` is where the table plays; `parent_id`, when it
        plays in a thread of its own, the channel the thread was opened from. `entries`: its first log entries
        (from sequence number 0), stored with it, all or nothing, and with its creator (`creator_name`; None:
        the creator is stored already)."""

    async def unfinished_tables(self) -> list[StoredTable]:
        """Every table that is open or playing, with its log, for restore after a restart."""

    async def load_table(self, *, table_id: int) -> StoredTable | None:
        """One table with its log (None if there is no such table), for a process that does not hold it."""

    async def running_in(self, *, channel_id: int) -> list[int]:
        """The ids of the tables open or playing in this channel or thread (where they play), oldest first."""

    async def last_in(self, *, channel_id: int) -> int | None:
        """The newest table that played in this channel or thread, in any state (for read-only commands)."""

    async def playing_with(self, *, player_id: int) -> list[int]:
        """The ids of the tables playing with this player seated, oldest first (commands in a DM name none)."""


class SeatGuard(Protocol):
    async def __call__(self, player_id: int, table_id: int | None, channel_id: int | None, *,
                       asked_by: int | None = None) -> None:
        """Raise a refusal (a `Refusal`, nothing changed) when this player may not take a seat at the table
        `table_id` in `channel_id` (both None: a table they would open), or play there: `asked_by` another
        player starting the table they sit at (the refusal then names them). Read from storage, not only from
        this process's memory: the seat that forbids it may be at a table another process serves. A tournament's
        organiser is one: a player seated at a running tournament table sits nowhere else until it finished."""
