"""A challenge deal's par is computed once per deal and day across processes: two bots on one PostgreSQL
database (as two shard processes are) asked for the same par at once compute it once, the second waiting for
the first's; and when the process that claimed a par died without storing it, another takes it over once its
claim runs out. The par is the normal AI's here (the claims are under test, not the strong AI)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from skatbot.ai import Level
from skatbot.challenge import ChallengeDay, ParLine, par_line
from skatbot.storage import PostgresStorage
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
