"""The bot on PostgreSQL says "the database is busy" as it does on SQLite: another session holds a lock on the
table log (as a maintenance job might) while alice clicks, her move is shown pending, and once the statement
runs past the bot's wait (5 s) she is told clearly that it was not recorded; nothing changed, and the same
button works once the lock is gone."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import asyncpg
import pytest

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.skat_helpers import start_skatbot
from tests.e2e.skat_players import game_controls, latest_hand
from tests.e2e.test_skatbot_outbox import table_against_ais

T = TypeVar("T")
BUSY = "The table's database is busy, so your move was not recorded. Please try again in a moment."


@pytest.fixture
def database_url(schema_url: str) -> str:
    return schema_url


async def log_rows(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval("SELECT COUNT(*) FROM table_log"))
    finally:
        await connection.close()


async def until(check: Callable[[], Awaitable[T | None]], timeout: float, what: str) -> T:
    """Poll `check` (it reads the database) until it returns something; return that."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await check()
        if found is not None:
            return found
        if loop.time() > deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.1)


async def hand_drawn_now(fake: FakeDiscord, alice: User, url: str) -> Message:
    """Alice's hand once its buttons are drawn for the table's moment now (her turn)."""
    async def drawn_now() -> Message | None:
        rows = await log_rows(url)
        hand = latest_hand(fake, alice)
        if hand is None or not any(c["type"] == 2 and f":s{rows}:" in str(c["custom_id"])
                                   for c in game_controls(hand)):
            return None
        return hand if await log_rows(url) == rows else None
    return await until(drawn_now, 30, "alice's turn")


async def test_a_lock_held_past_the_wait_on_postgresql_is_said_clearly_and_changes_nothing(
        club: Club, start_bot: StartBot, database_url: str, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    await start_skatbot(fake, start_bot, str(tmp_path / "unused.sqlite3"), SKATBOT_DATABASE_URL=database_url)
    await table_against_ais(fake, alice, channel, deals=1)
    hand = await hand_drawn_now(fake, alice, database_url)
    button = str(next(c for c in game_controls(hand) if c["type"] == 2)["custom_id"])
    rows = await log_rows(database_url)
    holder = await asyncpg.connect(database_url)
    try:
        transaction = holder.transaction()
        await transaction.start()
        await holder.execute("LOCK TABLE table_log IN EXCLUSIVE MODE")  # reads go on, writes wait
        try:
            click = await fake.click(alice, hand, button)
            assert await click.wait_acked() == 5, "shown as pending"
            reply = await click.wait_message(30)  # the bot's statement runs into its 5 s wait, then says so
            assert reply.visibility == "ephemeral" and reply.content == BUSY, reply.content
            assert await log_rows(database_url) == rows, "nothing stored"
        finally:
            await transaction.rollback()
    finally:
        await holder.close()
    await fake.wait_for(lambda: hand.component(button), 30, "her hand as it was")
    again = await fake.click(alice, hand, button)
    assert await again.wait_acked() in (5, 6)
    async def stored() -> bool | None:
        return True if await log_rows(database_url) > rows else None
    await until(stored, 10, "the move stored on the second try")
