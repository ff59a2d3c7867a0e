"""The composition root's adapter: the tables' store and catalog ports on top of `skatbot.storage`.

Table log entries map onto storage's log kinds (a new deal as its cards and seed, an action with its
seat, everything else as an event line), and a finished deal becomes one `DealRecord` written once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from skatbot.engine import Deal, RuleSet
from skatbot.storage import LogEntry, LogKind, Player, Storage, TableState
from skatbot.storage.recording import deal_record
from skatbot.storage.replay import deal_payload
from skatbot.tables.game import FinishedDeal
from skatbot.tables.game import TableState as GameState
from skatbot.tables.log import Act, NewDeal, parse_entry
from skatbot.tables.ports import StoredTable

if TYPE_CHECKING:
    from skatbot.tables.table import Table

SEATS_KEY = "_table_seats"
"""Where older databases kept the table size, in the stored rules dict (read for compatibility only)."""

SEATS_EVENT = "seats"
"""The first log row of a table, `seats 4`: the table size (storage keeps rules, not seats, per table).
The table's own log entries follow it, each stored one sequence number later."""

Clock = Callable[[], datetime]


def _now() -> datetime:
    return datetime.now(UTC)


class StorageTables:
    """Implements `TableStore` and `TableCatalog` for the tables layer."""

    def __init__(self, storage: Storage, clock: Clock = _now) -> None:
        self.storage = storage
        self.clock = clock
        self._started: dict[tuple[int, int], datetime] = {}
        self._offsets: dict[int, int] = {}  # table -> storage seq of the table's entry 0 (1 after a seats row)

    async def save_player(self, *, player_id: int, name: str, is_ai: bool) -> None:
        await self.storage.players.save(player=Player(player_id, name[:100], is_ai), now=self.clock())

    async def create_table(self, *, guild_id: int, channel_id: int, creator_id: int, size: int, deals: int,
                           rules: RuleSet, parent_id: int | None = None) -> int:
        """A table in its own thread is stored under the channel it came from, with the thread's id."""
        stored_rules: dict[str, Any] = rules.to_dict()
        now = self.clock()
        table = await self.storage.tables.create(
            server_id=guild_id, channel_id=channel_id if parent_id is None else parent_id,
            thread_id=None if parent_id is None else channel_id, creator_id=creator_id,
            rule_preset=rules.preset_name() or "custom", rules=stored_rules, series_length=deals, now=now)
        await self.storage.tables.append_many(table_id=table.table_id, entries=(
            LogEntry(0, 1, LogKind.EVENT, None, f"{SEATS_EVENT} {size}", now),))
        self._offsets[table.table_id] = 1
        return table.table_id

    async def append_log(self, *, table_id: int, seq: int, entry: str) -> None:
        parsed = parse_entry(entry)
        now = self.clock()
        seq += self._offsets.get(table_id, 0)
        if isinstance(parsed, NewDeal):
            payload = deal_payload(Deal.new(parsed.seed), number=parsed.number)
            log_entry = LogEntry(seq, parsed.number + 1, LogKind.DEAL, None, payload, now)
        elif isinstance(parsed, Act):
            log_entry = LogEntry(seq, parsed.number + 1, LogKind.ACTION, parsed.seat, str(parsed.action), now)
        else:
            log_entry = LogEntry(seq, self._deal_number_after(table_id), LogKind.EVENT, None, entry, now)
        await self.storage.tables.append_many(table_id=table_id, entries=(log_entry,))
        if isinstance(parsed, NewDeal):
            self._started[(table_id, parsed.number)] = now

    def _deal_number_after(self, table_id: int) -> int:
        numbers = [n for t, n in self._started if t == table_id]
        return max(numbers) + 1 if numbers else 1

    async def record_deal(self, *, table_id: int, row: FinishedDeal, table: Table) -> None:
        game = table.game
        players = [o.player_id for o in game.places]
        if (table_id, row.number) not in self._started:
            self._started[(table_id, row.number)] = self.clock()
        record = deal_record(
            table_id=table_id, server_id=table.guild_id, deal_number=row.number + 1, deal=row.deal,
            players=players, names=game.list_names(), seats=row.places, scores=row.place_scores,
            seeger=row.row.seeger, bock=row.row.bock, started_at=self._started[(table_id, row.number)],
            finished_at=self.clock())
        await self.storage.deals.store(record=record)  # a second store of the same deal is a no-op
        if game.state is GameState.FINISHED and len(game.finished) == game.deals:
            await self.storage.deals.finish_series(table_id=table_id, now=self.clock())

    async def set_table_state(self, *, table_id: int, state: GameState, now: datetime | None = None) -> None:
        await self.storage.tables.set_state(table_id=table_id, state=TableState(state.value),
                                            now=now or self.clock())

    async def table_started(self, *, table: Table) -> None:
        """Players and seats are written when play starts (the lobby may change until then)."""
        for occupant in table.game.places:
            await self.save_player(player_id=occupant.player_id, name=occupant.name, is_ai=occupant.is_ai)
        await self.storage.tables.set_seats(table_id=table.id, seats=[o.player_id for o in table.game.places],
                                            now=self.clock())

    async def unfinished_tables(self) -> list[StoredTable]:
        out = []
        for unfinished in await self.storage.load_unfinished_tables():
            table = unfinished.table
            rules_dict = dict(table.rules)
            size = int(rules_dict.pop(SEATS_KEY, 3))
            log_entries = list(unfinished.log)
            if log_entries and log_entries[0].kind is LogKind.EVENT and \
                    log_entries[0].payload.startswith(f"{SEATS_EVENT} "):
                size = int(log_entries.pop(0).payload.split()[1])
                self._offsets[table.table_id] = 1
            entries = []
            for log_entry in log_entries:
                if log_entry.kind is LogKind.DEAL:
                    info = json.loads(log_entry.payload)
                    entries.append(str(NewDeal(log_entry.deal_number - 1, int(info["seed"]))))
                    self._started[(table.table_id, log_entry.deal_number - 1)] = log_entry.at
                elif log_entry.kind is LogKind.ACTION:
                    seat = "-" if log_entry.seat is None else str(log_entry.seat)
                    entries.append(f"act {log_entry.deal_number - 1} {seat} {log_entry.payload}")
                else:
                    entries.append(log_entry.payload)
            plays_in = table.thread_id if table.thread_id is not None else table.channel_id  # its thread, if any
            out.append(StoredTable(table.table_id, table.server_id, plays_in, table.creator_id, size,
                                   table.series_length, RuleSet.from_dict(rules_dict), tuple(entries)))
        return out

