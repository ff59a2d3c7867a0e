"""The presenter's catch-up after a restart: it replays the table's stored log from "shown up to seq N" and shows
what the entries after N owe, once and in the order of the log (fake channels, no Discord)."""

from __future__ import annotations

import random
from contextlib import AbstractAsyncContextManager, nullcontext

from skatbot.models import OutboxItem, ShownMessage, ShownUpTo
from skatbot.tables import TableState
from skatbot.tables.ports import StoredTable
from skatbot.ui.presenter import DiscordPresenter
from tests.cogs.helpers import FakeSurface
from tests.tables.kit import TableKit

ALICE, BOB, CAROL = 100, 101, 102


class DictMemory:
    """What a presenter remembers, in dicts: kept across a "restart" (a new presenter on the same memory)."""

    def __init__(self) -> None:
        self.messages: dict[tuple[int, str, int], ShownMessage] = {}
        self.shown: dict[int, ShownUpTo] = {}
        self.legacy: dict[tuple[int, str], OutboxItem] = {}  # outbox marks by name, as versions before 0019 left them

    def presenting(self, *, table_id: int) -> AbstractAsyncContextManager[None]:
        return nullcontext()

    async def remember(self, *, table_id: int, role: str, channel_id: int, message_id: int, user_id: int = 0,
                       deal: int = -1) -> None:
        self.messages[(table_id, role, user_id)] = ShownMessage(role, user_id, deal, channel_id, message_id)

    async def forget(self, *, table_id: int, role: str, user_id: int = 0) -> None:
        self.messages.pop((table_id, role, user_id), None)

    async def recall(self, *, table_id: int) -> list[ShownMessage]:
        return [shown for (table, _, _), shown in self.messages.items() if table == table_id]

    async def shown_up_to(self, *, table_id: int) -> ShownUpTo:
        return self.shown.get(table_id, ShownUpTo())

    async def owe(self, *, table_id: int, at: tuple[int, int], content: str) -> None:
        if at >= self.shown.get(table_id, ShownUpTo()).position:
            self.shown[table_id] = ShownUpTo(*at, content)

    async def mark_shown(self, *, table_id: int, up_to: tuple[int, int]) -> None:
        if up_to > self.shown.get(table_id, ShownUpTo()).position:
            self.shown[table_id] = ShownUpTo(*up_to)

    async def legacy_outbox(self, *, table_id: int) -> dict[str, OutboxItem]:
        return {item: owed for (table, item), owed in self.legacy.items() if table == table_id}

    async def drop_legacy_outbox(self, *, table_id: int) -> None:
        self.legacy = {key: owed for key, owed in self.legacy.items() if key[0] != table_id}


def presenter(kit: TableKit, surface: FakeSurface, memory: DictMemory, reads: list[int]) -> DiscordPresenter:
    """A presenter on `memory` that reads the kit's stored log when it catches up (each read noted in `reads`)."""
    async def log_of(table_id: int) -> StoredTable | None:
        """The table's log as the store keeps it (the kit's table was not made through the catalog)."""
        game, logs = kit.table.game, kit.store.logs
        reads.append(table_id)
        return StoredTable(table_id, kit.table.guild_id, kit.table.channel_id, game.creator_id, game.size,
                           game.deals, game.rules, tuple(logs[table_id])) if table_id in logs else None

    return DiscordPresenter(surface, edit_interval=0.0, memory=memory, retry_every=3600.0,  # type: ignore[arg-type]  # a fake client
                            log_of=log_of)


async def play_until(kit: TableKit, rng: random.Random, finished: int) -> None:
    """The humans act (seeded random legal actions) until `finished` deals are over."""
    table = kit.table
    for _ in range(2000):
        await table.settle()
        game = table.game
        if len(game.finished) >= finished or game.state is not TableState.PLAYING:
            return
        deal = game.deal
        assert deal is not None and deal.current_seat is not None
        occupant = game.occupant_of_seat(deal.current_seat)
        assert occupant.user_id is not None
        actions = deal.legal_actions()
        await table.act(occupant.user_id, actions[rng.randrange(len(actions))])
    raise AssertionError("the deals did not finish")


def results(texts: list[str]) -> list[str]:
    return [text.split("\n")[0] for text in texts if text.startswith(("**Result of deal", "🏁 **The series is over"))]


async def test_after_a_restart_what_the_entries_after_n_owe_is_shown_once_in_the_order_of_the_log() -> None:
    kit = TableKit(deals=2)
    surface, memory, reads = FakeSurface(), DictMemory(), list[int]()
    first = presenter(kit, surface, memory, reads)
    kit.table.presenter = first
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await kit.table.join(user, name)
    await kit.table.start(ALICE)
    rng = random.Random(3)
    await play_until(kit, rng, 1)
    await first.idle(kit.table.id)
    channel = surface.channel(kit.table.channel_id)
    assert results(channel.texts()) == ["**Result of deal 1**"]
    after_deal_one = memory.shown[kit.table.id].position  # past deal 1's result card: its entry's seq, part 1
    deal_one = kit.table.game.finished[0]
    assert after_deal_one == (deal_one.seq, 1) and memory.shown[kit.table.id].draft is None

    channel.closed = True  # the channel refuses posts: deal 2's result and the ranking stay owed
    await play_until(kit, rng, 2)
    await first.idle(kit.table.id)
    assert kit.table.game.state is TableState.FINISHED
    assert results(channel.texts()) == ["**Result of deal 1**"]
    deal_two = kit.table.game.finished[1]
    # the refused post was written down at its position first (a crash now would look for it, not repeat it)
    assert memory.shown[kit.table.id].position == (deal_two.seq, 0)
    assert (memory.shown[kit.table.id].draft or "").startswith("**Result of deal 2**")
    assert first._retrying is not None
    first._retrying.cancel()  # the process dies; a new one reads back what it left

    channel.closed = False
    second = presenter(kit, surface, memory, reads)
    await second.catch_up(kit.table.current())
    await second.idle(kit.table.id)
    assert reads == [kit.table.id]  # the log was replayed from N
    shown = results(channel.texts())
    assert shown[:2] == ["**Result of deal 1**", "**Result of deal 2**"] and len(shown) == 3, shown
    assert shown[2].startswith("🏁 **The series is over"), shown
    everything = len(kit.store.logs[kit.table.id])
    assert memory.shown[kit.table.id].position == (everything, 0)  # past the log: its end is shown, nothing owed

    memory.shown[kit.table.id] = ShownUpTo(deal_two.seq, 2)  # killed after the ranking, before its end was stored
    third = presenter(kit, surface, memory, reads)  # the end is owed still, the ranking not: nothing is shown twice
    await third.catch_up(kit.table.current())
    await third.idle(kit.table.id)
    assert results(channel.texts()) == shown
    assert memory.shown[kit.table.id].position == (everything, 0)


async def test_a_table_shown_by_a_version_before_positions_shows_nothing_twice() -> None:
    """A table in play across the upgrade: its outbox marks by name (deal 1's result card shown, deal 2's
    written down when the bot stopped, Discord refusing it) become its position once: deal 1's card is not
    shown again, deal 2's, the ranking and the end follow, each once, and the marks by name are gone."""
    kit = TableKit(deals=2)
    surface, memory, reads = FakeSurface(), DictMemory(), list[int]()
    first = presenter(kit, surface, memory, reads)
    kit.table.presenter = first
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await kit.table.join(user, name)
    await kit.table.start(ALICE)
    rng = random.Random(3)
    await play_until(kit, rng, 1)
    await first.idle(kit.table.id)
    channel = surface.channel(kit.table.channel_id)
    channel.closed = True
    await play_until(kit, rng, 2)
    await first.idle(kit.table.id)
    assert first._retrying is not None
    first._retrying.cancel()
    draft = memory.shown[kit.table.id].draft
    assert draft is not None
    channel.closed = False
    # What the old version left: marks by name, and no position.
    table_id = kit.table.id
    del memory.shown[table_id]
    memory.legacy = {(table_id, "result:0"): OutboxItem("result:0", "", True),
                     (table_id, "result:1"): OutboxItem("result:1", draft, False)}

    second = presenter(kit, surface, memory, reads)
    await second.catch_up(kit.table.current())
    await second.idle(table_id)
    shown = results(channel.texts())
    assert shown[:2] == ["**Result of deal 1**", "**Result of deal 2**"] and len(shown) == 3, shown
    assert shown[2].startswith("🏁 **The series is over"), shown
    assert memory.legacy == {}, "the marks by name are gone"
    assert memory.shown[table_id].position == (len(kit.store.logs[table_id]), 0)
