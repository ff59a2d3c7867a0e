"""A challenge deal's par is computed once per deal and day across processes: two bots on one PostgreSQL
database (as two shard processes are) asked for the same par at once compute it once, the second waiting for
the first's, however long the first takes (it renews its claim); and when the process that claimed a par died
without storing it, another takes it over once its claim runs out. The par is the normal AI's here (the claims are under test, not the strong AI)."""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from skatbot.ai import Level
from skatbot.challenge import ChallengeDay, ParLine, par_line
from skatbot.storage import PostgresStorage
from skatbot.storage.sql.due import to_millis
from tests.cogs.helpers import CogBot, cog_bot


@pytest.fixture
async def two_processes(schema_url: str, tmp_path: Path) -> AsyncIterator[tuple[CogBot, CogBot]]:
    first = await cog_bot(tmp_path / "a", await PostgresStorage.open(schema_url))
    second = await cog_bot(tmp_path / "b", await PostgresStorage.open(schema_url))
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def counting(world: CogBot, computed: list[tuple[str, int]], name: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The bot's challenge cog, its par computing counted (each bot loaded the cog's module as its own)."""
    cog: Any = world.bot.get_cog("ChallengeCog")
    quick = functools.partial(par_line, level=Level.NORMAL, opponents=Level.NORMAL)

    def counted(day: ChallengeDay, number: int) -> ParLine:
        computed.append((name, number))
        return quick(day, number)

    monkeypatch.setitem(type(cog).par.__globals__, "par_line", counted)
    return cog


async def test_two_processes_asking_for_a_par_at_once_compute_it_once(
        two_processes: tuple[CogBot, CogBot], monkeypatch: pytest.MonkeyPatch) -> None:
    computed: list[tuple[str, int]] = []
    first, second = (counting(world, computed, name, monkeypatch) for world, name in zip(two_processes, "ab", strict=True))
    today = datetime.now(UTC).date()
    day_a, day_b = await first.day(today), await second.day(today)
    assert day_a == day_b  # one database, one secret: the same deals
    for number in range(3):
        lines = await asyncio.gather(first.par(day_a, number), second.par(day_b, number),
                                     first.par(day_a, number))
        assert lines[0] == lines[1] == lines[2] and lines[0].moves
    assert sorted(number for _, number in computed) == [0, 1, 2]


async def test_a_par_claimed_by_a_process_that_died_is_taken_over_when_its_claim_runs_out(
        two_processes: tuple[CogBot, CogBot], monkeypatch: pytest.MonkeyPatch) -> None:
    computed: list[tuple[str, int]] = []
    first, second = (counting(world, computed, name, monkeypatch) for world, name in zip(two_processes, "ab", strict=True))
    today = datetime.now(UTC).date()
    day = await second.day(today)
    # the first process claimed deal 1's par a lease ago less one second, then died before storing it
    dead = datetime.now(UTC) - timedelta(seconds=59)
    assert await first.bot.storage.challenge.claim_par(day=today, number=1, now=dead, lease=60)
    line = await asyncio.wait_for(second.par(day, 1), timeout=30)
    assert computed == [("b", 1)] and line == await first.bot.storage.challenge.par(day=today, number=1)


async def test_a_par_computed_longer_than_its_lease_is_computed_once(
        two_processes: tuple[CogBot, CogBot], monkeypatch: pytest.MonkeyPatch) -> None:
    """The first process computes a par for three leases (its AI worker held up until the test lets it go): it keeps
    its claim by renewing it, so the second, asking for the same par all the while, waits for it instead of
    computing it too. The clock both processes read is the test's: it moves a quarter of a lease at a time, each step
    once the holder has had its chance to renew, so the outcome does not depend on how fast this machine is."""
    computed: list[tuple[str, int]] = []
    first, second = (counting(world, computed, name, monkeypatch) for world, name in zip(two_processes, "ab", strict=True))
    clock = [datetime.now(UTC)]
    lease = 60.0
    for cog in (first, second):
        globals_ = type(cog).par.__globals__
        monkeypatch.setitem(globals_, "_now", lambda: clock[0])
        monkeypatch.setitem(globals_, "PAR_LEASE", lease)
        monkeypatch.setitem(globals_, "PAR_RENEW", 0.05)
        monkeypatch.setitem(globals_, "PAR_WAIT", 0.05)
    counted = type(first).par.__globals__["par_line"]
    release = threading.Event()

    def held_up(day: ChallengeDay, number: int) -> ParLine:
        line: ParLine = counted(day, number)
        if not release.wait(timeout=120):
            raise TimeoutError("the test never let the par go")
        return line

    monkeypatch.setitem(type(first).par.__globals__, "par_line", held_up)
    first.bot.ai_executor = ThreadPoolExecutor(1)  # a worker of its own: the held-up par must not block the loop
    storage = first.bot.storage.challenge
    today = clock[0].date()
    day = await first.day(today)
    claims: list[int] = []

    async def claimed_until() -> int:
        rows = await storage._db.fetch_all(
            "SELECT claimed_until FROM challenge_par_claims WHERE day = :day AND deal_number = 0",
            {"day": today.isoformat()})
        return int(rows[0]["claimed_until"]) if rows else 0

    async def until(condition: Any, what: str) -> None:
        for _ in range(2400):  # a bound against hanging, not a measure: each step is quick on any machine
            if await condition():
                return
            await asyncio.sleep(0.025)
        raise AssertionError(f"never: {what}")

    async def holding() -> bool:
        return bool(computed)

    computing = asyncio.create_task(first.par(day, 0))
    await until(holding, "the first process computes the par")
    original = second.bot.storage.challenge.claim_par

    async def counted_claim(**kwargs: Any) -> Any:
        claims.append(1)
        return await original(**kwargs)

    monkeypatch.setattr(second.bot.storage.challenge, "claim_par", counted_claim)
    waiting = asyncio.create_task(second.par(await second.day(today), 0))
    for _ in range(12):  # three leases in quarter-lease steps
        clock[0] += timedelta(seconds=lease / 4)
        target, asked = to_millis(clock[0]) + round(lease * 1000), len(claims)

        async def renewed(target: int = target, asked: int = asked) -> bool:
            # the holder renewed at this time of the clock; or had every chance to (the other process, whose looks
            # are as frequent as the holder's renewals, looked twenty times meanwhile) and did not
            return await claimed_until() >= target or len(claims) >= asked + 20 or waiting.done()

        await until(renewed, "the holder renews its claim, or the other process looks twenty times")
        asked = len(claims)

        async def asked_again(asked: int = asked) -> bool:
            return len(claims) > asked or waiting.done()  # the second process asked (it may have claimed) at this time

        await until(asked_again, "the second process asks for the claim again")
    release.set()
    lines = await asyncio.gather(computing, waiting)
    first.bot.ai_executor.shutdown()
    assert computed == [("a", 0)]
    assert lines[0] == lines[1] == await storage.par(day=today, number=0)
