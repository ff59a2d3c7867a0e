"""Timers and AI turns as due steps: each entry stores what it makes due; when the process that wrote them is
gone, another process (here: another manager on the same store, as processes share a database) claims them
once their lease runs out and fires them, exactly once, and a step the table has moved past is dropped."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from skatbot.ai import Level
from skatbot.engine import Declare, GameType, Kontra, Pass, Phase, PlayCard, RuleSet
from skatbot.models import Due, DueKind, DueStep
from skatbot.storage.errors import StoreBusy
from skatbot.tables import Table, TableTiming
from skatbot.tables import events as ev
from skatbot.tables.errors import NotAllowed
from skatbot.tables.log import Act, parse_entry
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from skatbot.tables.scheduler import DueScheduler
from tests.tables.kit import InlineExecutor, ManualClock, P, R, events_shown
from tests.tables.memory_store import MemoryStore

ALICE = 100
LEASE = 3.0
TIMING = TableTiming(turn_seconds=120, warn_after=90, kontra_window=8)


class Time:
    """The store's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class DeadExecutor(Executor):
    """A process that died while its AI was thinking: the decision never comes back (until `revive`)."""

    def __init__(self) -> None:
        self.pending: list[Callable[[], None]] = []  # each decision, to be made on `revive`

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        future: Future[R] = Future()
        self.pending.append(lambda: future.set_result(fn(*args, **kwargs)))
        return future

    def revive(self) -> None:
        for decide in self.pending:
            decide()
        self.pending.clear()


def manager(store: MemoryStore, executor: Executor, seed: int) -> TableManager:
    seeds = random.Random(seed)
    return TableManager(catalog=store, store=store, presenter=RecordingPresenter(), executor=executor,
                        timing=TIMING, sleep=ManualClock().sleep, new_seed=lambda: seeds.randrange(1 << 40))


async def open_table(first: TableManager, ais: int = 2) -> Table:
    table = await first.create(guild_id=1, channel_id=5, creator_id=ALICE, creator_name="Alice", size=3, deals=2,
                               rules=RuleSet())
    for _ in range(ais):
        await table.add_ai(ALICE, Level.NORMAL)
    return table


def due(store: MemoryStore) -> dict[DueKind, tuple[int, float]]:
    return {kind: (seq, at - store.clock()) for (_, seq, kind), (at, _) in store.due.items()}


async def alice_until_an_ai_moves(table: Table) -> None:
    """Alice acts (first legal action) until it is an AI seat's turn."""
    for _ in range(50):
        await asyncio.sleep(0)
        deal = table.game.deal
        assert deal is not None and deal.current_seat is not None
        if not table.game.occupant_of_seat(deal.current_seat).plays_itself:
            return
        await table.act(ALICE, deal.legal_actions()[0])
    raise AssertionError("no AI turn came")


async def first_process_thinking(store: MemoryStore) -> tuple[DeadExecutor, TableManager, Table]:
    """A first process at a table of Alice and two AIs, its AI thinking (and not answering) after her move."""
    thinking = DeadExecutor()
    first = manager(store, thinking, seed=1)
    table = await open_table(first)
    await table.start(ALICE)
    await alice_until_an_ai_moves(table)
    return thinking, first, table


async def test_each_entry_stores_what_it_makes_due(ai_first_legal: None) -> None:
    store = MemoryStore(clock=Time(), lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    table = await first.create(guild_id=1, channel_id=5, creator_id=ALICE, creator_name="Alice", size=3, deals=1,
                               rules=RuleSet())
    await table.join(101, "Bert")
    await table.join(102, "Carla")
    assert store.due == {}  # nothing happens by itself in the lobby
    await table.start(ALICE)
    assert due(store) == {DueKind.WARN: (table.seq, 90.0), DueKind.TIMEOUT: (table.seq, 120.0)}
    deal = table.game.deal
    assert deal is not None and deal.current_seat is not None
    await table.act(table.game.occupant_of_seat(deal.current_seat).player_id, deal.legal_actions()[0])
    assert due(store) == {DueKind.WARN: (table.seq, 90.0), DueKind.TIMEOUT: (table.seq, 120.0)}
    await table.stop(ALICE)
    assert store.due == {}
    await first.close()


async def test_an_ai_turn_left_by_a_dead_process_is_played_once_by_another(ai_first_legal: None) -> None:
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    dead, first, table = await first_process_thinking(store)
    await asyncio.sleep(0)
    assert dead.pending, "the first process's AI is thinking (and never answers: the process died)"
    seq = table.seq
    assert due(store) == {DueKind.AI: (seq, 0.0)}

    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()  # driven by hand below
    assert await scheduler.run_once() == []  # due now, but held by the process that wrote it
    time.now += LEASE - 0.5
    assert await scheduler.run_once() == []
    time.now += 0.5
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.AI, seq)]
    await scheduler.settle()
    taken = second.get(table.id)
    await taken.settle()
    log = store.logs[table.id]
    moved = parse_entry(log[seq])
    assert isinstance(moved, Act) and not table.game.occupant_of_seat(moved.seat or 0).plays_itself
    assert events_shown(second) and any(
        isinstance(event, ev.ActionTaken) and event.by is ev.Actor.AI
        for event in events_shown(second))
    after = list(log)

    dead.revive()  # the first process's late answer finds the table moved on: nothing is stored twice
    for _ in range(20):
        await asyncio.sleep(0)
    await table.settle()
    assert store.logs[table.id] == after
    assert await scheduler.run_once() == []  # the next steps are held by the process that took over
    await first.close()
    await second.close()


async def started_with_alice_to_act(process: TableManager) -> Table:
    """A table opened and started in `process`, where Alice (the human) acts first."""
    table = await open_table(process)
    await table.start(ALICE)
    await table.settle()
    deal = table.game.deal
    assert deal is not None and deal.current_seat is not None
    assert table.game.occupant_of_seat(deal.current_seat).user_id == ALICE
    return table


async def test_a_human_turn_left_by_a_dead_process_warns_once_then_times_out(ai_first_legal: None) -> None:
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    table = await started_with_alice_to_act(first)
    seq = table.seq
    await table.close()  # the process dies: its timer is gone, its rows stay

    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()
    time.now += 90 + LEASE
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.WARN, seq)]
    await scheduler.settle()
    shown = events_shown(second)
    assert [type(event) for event in shown] == [ev.TurnWarning]
    assert store.logs[table.id][seq:] == []
    time.now += 30
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.TIMEOUT, seq)]
    await scheduler.settle()
    await second.get(table.id).settle()
    assert isinstance(parse_entry(store.logs[table.id][seq]), Act)
    shown = events_shown(second)
    assert ev.StandInStarted(0, "timeout") in shown
    assert [type(event) for event in shown].count(ev.TurnWarning) == 1
    await first.close()
    await second.close()


async def test_a_warning_the_holder_showed_is_not_shown_again(ai_first_legal: None) -> None:
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    table = await open_table(first)
    await table.start(ALICE)
    await table.settle()
    clock = ManualClock()
    table.sleep = clock.sleep
    table.timers.cancel()
    table.timers.arm()
    await clock.advance()  # the holder's own timer warns
    await table.settle()
    assert [type(e) for e in events_shown(first)].count(ev.TurnWarning) == 1
    seq = table.seq
    second = manager(store, InlineExecutor(), seed=2)
    await (await second.load(table.id)).fire(DueStep(table.id, seq, DueKind.WARN, datetime.fromtimestamp(time.now, UTC)))
    assert not any(isinstance(e, ev.TurnWarning) for e in events_shown(second))
    await first.close()
    await second.close()


async def test_a_step_the_table_moved_past_is_dropped(ai_first_legal: None) -> None:
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    table = await open_table(first, ais=0)
    await table.join(101, "Bert")
    await table.join(102, "Carla")
    await table.start(ALICE)
    old = table.seq
    deal = table.game.deal
    assert deal is not None and deal.current_seat is not None
    await table.act(table.game.occupant_of_seat(deal.current_seat).player_id, deal.legal_actions()[0])
    store.due[(table.id, old, DueKind.TIMEOUT)] = (time.now, time.now)  # a row left from before that move
    log = list(store.logs[table.id])
    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.TIMEOUT, old)]
    await scheduler.settle()
    assert store.logs[table.id] == log
    assert (table.id, old, DueKind.TIMEOUT) not in store.due
    assert not events_shown(second)
    await first.close()
    await second.close()


async def test_a_resumed_table_holds_its_steps_afresh(ai_first_legal: None) -> None:
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    table = await open_table(first)
    await table.start(ALICE)
    await table.settle()
    await first.close()
    time.now += 500  # the bot was down past the turn's deadline
    restarted = manager(store, InlineExecutor(), seed=2)
    [resumed] = await restarted.restore()
    assert due(store) == {DueKind.WARN: (resumed.seq, 90.0), DueKind.TIMEOUT: (resumed.seq, 120.0)}
    await restarted.close()


class DiesBeforeTheNextDeal(MemoryStore):
    """The process dies between storing a deal's last card and dealing the next hand (its follow-up)."""

    died = False

    async def append_log(self, *, table_id: int, seq: int, entry: str, due: Sequence[Due] = ()) -> None:
        if entry.startswith("deal 1 ") and not self.died:
            self.died = True
            raise OSError("the process died (simulated)")
        await super().append_log(table_id=table_id, seq=seq, entry=entry, due=due)


async def test_the_next_deal_a_dead_process_owed_is_dealt_by_another(ai_first_legal: None) -> None:
    time = Time()
    store = DiesBeforeTheNextDeal(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    table = await open_table(first)
    await table.start(ALICE)
    for _ in range(200):
        await table.settle()
        deal = table.game.deal
        if store.died:
            break
        assert deal is not None and deal.current_seat is not None
        if table.game.occupant_of_seat(deal.current_seat).plays_itself:
            try:
                await table.act(ALICE, deal.legal_actions()[0])
            except OSError:
                break
    assert store.died
    seq = len(store.logs[table.id])
    assert due(store) == {DueKind.FOLLOW: (seq, 0.0)}  # the last card's entry said: deal on

    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()
    time.now += LEASE
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.FOLLOW, seq)]
    await scheduler.settle()
    await second.get(table.id).settle()
    dealt = [entry for entry in store.logs[table.id] if entry.startswith("deal ")]
    assert [entry.split()[1] for entry in dealt] == ["0", "1"]  # the next hand, dealt once
    assert store.logs[table.id][seq].startswith("deal 1 ")
    await first.close()
    await second.close()


async def test_a_claimed_ai_turn_does_not_wait_out_its_pause_again(ai_first_legal: None) -> None:
    """The row was due after the AI pause: the process that takes it over plays at once (its later AI moves,
    its own, wait as usual)."""
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    paused = TableTiming(turn_seconds=120, warn_after=90, kontra_window=8, ai_pause=2.0)
    first = manager(store, InlineExecutor(), seed=1)
    first.timing = paused
    table = await open_table(first)
    await table.start(ALICE)
    await alice_until_an_ai_moves(table)
    seq = table.seq
    assert due(store)[DueKind.AI] == (seq, 2.0)  # after the pause people watch
    await table.close()  # the process dies during the pause

    second = manager(store, InlineExecutor(), seed=2)
    second.timing = paused
    clock = ManualClock()
    second.sleep = clock.sleep
    scheduler = second.start_scheduler(store)
    await scheduler.stop()
    time.now += 2.0 + LEASE
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.AI, seq)]
    for _ in range(50):
        await asyncio.sleep(0)
    assert len(store.logs[table.id]) == seq + 1, "played without waiting for the clock"
    taken = second.get(table.id)
    deal = taken.game.deal
    assert deal is not None and deal.current_seat is not None
    assert not taken.game.occupant_of_seat(deal.current_seat).plays_itself  # the other AI's turn next ...
    assert [seconds for seconds, _ in clock.sleepers] == [2.0]  # ... which waits its pause here, as usual
    await taken.close()
    await first.close()
    await second.close()


class BusyOnce:
    """Claims that meet a busy database once (another writer held it), then nothing is due."""

    def __init__(self) -> None:
        self.calls = 0

    async def claim_due(self, *, limit: int) -> list[DueStep]:
        self.calls += 1
        if self.calls == 1:
            raise StoreBusy("database is locked")
        return []


async def test_a_busy_database_while_claiming_is_asked_again_with_a_warning(
        caplog: pytest.LogCaptureFixture) -> None:
    claims = BusyOnce()
    clock = ManualClock()

    async def never(table_id: int) -> Table:
        raise AssertionError("nothing was due")

    async def drop(step: DueStep) -> None:
        raise AssertionError("nothing was due")

    scheduler = DueScheduler(claims=claims, load=never, drop=drop, sleep=clock.sleep, poll=1.0)
    with caplog.at_level(logging.WARNING, logger="skatbot.tables.scheduler"):
        scheduler.start()
        for _ in range(3):
            for _ in range(20):
                await asyncio.sleep(0)
            await clock.advance()
        await scheduler.stop()
    assert claims.calls >= 2, "the scheduler asked again after the busy database"
    records = [r for r in caplog.records if r.name == "skatbot.tables.scheduler"]
    assert records and all(r.levelno == logging.WARNING and r.exc_info is None for r in records)
    assert "busy" in records[0].getMessage()


class CountingExecutor(InlineExecutor):
    """Decides at once, counting the decisions asked of this process's AI."""

    def __init__(self) -> None:
        self.asked = 0

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        self.asked += 1
        return super().submit(fn, *args, **kwargs)


async def settle_all(*tables: Table) -> None:
    for _ in range(20):
        await asyncio.sleep(0)
    for table in tables:
        await table.settle()


async def test_a_restarted_process_leaves_an_ai_turn_another_process_holds(ai_first_legal: None) -> None:
    """A process that starts while another plays a table replays it, but plays its AI turn only once it has
    claimed it: the turn is decided once, by the process that holds it."""
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    thinking, first, table = await first_process_thinking(store)
    await asyncio.sleep(0)
    assert thinking.pending, "the first process's AI is thinking"
    seq = table.seq

    asked = CountingExecutor()
    restarted = manager(store, asked, seed=2)
    [resumed] = await restarted.restore()
    await settle_all(resumed)
    assert asked.asked == 0, "the restarted process decided the turn the first one holds"
    assert len(store.logs[table.id]) == seq
    assert due(store) == {DueKind.AI: (seq, 0.0)}  # still the first process's

    thinking.revive()
    for _ in range(20):
        await asyncio.sleep(0)
    moved = parse_entry(store.logs[table.id][seq])
    assert isinstance(moved, Act) and not table.game.occupant_of_seat(moved.seat or 0).plays_itself
    assert asked.asked == 0
    await first.close()
    await restarted.close()


async def test_an_ai_thinking_past_its_lease_keeps_its_turn(ai_first_legal: None) -> None:
    """A strong AI may think longer than the lease: its process extends it meanwhile, so no other process
    claims the turn and decides it a second time."""
    time = Time()
    lease = 0.3  # the thinker renews it every lease / 3 seconds (of real time)
    store = MemoryStore(clock=time, lease=lease)
    thinking, first, table = await first_process_thinking(store)
    seq = table.seq
    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()
    for _ in range(4):
        time.now += lease  # every round, the lease the thinker last had runs out ...
        await renewed(store, time)  # ... and it renews it
        assert await scheduler.run_once() == []
    thinking.revive()
    for _ in range(20):
        await asyncio.sleep(0)
    assert isinstance(parse_entry(store.logs[table.id][seq]), Act)
    assert not second.tables, "the other process never took the table up"
    await first.close()
    await second.close()


class Stalling(InlineExecutor):
    """Decides at once until `stalled`: then each decision waits for `revive` (an AI thinking a long while)."""

    def __init__(self) -> None:
        self.stalled = False
        self.pending: list[Callable[[], None]] = []

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        if not self.stalled:
            return super().submit(fn, *args, **kwargs)
        future: Future[R] = Future()
        self.pending.append(lambda: future.set_result(fn(*args, **kwargs)))
        return future

    def revive(self) -> None:
        self.stalled = False
        for decide in self.pending:
            decide()
        self.pending.clear()


async def renewed(store: MemoryStore, time: Time, bound: float = 30.0) -> None:
    """Real time passes until the thinking process has renewed a lease past the store's now (it does every
    lease / 3 seconds). Waiting on that, not for a fixed 0.8 lease: under load the event loop can stall past
    both the renewal and a fixed sleep, and wake the test's poll before the renewal's write."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    while not any(time.now < held < float("inf") for _, held in store.due.values()):
        assert loop.time() < deadline, f"no lease was renewed within {bound} s"
        await asyncio.sleep(0.01)


async def nobody_else_claims(time: Time, store: MemoryStore, lease: float) -> TableManager:
    """Another process's scheduler, polled while each lease the thinker last had runs out: it claims nothing
    (the thinker renews its lease every lease / 3 seconds of real time). Returns that process."""
    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()  # driven by hand
    for _ in range(4):
        time.now += lease
        await renewed(store, time)
        assert await scheduler.run_once() == []
    return second


async def test_an_ai_playing_a_timed_out_turn_past_its_lease_keeps_the_turn(ai_first_legal: None) -> None:
    """Alice's time ran out and the AI decides her move for longer than the lease: the process keeps the
    time-out held meanwhile, so no other process times her out as well; her move is stored once."""
    time = Time()
    lease = 0.3
    store = MemoryStore(clock=time, lease=lease)
    slow = Stalling()
    first = manager(store, slow, seed=1)
    clock = ManualClock()
    first.sleep = clock.sleep
    table = await started_with_alice_to_act(first)
    seq = table.seq
    slow.stalled = True
    await clock.advance()  # the warning
    await clock.advance()  # the time-out: the AI decides for her, slowly
    assert slow.pending, "the AI is deciding Alice's move"
    time.now += TIMING.turn_seconds  # the time-out's row is due now
    second = await nobody_else_claims(time, store, lease)
    slow.revive()
    await settle_all(table)
    assert store.logs[table.id][seq].startswith("timeout ")
    assert sum(entry.startswith("timeout ") for entry in store.logs[table.id]) == 1
    assert events_shown(first).count(ev.StandInStarted(0, "timeout")) == 1
    assert not second.tables, "the other process never took the table up"
    await first.close()
    await second.close()


async def test_a_partner_answering_a_concession_past_its_lease_keeps_the_ai_turn(
        monkeypatch: pytest.MonkeyPatch, ai_first_legal: None) -> None:
    """Alice, defending, concedes while an AI's move is due (it waits out the pause people watch); her computer
    partner takes longer than the lease to answer: the process keeps the AI turn held meanwhile, so no other
    process plays it past her concession; the partner's answer is stored once."""
    from skatbot.engine import Concede
    from skatbot.tables import driver as driver_module

    monkeypatch.setattr(driver_module, "answer_concession", lambda seed, view: True)
    paused = TableTiming(turn_seconds=120, warn_after=90, kontra_window=8, ai_pause=2.0)
    lease = 0.3
    for seed in range(30):
        time = Time()
        store = MemoryStore(clock=time, lease=lease)
        slow = Stalling()
        first = manager(store, slow, seed=seed)
        clock = ManualClock()
        first.sleep = clock.sleep
        table = await open_table(first)
        await table.start(ALICE)
        rng = random.Random(seed)
        for _ in range(60):
            if table.timing is paused:  # the driver sleeps on the clock: settling would wait for it
                for _ in range(20):
                    await asyncio.sleep(0)
            else:
                await settle_all(table)
            deal = table.game.deal
            assert deal is not None
            seat = table.game.seat_of_user(ALICE)
            if deal.is_over or deal.current_seat is None:
                break
            if deal.phase is Phase.PLAY and deal.declarer not in (None, seat) and deal.current_seat != seat:
                break  # an AI's move is due, after the pause
            if deal.current_seat != seat:
                break  # an AI waits for the clock: this seed does not get there
            if deal.phase is Phase.PLAY and deal.declarer not in (None, seat):
                table.timing = paused  # Alice's card, then the AI's pause
            actions = deal.legal_actions()
            await table.act(ALICE, actions[rng.randrange(len(actions))])
        deal = table.game.deal
        assert deal is not None
        seat = table.game.seat_of_user(ALICE)
        if deal.is_over or deal.phase is not Phase.PLAY or deal.declarer in (None, seat) or \
                deal.current_seat in (None, seat):
            await first.close()
            continue
        assert deal.declarer is not None
        partner = 3 - seat - deal.declarer
        before, number = table.seq, table.game.deal_number
        slow.stalled = True
        conceding = asyncio.create_task(table.act(ALICE, Concede()))
        for _ in range(10):
            await asyncio.sleep(0)
        assert slow.pending, "the partner is deciding its answer"
        assert due(store) == {DueKind.AI: (before + 1, paused.ai_pause)}
        time.now += paused.ai_pause  # the AI's move is due now
        second = await nobody_else_claims(time, store, lease)
        slow.revive()
        await conceding
        assert store.logs[table.id][before:before + 2] == [f"act {number} {seat} concede",
                                                          f"act {number} {partner} concede"]
        assert sum(entry.endswith(" concede") for entry in store.logs[table.id]) == 2
        assert deal.is_over, "the defenders conceded"
        assert not second.tables, "the other process never took the table up"
        await first.close()
        await second.close()
        return
    pytest.fail("Alice never conceded while an AI's move was due")


async def test_a_late_ai_answer_for_a_turn_another_process_played_is_refused_quietly(
        ai_first_legal: None, caplog: pytest.LogCaptureFixture) -> None:
    """The process whose AI thought too long (its loop stalled, its lease ran out) finds the turn played by
    the process that claimed it: its answer is not stored, nothing is logged as an error, and it leaves the
    table's next AI turns to that process."""
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    thinking, first, table = await first_process_thinking(store)
    seq = table.seq
    asked = CountingExecutor()
    second = manager(store, asked, seed=2)
    time.now += LEASE
    taken = await second.load(table.id)
    await taken.fire(DueStep(table.id, seq, DueKind.AI, datetime.fromtimestamp(time.now, UTC)))
    await settle_all(taken)
    played = list(store.logs[table.id])
    assert len(played) > seq
    with caplog.at_level(logging.INFO):
        thinking.revive()
        await settle_all(table, taken)
    assert store.logs[table.id] == played
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert not thinking.pending, "the first process asked its AI nothing more"
    await first.close()
    await second.close()


async def test_a_clean_shutdown_hands_its_ai_turn_over_at_once(ai_first_legal: None) -> None:
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    thinking, first, table = await first_process_thinking(store)
    seq = table.seq
    await first.close()  # SIGTERM or Ctrl-C while its AI thinks
    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.AI, seq)]  # no lease later
    await scheduler.settle()
    assert isinstance(parse_entry(store.logs[table.id][seq]), Act)
    await second.close()


async def test_a_clean_shutdown_leaves_a_human_turn_to_time_out_on_time(ai_first_legal: None) -> None:
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    table = await open_table(first)
    await table.start(ALICE)
    await table.settle()
    seq = table.seq
    await first.close()
    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()
    time.now += 90 - 0.01
    assert await scheduler.run_once() == []
    time.now += 0.01
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.WARN, seq)]  # on time
    await scheduler.settle()
    await second.close()


async def test_missed_turns_are_counted_with_the_table_whichever_process_timed_them_out(
        ai_first_legal: None) -> None:
    """Alice lets three turns run out, two timed out by one process and the third by another: the third
    brings the stand-in, as the count is stored with the table (`timeout` entries), not kept by a process."""
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    second = manager(store, InlineExecutor(), seed=2)
    table = await open_table(first)
    await table.start(ALICE)
    await table.settle()
    for process in (first, first, second):
        here = await process.load(table.id)
        await here.refresh()
        deal = here.game.deal
        assert deal is not None and deal.current_seat is not None
        assert here.game.occupant_of_seat(deal.current_seat).user_id == ALICE, "Alice's turn again"
        assert not any(entry.startswith("stand-in") for entry in store.logs[table.id])
        await here.fire(DueStep(table.id, here.seq, DueKind.TIMEOUT, datetime.fromtimestamp(time.now, UTC)))
        await here.settle()
    assert "stand-in 0 normal" in store.logs[table.id]
    assert sum(entry.startswith("timeout ") for entry in store.logs[table.id]) == 3
    assert ev.StandInStarted(0, "absent") in events_shown(second)
    await first.close()
    await second.close()


async def the_kontra_window_opens(first: TableManager) -> tuple[Table, int, PlayCard]:
    """Alice, Bert and Carla bid (under Kontra rules) until forehand, a defender, is about to lead the first
    trick while the other defender may still say Kontra: the window opens in the first process, which stored
    the declaration. Returns the table, the leader and a card they may lead."""
    table = await first.create(guild_id=1, channel_id=5, creator_id=ALICE, creator_name="Alice", size=3, deals=1,
                               rules=RuleSet(kontra=True))
    await table.join(101, "Bert")
    await table.join(102, "Carla")
    await table.start(ALICE)
    rng = random.Random(4)
    for _ in range(60):
        deal = table.game.deal
        assert deal is not None and deal.current_seat is not None
        if deal.phase is Phase.PLAY:
            break
        actions = deal.legal_actions()
        keen = [a for a in actions if not isinstance(a, Pass)] if deal.phase is Phase.AUCTION else actions
        plain = [a for a in keen if not isinstance(a, Declare) or a.contract.game is not GameType.NULL]
        user = table.game.occupant_of_seat(deal.current_seat).user_id
        assert user is not None
        # forehand, who leads, defends: after one defender's Kontra the declarer may still say Re
        passes = deal.current_seat == 0 and Pass() in actions
        await table.act(user, Pass() if passes else rng.choice(plain or keen or actions))
    deal = table.game.deal
    assert deal is not None and deal.current_seat == 0 and deal.declarer not in (None, 0)
    assert table.kontra_window == table.game.deal_number, "the window opened where the declaration was stored"
    leader = table.game.occupant_of_seat(deal.current_seat).user_id
    assert leader is not None
    card = next(a for a in deal.legal_actions() if isinstance(a, PlayCard))
    for _ in range(5):  # the window's timer starts
        await asyncio.sleep(0)
    return table, leader, card


def the_other_defender(table: Table) -> int:
    """The user id of the defender who does not lead (forehand, seat 0, leads)."""
    deal = table.game.deal
    assert deal is not None and deal.declarer is not None
    user = table.game.occupant_of_seat(3 - deal.declarer).user_id
    assert user is not None
    return user


async def test_the_kontra_window_holds_for_a_card_another_process_serves(ai_first_legal: None) -> None:
    """The human leader's first card waits while the others may say Kontra: the window opened in the process
    that stored the declaration, and holds for the card served by another (the leader's DM click arrives at
    shard 0's process), also across a Kontra that process stores, until its end as first stored."""
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    second = manager(store, InlineExecutor(), seed=2)
    clock = ManualClock()
    second.sleep = clock.sleep
    table, leader, card = await the_kontra_window_opens(first)

    there = await second.load(table.id)
    with pytest.raises(NotAllowed, match="may say Kontra first"):
        await there.act(leader, card)
    time.now += 5
    await there.act(the_other_defender(table), Kontra())  # stored by the second process, whose window ends
    for _ in range(5):                                     # with the stored one
        await asyncio.sleep(0)
    assert sorted(seconds for seconds, _ in clock.sleepers) == [3.0, TIMING.warn_after]  # and the turn's timer
    time.now += 2.9
    with pytest.raises(NotAllowed, match="may say Kontra first"):
        await there.act(leader, card)
    time.now += 0.1  # the window's end, as stored with the declaration
    await clock.advance()
    await there.act(leader, card)
    assert there.game.deal is not None and there.game.deal.current_trick
    await first.close()
    await second.close()


async def wake(clock: ManualClock, seconds: float) -> None:
    """Wake the sleepers of `seconds` only (the Kontra window's timer, not the turn's)."""
    for _ in range(5):
        await asyncio.sleep(0)
    for _, future in [(wait, future) for wait, future in clock.sleepers if wait == seconds]:
        future.set_result(None)
    clock.sleepers = [(wait, future) for wait, future in clock.sleepers if not future.done()]
    for _ in range(5):
        await asyncio.sleep(0)


def windows_closed(process: TableManager) -> list[ev.Event]:
    return [event for event in events_shown(process) if isinstance(event, ev.KontraWindowClosed)]


@dataclass
class OpenWindow:
    """The Kontra window open in a first process (its sleeps on a manual clock), and the shared store."""

    time: Time
    store: MemoryStore
    first: TableManager
    clock: ManualClock
    table: Table
    leader: int
    card: PlayCard


async def a_window_opened_by_one_process() -> OpenWindow:
    time = Time()
    store = MemoryStore(clock=time, lease=LEASE)
    first = manager(store, InlineExecutor(), seed=1)
    clock = ManualClock()
    first.sleep = clock.sleep
    table, leader, card = await the_kontra_window_opens(first)
    return OpenWindow(time, store, first, clock, table, leader, card)


async def another_process(store: MemoryStore) -> tuple[TableManager, DueScheduler]:
    """A second process on the same store, whose scheduler the test drives by hand."""
    second = manager(store, InlineExecutor(), seed=2)
    scheduler = second.start_scheduler(store)
    await scheduler.stop()
    return second, scheduler


async def test_the_end_of_a_kontra_window_a_dead_process_opened_is_shown_by_another(ai_first_legal: None) -> None:
    """The process that stored the declaration dies in the Kontra window: another process claims the window's
    end a lease after it and shows the leader's hand ready (instead of 'wait' until the turn timer); a Kontra
    said after that, still before the first card, opens no new window."""
    window = await a_window_opened_by_one_process()
    time, store, first, table, leader, card = (window.time, window.store, window.first, window.table, window.leader,
                                               window.card)
    seq, number = table.seq, table.game.deal_number
    await table.close()  # the process dies: its window's timer is gone, the row stays

    second, scheduler = await another_process(store)
    time.now += TIMING.kontra_window + LEASE - 0.01
    assert await scheduler.run_once() == []  # the window's holder may still show its end
    time.now += 0.01
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.KONTRA, seq)]
    await scheduler.settle()
    there = second.get(table.id)
    await there.settle()
    assert windows_closed(second) == [ev.KontraWindowClosed(number)]  # the leader's hand is redrawn ...
    assert there.kontra_window is None  # ... ready to play: the presenter draws it from this
    assert store.logs[table.id][seq:] == []  # nothing stored
    assert await scheduler.run_once() == []  # shown once: the row is closed, not claimed again
    await there.fire(DueStep(table.id, seq, DueKind.KONTRA, datetime.fromtimestamp(time.now, UTC)))
    await there.settle()
    assert len(windows_closed(second)) == 1  # a second firing (a late claim) shows nothing more

    await there.act(the_other_defender(table), Kontra())  # said after the window's end
    assert await store.window_left(table_id=table.id) == 0.0
    await there.act(leader, card)  # at once: no new window
    assert there.game.deal is not None and there.game.deal.current_trick
    time.now += 600
    assert not [step for step in await scheduler.run_once() if step.kind is DueKind.KONTRA]
    await first.close()
    await second.close()


async def test_a_kontra_window_its_process_closed_is_not_shown_again_by_another(ai_first_legal: None) -> None:
    window = await a_window_opened_by_one_process()
    time, store, first, table, leader, card = (window.time, window.store, window.first, window.table, window.leader,
                                               window.card)
    seq, number = table.seq, table.game.deal_number
    time.now += TIMING.kontra_window
    await wake(window.clock, TIMING.kontra_window)  # the window's own timer (the turn's sleeps on)
    await table.settle()
    assert windows_closed(first) == [ev.KontraWindowClosed(number)]
    assert table.kontra_window is None

    second, scheduler = await another_process(store)
    time.now += LEASE
    assert await scheduler.run_once() == []
    await (await second.load(table.id)).fire(DueStep(table.id, seq, DueKind.KONTRA,
                                                    datetime.fromtimestamp(time.now, UTC)))
    assert windows_closed(second) == []
    await table.act(leader, card)
    assert table.game.deal is not None and table.game.deal.current_trick
    await first.close()
    await second.close()


async def test_a_kontra_window_step_the_table_moved_past_is_dropped(ai_first_legal: None) -> None:
    window = await a_window_opened_by_one_process()
    time, store, first, table = window.time, window.store, window.first, window.table
    seq = table.seq
    time.now += TIMING.kontra_window
    await wake(window.clock, TIMING.kontra_window)
    await table.act(window.leader, window.card)  # the first card: the window's row is gone
    store.due[(table.id, seq, DueKind.KONTRA)] = (time.now, time.now)  # a row left from before that card
    second, scheduler = await another_process(store)
    assert [(step.kind, step.seq) for step in await scheduler.run_once()] == [(DueKind.KONTRA, seq)]
    await scheduler.settle()
    assert (table.id, seq, DueKind.KONTRA) not in store.due
    assert windows_closed(second) == []
    await first.close()
    await second.close()


async def test_a_player_leaving_while_an_ai_thinks_leaves_the_table_playing_on(ai_first_legal: None) -> None:
    """Bert leaves while the AI decides its turn: the Leave moves the table's log on (not the deal), so the
    decision prepared for the moment before is not stored; this process wrote the Leave and holds the table,
    so its AI decides again and plays on, and the stand-in plays Bert's seat. (The driver used to stop there,
    and nothing restarted it: the table stood still, as tests/e2e/test_skatbot_leftovers.py once saw.)"""
    store = MemoryStore(clock=Time(), lease=LEASE)
    slow = Stalling()
    first = manager(store, slow, seed=1)
    table = await open_table(first, ais=1)
    await table.join(101, "Bert")
    await table.start(ALICE)
    for _ in range(50):  # the humans act until the AI's turn
        await asyncio.sleep(0)
        deal = table.game.deal
        assert deal is not None and deal.current_seat is not None
        occupant = table.game.occupant_of_seat(deal.current_seat)
        if not occupant.plays_itself:
            break
        slow.stalled = True  # the AI's coming decision waits
        await table.act(occupant.player_id, deal.legal_actions()[0])
    await asyncio.sleep(0)
    assert slow.pending, "the AI is deciding its turn"
    await table.leave(101)
    left = table.seq
    slow.revive()
    await settle_all(table)
    entries = [parse_entry(entry) for entry in store.logs[table.id][left:]]
    assert entries and all(isinstance(entry, Act) for entry in entries), store.logs[table.id][left - 1:]
    deal = table.game.deal
    assert deal is not None and deal.current_seat is not None
    assert table.game.occupant_of_seat(deal.current_seat).player_id == ALICE, "played on until Alice's turn"
    await first.close()
