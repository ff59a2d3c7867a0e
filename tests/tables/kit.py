"""Helpers for table tests: a table on the in-memory store, a recording presenter, a manual clock."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import ParamSpec, TypeVar

from skatbot.engine import OFFICIAL, RuleSet
from skatbot.tables import Table, TableGame, TableState, TableTiming
from skatbot.tables.events import Event
from skatbot.tables.manager import TableManager
from skatbot.tables.memory import RecordingPresenter
from tests.tables.memory_store import MemoryStore


class ManualClock:
    """A sleep the test releases by hand, so turn timers run without waiting."""

    def __init__(self) -> None:
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sleepers.append((seconds, future))
        await future

    async def advance(self) -> int:
        """Wake every sleeper waiting now; returns how many were woken."""
        await asyncio.sleep(0)
        woken = 0
        sleepers, self.sleepers = self.sleepers, []
        for _, future in sleepers:
            if not future.done():
                future.set_result(None)
                woken += 1
        for _ in range(5):
            await asyncio.sleep(0)
        return woken

P = ParamSpec("P")
R = TypeVar("R")


class InlineExecutor(Executor):
    """Runs AI decisions at once on the calling thread, so table tests are deterministic."""

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # handed to the awaiting coroutine, like a real executor
            future.set_exception(error)
        return future


def person_at(game: TableGame, seat: int) -> int:
    """The user id of the person in `seat`: a test that seated people there knows it is no AI."""
    user_id = game.occupant_of_seat(seat).user_id
    assert user_id is not None, f"seat {seat} is played by an AI"
    return user_id


def events_shown(manager: TableManager) -> list[Event]:
    """Every event a manager built with a RecordingPresenter has shown."""
    presenter = manager.presenter
    assert isinstance(presenter, RecordingPresenter), "the manager was built with another presenter"
    return presenter.events


def seed_with_first_dealer(place: int, size: int = 3) -> int:
    """A kit seed whose table draws `place` as the first dealer (the start takes the first seed drawn)."""
    return next(seed for seed in range(100) if random.Random(seed).randrange(1 << 40) % size == place)


class TableKit:
    def __init__(self, size: int = 3, deals: int = 3, rules: RuleSet = OFFICIAL, seed: int = 7) -> None:
        self.store = MemoryStore()
        self.presenter = RecordingPresenter()
        self.clock = ManualClock()
        seeds = random.Random(seed)
        self.table = Table(table_id=1, guild_id=10, channel_id=20,
                           game=TableGame(size=size, deals=deals, rules=rules, creator_id=100),
                           store=self.store, presenter=self.presenter, timing=TableTiming(), executor=InlineExecutor(),
                           sleep=self.clock.sleep, new_seed=lambda: seeds.randrange(1 << 40))
        self.counter = itertools.count()

    async def let_timers_run(self, rounds: int = 20) -> None:
        """Let every turn timer run out, round after round, until the table stops playing."""
        for _ in range(rounds):
            if self.table.game.state is not TableState.PLAYING:
                return
            await self.clock.advance()
            await self.table.settle()

    async def play_human_turns(self, user_ids: set[int], rng: random.Random, limit: int = 2000) -> None:
        """Let the humans act (seeded random legal actions) until the series ends."""
        table = self.table
        for _ in range(limit):
            await table.settle()
            game = table.game
            if game.state is not TableState.PLAYING:
                return
            deal = game.deal
            assert deal is not None
            seat = deal.current_seat
            if seat is None:
                continue
            occupant = game.occupant_of_seat(seat)
            if occupant.user_id in user_ids and occupant.plays_itself:
                actions = deal.legal_actions()
                await table.act(occupant.user_id, actions[rng.randrange(len(actions))])
        raise AssertionError("the series did not finish")
