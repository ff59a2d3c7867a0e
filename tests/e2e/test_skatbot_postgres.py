"""The real bot process on PostgreSQL (SKATBOT_DATABASE_URL): a series against two AIs, the bot killed
(SIGKILL) mid-deal and restarted on the same database, the table restored from its log there, every deal
stored once, and the storage check passing on PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import sys

import pytest

from skatbot.storage import PostgresStorage
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais
from tests.storage.storage_helpers import final_ranking


@pytest.fixture
def database_url(schema_url: str) -> str:
    return schema_url


async def test_a_series_on_postgresql_survives_a_kill_and_is_counted_once(club: Club, start_bot: StartBot,
                                                                        database_url: str) -> None:
    fake, alice = club.fake, club.alice
    proc = await start_skatbot(fake, start_bot, "unused.sqlite3", SKATBOT_DATABASE_URL=database_url)
    _, channel = await open_against_ais(fake, alice, club, deals=2)
    rng = random.Random(6)
    moves = 0

    def some_moves() -> bool:
        return moves >= 4

    async def move(user: User, message: Message) -> None:
        nonlocal moves
        moves += 1
        await button_move(fake, user, message, rng, avoid=("pass",))

    await play_out(fake, [alice], some_moves, move)
    await proc.kill()
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: any("I was restarted" in t for t in public_texts(fake, channel)), 30,
                        "the restart notice")
    await play_out(fake, [alice], lambda: any("The series is over" in t for t in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    storage = await PostgresStorage.open(database_url)
    try:
        [table_id] = [row[0] for row in await storage.database.fetch_all("SELECT table_id FROM tables")]
        records = await storage.deals.for_table(table_id=table_id)
        assert [r.deal_number for r in records] == [1, 2]
        assert [s.player_id for s in (await final_ranking(storage, table_id))] and \
            await storage.load_unfinished_tables() == []
    finally:
        await storage.close()
    check = await asyncio.create_subprocess_exec(sys.executable, "-m", "skatbot.storage", "--database", database_url,
                                                 "check", stdout=asyncio.subprocess.PIPE,
                                                 stderr=asyncio.subprocess.STDOUT)
    output, _ = await check.communicate()
    assert check.returncode == 0 and "checked 2 deals in 1 table: ok" in output.decode(), output.decode()
    fake.assert_clean(allow_rejections=False)
