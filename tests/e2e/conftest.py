"""Fixtures for end-to-end tests: a started FakeDiscord with a small club, and bot processes on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator
from dataclasses import dataclass
from typing import Protocol

import aiohttp
import pytest

from tests.e2e.fakediscord import BotProcess, Channel, FakeDiscord, Guild, User
from tests.e2e.rawbot import RawBot

SAMPLE_BOT = "tests/e2e/sample_bot.py"


@dataclass
class Club:
    """A guild with a #skat channel, alice (DMs open) and bob (DMs closed)."""

    fake: FakeDiscord
    guild: Guild
    channel: Channel
    alice: User
    bob: User


def build_club(fake: FakeDiscord) -> Club:
    guild = fake.add_guild("Skat Club")
    channel = fake.add_channel(guild, "skat")
    return Club(fake, guild, channel, fake.add_user("alice"), fake.add_user("bob", dms_open=False))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord; the test fails if anything called a route the fake does not know."""
    async with FakeDiscord() as server:
        yield server
        unknown = [f"{c.method} {c.path}" for c in server.unknown_routes]
        assert not unknown, f"routes the fake does not know were called: {unknown}"


@pytest.fixture
async def two_shards() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord of two shards (a guild's shard is chosen with add_guild(..., shard=N)), checked
    like `fake`."""
    async with FakeDiscord(shard_count=2) as server:
        yield server
        assert not server.unknown_routes


@pytest.fixture
def club(fake: FakeDiscord) -> Club:
    return build_club(fake)


@pytest.fixture
async def raw(club: Club) -> AsyncIterator[RawBot]:
    """A hand-written client connected to the club's fake, with /skat (bid, play, admin kick) synced."""
    async with aiohttp.ClientSession() as http:
        bot = RawBot(club.fake, http)
        await bot.connect()
        await bot.sync()
        yield bot


class StartBot(Protocol):
    """The `start_bot` fixture: launch a bot process on `server`, wait until it is connected and synced."""

    #: Every process to stop after the test; a helper that starts its own process appends it here.
    procs: list[BotProcess]

    async def __call__(self, server: FakeDiscord, script: str = SAMPLE_BOT, commands: tuple[str, ...] = ("skat",),
                       env: dict[str, str] | None = None, strict_output: bool = True) -> BotProcess: ...


class _BotStarter:
    """What `start_bot` hands a test (see StartBot); remembers the processes it must stop."""

    def __init__(self) -> None:
        self.procs: list[BotProcess] = []
        self.strict: list[BotProcess] = []

    async def __call__(self, server: FakeDiscord, script: str = SAMPLE_BOT, commands: tuple[str, ...] = ("skat",),
                       env: dict[str, str] | None = None, strict_output: bool = True) -> BotProcess:
        proc = BotProcess(server, script, env=env)
        self.procs.append(proc)
        if strict_output:
            self.strict.append(proc)
        await proc.start()
        await proc.wait_connected(commands=commands)
        return proc


@pytest.fixture
async def start_bot(request: pytest.FixtureRequest) -> AsyncIterator[StartBot]:
    """start_bot(fake, script=SAMPLE_BOT, env=None, strict=True): launch a bot process, wait until it is
    connected and synced.

    Every process (also those appended to `start_bot.procs`) is stopped afterwards; its output is
    printed when the test failed. A `strict` process must not have logged a traceback: discord.py logs
    and survives exceptions in event parsing and callbacks, which would otherwise go unnoticed.
    """
    start = _BotStarter()
    yield start
    procs, strict = start.procs, start.strict
    tracebacks: list[str] = []
    for proc in procs:
        await proc.stop()
        output = proc.output()
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            print(f"--- output of {proc.script}\n{output}")
        if proc in strict and "Traceback (most recent call last)" in output:
            tracebacks.append(f"--- {proc.script} logged a traceback:\n{output}")
        proc.close()
    assert not tracebacks, "\n".join(tracebacks)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Expose each phase's report on the item so fixtures can tell whether the test failed."""
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)
    return rep
