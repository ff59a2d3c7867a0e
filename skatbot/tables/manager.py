"""All running tables of the bot: one per channel, created, looked up, and restored after a restart."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor

from skatbot.engine import RuleSet
from skatbot.models import DueStep, TableState

from .errors import TableError
from .game import TableGame
from .log import Entry, Hints
from .ports import DueClaims, Presenter, SeatGuard, StoredTable, TableCatalog, TableStore
from .replay import ReplayError, replay_log
from .scheduler import POLL_SECONDS, DueScheduler
from .table import Table, joining
from .timers import Sleep
from .turns import DEFAULT_TIMING, TableTiming

log = logging.getLogger(__name__)

FINISHED_KEPT = 50
"""Finished tables kept for the read-only commands (/skat list) of their channel or thread. A table in the
channel is replaced by the channel's next one; tables in threads of their own are not, so the oldest go."""


RUNNING = (TableState.OPEN, TableState.PLAYING)
LOOKUP_PATIENCE = 1.0
"""Seconds a command's lookup waits for a step in progress in this process before it reads the table as it
is (the command itself is checked again under the lock, on the table as stored)."""


class NoTable(TableError):
    pass


class ChannelBusy(TableError):
    def __init__(self, table_id: int) -> None:
        super().__init__("channel_busy", table_id=table_id)

    @property
    def table_id(self) -> int:
        table_id = self.values["table_id"]
        assert isinstance(table_id, int)
        return table_id


class TableManager:
    """Owns the `Table` objects; the Discord layer asks it for the table of a channel or an id."""

    def __init__(self, *, catalog: TableCatalog, store: TableStore, presenter: Presenter,
                 executor: Executor | None = None, timing: TableTiming = DEFAULT_TIMING,
                 sleep: Sleep = asyncio.sleep, new_seed: Callable[[], int] | None = None) -> None:
        self.catalog = catalog
        self.store = store
        self.presenter = presenter
        self.executor = executor
        self.timing = timing
        self.sleep = sleep
        self.new_seed = new_seed
        self.tables: dict[int, Table] = {}
        self._creating = asyncio.Lock()
        self.timing_for: Callable[[int], Awaitable[TableTiming]] | None = None  # each server's (set by restore)
        self.scheduler: DueScheduler | None = None
        # Who may take a seat (`may_sit`): asked before a player joins a table or opens one. Ordinary tables add
        # none: a player may sit at two ordinary tables at once, as always (a command in a DM then names no
        # table and must be used in the table's channel). A tournament's organiser adds one (its cog does).
        self.seat_guards: list[SeatGuard] = []

    async def may_sit(self, player_id: int, table_id: int | None = None, channel_id: int | None = None, *,
                      asked_by: int | None = None) -> None:
        """Raise the refusal of a seat guard when this player may not sit at `table_id` (in `channel_id`), or,
        with neither, open a table of their own; nothing is changed either way. `asked_by`: another player,
        starting the table where this one sits (a seat taken in its lobby before the player's tournament began)."""
        for guard in list(self.seat_guards):
            await guard(player_id, table_id, channel_id, asked_by=asked_by)

    def _make(self, *, table_id: int, guild_id: int, channel_id: int, game: TableGame,
              timing: TableTiming | None = None) -> Table:
        table = Table(table_id=table_id, guild_id=guild_id, channel_id=channel_id, game=game, store=self.store,
                      presenter=self.presenter, executor=self.executor, timing=timing or self.timing,
                      sleep=self.sleep)
        if self.new_seed is not None:
            table.new_seed = self.new_seed
        table.may_sit = self.may_sit
        self.tables[table_id] = table
        return table

    def in_channel(self, channel_id: int) -> Table | None:
        for table in self.tables.values():
            if table.channel_id == channel_id and table.game.state in (TableState.OPEN, TableState.PLAYING):
                return table
        return None

    def last_in_channel(self, channel_id: int) -> Table | None:
        """The channel's running table, else its most recent one (a finished series keeps its list)."""
        here = self.in_channel(channel_id)
        if here is not None:
            return here
        tables = [table for table in self.tables.values() if table.channel_id == channel_id]
        return max(tables, key=lambda table: table.id) if tables else None

    async def find_in_channel(self, channel_id: int, *, finished_too: bool = False) -> Table | None:
        """The table open or playing in this channel or thread, whichever process opened it: this process's
        copy, caught up with the log, or one rebuilt from it. `finished_too` (for read-only commands): else
        the newest table that played there, whose list stays until the next table opens."""
        here = self.in_channel(channel_id)
        if here is not None:
            await here.refresh(patience=LOOKUP_PATIENCE)
            if here.game.state in RUNNING:
                return here
        for table_id in await self.catalog.running_in(channel_id=channel_id):
            table = await self._caught_up(table_id)
            if table is not None and table.channel_id == channel_id and table.game.state in RUNNING:
                return table
        if not finished_too:
            return None
        known = self.last_in_channel(channel_id)
        newest = max((table_id for table_id in (await self.catalog.last_in(channel_id=channel_id),
                                                 known.id if known is not None else None) if table_id is not None),
                     default=None)
        return None if newest is None else await self._caught_up(newest)

    async def playing_at(self, user_id: int) -> Table | None:
        """The one table where this user is playing, whichever process serves it (None for none, or for
        several: a command in a DM names no table, so it must then be used in the table's channel)."""
        candidates = set(await self.catalog.playing_with(player_id=user_id))
        candidates.update(table.id for table in self.tables.values() if _plays_at(table, user_id))
        mine = []
        for table_id in sorted(candidates):
            table = await self._caught_up(table_id)
            if table is not None and _plays_at(table, user_id):
                mine.append(table)
        return mine[0] if len(mine) == 1 else None

    async def _caught_up(self, table_id: int) -> Table | None:
        """The table as stored now (None when it is gone, or its log does not replay)."""
        try:
            table = await self.load(table_id)
        except NoTable:
            return None
        await table.refresh(patience=LOOKUP_PATIENCE)
        return table

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise NoTable("table_gone")
        return table

    async def load(self, table_id: int) -> Table:
        """The table, from memory, or rebuilt from its stored log when another process has been serving it
        (a click for any table can reach any process). Each step then catches up with the log under the
        table's lock, so a copy that falls behind is never acted on."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        stored = await self.catalog.load_table(table_id=table_id)
        if stored is None:
            raise NoTable("table_gone")
        try:
            replayed = replay_log(size=stored.size, deals=stored.deals, rules=stored.rules,
                                  creator_id=stored.creator_id, entries=stored.entries)
        except (ReplayError, TableError):
            log.exception("table %s: its log does not replay", table_id)
            raise NoTable("table_gone") from None
        timing = await self.timing_for(stored.guild_id) if self.timing_for is not None else None
        table = self.tables.get(table_id)  # another click may have loaded it meanwhile
        if table is None:
            table = self._make(table_id=stored.table_id, guild_id=stored.guild_id, channel_id=stored.channel_id,
                               game=replayed.game, timing=timing)
            table.entries = list(replayed.entries)
        return table

    async def create(self, *, guild_id: int, channel_id: int, creator_id: int, creator_name: str, size: int,
                     deals: int, rules: RuleSet, timing: TableTiming | None = None,
                     parent_id: int | None = None, hints: bool = False, seated: Sequence[Entry] = ()) -> Table:
        """Open a table in a channel with its creator seated (and `hints` offered): the table, its creator and
        its first entries are stored in one write, so it is never stored half made, and it is shown (its lobby)
        once stored. With `parent_id` the table plays in a thread of its own (`channel_id`) opened from that
        channel; the thread is where it is found and shown. `seated`: more first entries, stored in the same write
        (a tournament's table: its drawn players seated and the start, so it is never shown as an open lobby)."""
        async with self._creating:
            busy = await self.find_in_channel(channel_id)  # another process may have opened one there
            if busy is not None:
                raise ChannelBusy(busy.id)
            for done in [t for t in self.tables.values() if t.channel_id == channel_id]:
                del self.tables[done.id]  # a finished table is kept (for /skat list) only until the next one
            finished = sorted(t.id for t in self.tables.values()
                              if t.game.state not in (TableState.OPEN, TableState.PLAYING))
            for old in finished[:-FINISHED_KEPT]:
                del self.tables[old]
            game = TableGame(size=size, deals=deals, rules=rules, creator_id=creator_id)
            first: list[Entry] = [joining(creator_id, creator_name), *([Hints()] if hints else []), *seated]
            for entry in first:
                game.apply(entry)
            table_id = await self.catalog.create_table(guild_id=guild_id, channel_id=channel_id,
                                                       creator_id=creator_id, size=size, deals=deals, rules=rules,
                                                       parent_id=parent_id, creator_name=creator_name,
                                                       entries=[str(entry) for entry in first])
            table = self._make(table_id=table_id, guild_id=guild_id, channel_id=channel_id, game=game,
                               timing=timing)
            table.entries = first
        if table.game.state is TableState.PLAYING:
            await table.begun()
        else:
            table.opened()
        return table

    def adopt(self, stored: StoredTable, timing: TableTiming | None = None) -> Table | None:
        """Rebuild a stored table by replaying its log (None, logged, when the log does not replay)."""
        try:
            replayed = replay_log(size=stored.size, deals=stored.deals, rules=stored.rules,
                                  creator_id=stored.creator_id, entries=stored.entries)
        except (ReplayError, TableError):  # TableError: a table size or series length it cannot have
            log.exception("table %s: its log does not replay; leaving it closed", stored.table_id)
            return None
        table = self._make(table_id=stored.table_id, guild_id=stored.guild_id, channel_id=stored.channel_id,
                           game=replayed.game, timing=timing)
        table.entries = list(replayed.entries)
        return table

    async def restore(self, timing_for: Callable[[int], Awaitable[TableTiming]] | None = None,
                      before_resume: Callable[[Table], Awaitable[None]] | None = None,
                      serves: Callable[[int], bool] = lambda guild_id: True) -> list[Table]:
        """Rebuild every unfinished table by replaying its log; resume AI turns and timers.

        `timing_for(guild_id)`: each server's turn timers (default: the manager's). `before_resume(table)`
        runs before a table goes on (the presenter reads back what it showed and shows what it owes); it is
        kept for tables loaded later (`load`). `serves(guild_id)`: the servers this process announces the
        restart to (when several processes share the tables, each takes up every table, but only the process
        of its server's shard says in its channel that it goes on)."""
        if timing_for is not None:
            self.timing_for = timing_for
        restored = []
        for stored in await self.catalog.unfinished_tables():
            timing = await timing_for(stored.guild_id) if timing_for is not None else None
            table = self.adopt(stored, timing)
            if table is None:
                continue
            game = table.game
            for row in game.finished:  # a crash between the last action and its deal record: write it now
                await self.store.record_deal(table_id=table.id, row=row, table=table.current())
            if game.state not in (TableState.OPEN, TableState.PLAYING):  # ... or before its state was written
                await self.store.set_table_state(table_id=table.id, state=game.state)
            if before_resume is not None:
                await before_resume(table)
            await table.resume(announce=serves(table.guild_id))
            restored.append(table)
        return restored

    def start_scheduler(self, claims: DueClaims, *, poll: float = POLL_SECONDS) -> DueScheduler:
        """Fire the due steps that the processes that wrote them left behind (they died, or fell behind)."""
        if self.scheduler is None:
            self.scheduler = DueScheduler(claims=claims, load=self.load, drop=self._drop_due, poll=poll)
        self.scheduler.start()
        return self.scheduler

    async def _drop_due(self, step: DueStep) -> None:
        await self.store.drop_due(table_id=step.table_id, seq=step.seq, kind=step.kind)

    async def close(self) -> None:
        if self.scheduler is not None:
            await self.scheduler.stop()
        # Side by side: each waits its bound at most for its messages (a rate-limited channel holds up only its own
        # table), and its due steps are released: another process takes over at once.
        await asyncio.gather(*(table.close(release=True) for table in list(self.tables.values())))


def _plays_at(table: Table, user_id: int) -> bool:
    return table.game.state is TableState.PLAYING and table.game.place_of(user_id) is not None
