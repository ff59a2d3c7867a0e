"""Two bot processes share one PostgreSQL database, one shard each: the table's server is on shard 1, the
player's hand clicks arrive on shard 0.
- Shard 0's process is SIGKILLed right after storing her move, with the AI's answer due (it waits out the
  AI pause first): shard 1's process claims the AI turn once the dead process's lease runs out and plays it,
  while shard 0 is still down. Shard 0's process then restarts, the deal is played out by DM clicks, and it
  is counted once.
- Shard 1's process, which holds the player's turn timer, is SIGKILLed: shard 0's process warns her and then
  lets the computer play for her.
- Shard 0's process, which stored a declaration and opened the Kontra window, is SIGKILLed in the window:
  shard 1's process shows the leader's hand ready to play once the window's end is due."""

from __future__ import annotations

import asyncio
import contextlib
import random
from datetime import UTC, datetime

import asyncpg

from skatbot.engine import RuleSet
from skatbot.models import ServerSettings
from skatbot.storage import PostgresStorage
from skatbot.tables.log import Act, parse_entry
from skatbot.tables.replay import replay_log
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_players import button_move, game_controls, kind_of, latest_hand, play_out, whose_turn
from tests.e2e.test_skatbot_play import open_against_ais


async def _due_kinds(url: str) -> set[str]:
    connection = await asyncpg.connect(url)
    try:
        return {row[0] for row in await connection.fetch("SELECT kind FROM table_due")}
    finally:
        await connection.close()


async def _log(url: str) -> list[str]:
    connection = await asyncpg.connect(url)
    try:
        return [row[0] for row in await connection.fetch("SELECT entry FROM table_log ORDER BY table_id, seq")]
    finally:
        await connection.close()


async def _ai_due_at(url: str) -> int | None:
    connection = await asyncpg.connect(url)
    try:
        seq = await connection.fetchval("SELECT seq FROM table_due WHERE kind = 'ai'")
        assert seq is None or isinstance(seq, int)
        return seq
    finally:
        await connection.close()


async def _longer(url: str, before: list[str]) -> bool:
    return len(await _log(url)) > len(before)


async def test_the_other_process_plays_the_ai_turn_a_killed_process_left(
        two_shards: FakeDiscord, start_bot: StartBot, schema_url: str) -> None:
    fake = two_shards
    guild = fake.add_guild("Shard One Club", shard=1)
    club = Club(fake, guild, fake.add_channel(guild, "skat"), fake.add_user("alice"),
                fake.add_user("bob", dms_open=False))
    shared = {"SKATBOT_DATABASE_URL": schema_url, "SKATBOT_SHARD_COUNT": "2", "SKATBOT_AI_PAUSE": "1.5"}
    zero = await start_skatbot(fake, start_bot, "unused.sqlite3", SKATBOT_SHARD_IDS="0", **shared)
    one = await start_skatbot(fake, start_bot, "unused.sqlite3", SKATBOT_SHARD_IDS="1", **shared)
    _, channel = await open_against_ais(fake, club.alice, club, deals=3)
    rng = random.Random(11)

    # Alice clicks in her DMs (shard 0) until her move leaves an AI turn due. The due rows are read as soon as
    # her move is stored, not once her hand is redrawn: on a loaded machine the redraw can take longer than
    # the AI's pause, and the AI turn would be gone. A series of three deals, so that a deal that ends early
    # (a null game lost at a trick) leaves more moves to try.
    for _ in range(120):
        found = await fake.wait_for(lambda: whose_turn(fake, [club.alice]), 30, "Alice's turn")
        _, message = found
        stored = len(await _log(schema_url))
        press = asyncio.create_task(button_move(fake, club.alice, message, rng, avoid=("pass",)))
        for _ in range(200):
            if len(await _log(schema_url)) > stored or press.done():
                break
            await asyncio.sleep(0.05)
        if "ai" not in await _due_kinds(schema_url):
            await press
            continue
        await zero.kill()  # while it waits out the AI pause, the AI turn due and held by it
        press.cancel()  # her hand may never be redrawn by the killed process
        with contextlib.suppress(asyncio.CancelledError, AssertionError):
            await press
        before = await _log(schema_url)
        if await _ai_due_at(schema_url) == len(before):
            break
        await zero.start()  # it played the AI's move before the kill: try again at a later move
        await zero.wait_connected(commands=("skat",))
    else:
        raise AssertionError("no AI turn came after Alice's move")

    await one.wait_for_output("firing ai", timeout=60)  # the lease (3 s) and a poll; a condition, not a timing
    for _ in range(300):
        if await _longer(schema_url, before):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the AI's move was not stored")
    assert zero.proc is not None and zero.proc.returncode is not None, "shard 0's process is still down"
    storage = await PostgresStorage.open(schema_url)
    try:
        [table] = [await storage.tables.get(table_id=int(row[0]))
                   for row in await storage.database.fetch_all("SELECT table_id FROM tables")]
        game = replay_log(size=table.size, deals=table.series_length, rules=RuleSet.from_dict(table.rules),
                          creator_id=table.creator_id, entries=await _log(schema_url)).game
        taken = parse_entry((await _log(schema_url))[len(before)])
        assert isinstance(taken, Act) and taken.seat is not None
        assert not game.occupant_of_seat(taken.seat).plays_itself  # the AI's move, by shard 1's process

        # Shard 0 rejoins; Alice plays the deal out from her DMs. The AI's pause served the kill window and
        # is done with: both processes come back without it (shard 1's by a second kill), so the deal plays fast.
        await one.kill()
        for proc in (zero, one):
            proc.env["SKATBOT_AI_PAUSE"] = "0"
            await proc.start()
            await proc.wait_connected(commands=("skat",))
        dealt = taken.number + 1  # the log counts deals from 0, the channel from 1
        await play_out(fake, [club.alice],
                       lambda: any(f"Result of deal {dealt}" in text for text in public_texts(fake, channel)),
                       lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
        records = await storage.deals.for_table(table_id=table.table_id)
        assert [record.deal_number for record in records] == list(range(1, dealt + 1))  # each counted once
    finally:
        await storage.close()


async def test_the_other_process_fires_the_turn_timer_a_killed_process_held(
        two_shards: FakeDiscord, start_bot: StartBot, schema_url: str) -> None:
    fake = two_shards
    guild = fake.add_guild("Shard One Club", shard=1)
    club = Club(fake, guild, fake.add_channel(guild, "skat"), fake.add_user("alice"),
                fake.add_user("bob", dms_open=False))
    shared = {"SKATBOT_DATABASE_URL": schema_url, "SKATBOT_SHARD_COUNT": "2"}
    await start_skatbot(fake, start_bot, "unused.sqlite3", SKATBOT_SHARD_IDS="0", **shared)
    one = await start_skatbot(fake, start_bot, "unused.sqlite3", SKATBOT_SHARD_IDS="1", **shared)
    storage = await PostgresStorage.open(schema_url)
    try:
        await storage.settings.save(settings=ServerSettings(guild.id, turn_seconds=10, warning_seconds=5),
                                    now=datetime.now(UTC))
        _, channel = await open_against_ais(fake, club.alice, club, deals=1)  # all served by shard 1
        await fake.wait_for(lambda: whose_turn(fake, [club.alice]), 30, "Alice's turn")
        assert "timeout" in await _due_kinds(schema_url)
        await one.kill()  # holding Alice's turn timer

        def said(text: str) -> bool:
            return any(text in t for t in public_texts(fake, channel))

        await fake.wait_for(lambda: said(f"⏰ <@{club.alice.id}>, 5 seconds left"), 60, "the warning")
        await fake.wait_for(lambda: said("Time is up: the computer played for alice"), 60, "the time-out")
        assert one.proc is not None and one.proc.returncode is not None, "shard 1's process is still down"
    finally:
        await storage.close()


LEAD_WAITS = "You lead the first trick in a moment"


async def _window(url: str) -> tuple[datetime, int]:
    """The end of the table's stored Kontra window, and until when its row is held (forever once its end was
    shown)."""
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow("SELECT due_at, claimed_until FROM table_due WHERE kind = 'kontra'")
        assert row is not None, "the table has no Kontra window"
        return datetime.fromtimestamp(int(row[0]) / 1000, UTC), int(row[1])
    finally:
        await connection.close()


async def test_the_other_process_ends_the_kontra_window_a_killed_process_opened(
        two_shards: FakeDiscord, start_bot: StartBot, schema_url: str) -> None:
    """Three people under the pub rules (Kontra and Re). The declaration is clicked in a DM, so shard 0's process
    stores it and opens the window in which the leader's first card waits; it is SIGKILLed in the window. Shard
    1's process claims the window's end a lease after it and redraws the leader's hand ready to play, while
    shard 0's process is still down (before, the hand said 'wait' until the turn timer ran out)."""
    fake = two_shards
    guild = fake.add_guild("Shard One Club", shard=1)
    players = [fake.add_user("alice"), fake.add_user("carol"), fake.add_user("dave")]
    # A 20 s window (the default is 8): the test sees the window opened by polling the database, may wait up to
    # 4 s for the leader's hand, then kills shard 0; on a loaded machine that must still fall in the window.
    shared = {"SKATBOT_DATABASE_URL": schema_url, "SKATBOT_SHARD_COUNT": "2", "SKATBOT_KONTRA_WINDOW": "20"}
    zero = await start_skatbot(fake, start_bot, "unused.sqlite3", SKATBOT_SHARD_IDS="0", **shared)
    one = await start_skatbot(fake, start_bot, "unused.sqlite3", SKATBOT_SHARD_IDS="1", **shared)
    storage = await PostgresStorage.open(schema_url)
    try:  # a long turn: its timer (which redraws the hands too) is not what shows the leader's hand ready here
        await storage.settings.save(settings=ServerSettings(guild.id, turn_seconds=600, warning_seconds=60),
                                    now=datetime.now(UTC))
    finally:
        await storage.close()
    _, channel = await open_table(fake, players[0], fake.add_channel(guild, "skat"), deals=1, rules="pub")
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for user in players[1:]:
        await (await fake.click(user, lobby, control_id(lobby, "join"))).wait_acked()
    await fake.wait_for(lambda: "dave" in lobby.content, 30, "three players seated")
    await (await fake.click(players[0], lobby, control_id(lobby, "start"))).wait_acked()
    rng = random.Random(5)

    # The bidding and the declaration, clicked in the players' DMs (shard 0), never passing: until the
    # declaration is stored with its Kontra window.
    for _ in range(60):
        found = await fake.wait_for(lambda: whose_turn(fake, players), 30, "a player's turn")
        user, message = found
        press = asyncio.create_task(button_move(fake, user, message, rng, avoid=("pass",)))
        for _ in range(200):
            if "kontra" in await _due_kinds(schema_url) or press.done():
                break
            await asyncio.sleep(0.05)
        if "kontra" in await _due_kinds(schema_url):
            break
        await press
    else:
        raise AssertionError("no Kontra window opened")
    with contextlib.suppress(TimeoutError):  # the leader's hand says 'wait' (drawn by shard 0), if in time
        await fake.wait_for(lambda: any(LEAD_WAITS in (latest_hand(fake, u) or message).content for u in players),
                            4, "the leader's hand waiting")
    await zero.kill()  # in the window: its timer would have shown the window's end
    press.cancel()
    with contextlib.suppress(asyncio.CancelledError, AssertionError):
        await press
    end, _ = await _window(schema_url)
    assert datetime.now(UTC) < end, "shard 0's process was killed in the window"

    def ready() -> Message | None:  # a hand whose cards may be played (the declarer's may still show its menu)
        hands = [latest_hand(fake, user) for user in players]
        return next((hand for hand in hands if hand is not None and game_controls(hand)
                     and {kind_of(control) for control in game_controls(hand)} == {"card"}), None)

    # the window's end (20 s), the lease (3 s) and a poll; the turn's warning would be due after 540 s
    hand = await fake.wait_for(ready, 60, "the leader's hand ready to play")
    await one.wait_for_output("firing kontra")
    assert LEAD_WAITS not in hand.content
    assert zero.proc is not None and zero.proc.returncode is not None, "shard 0's process is still down"
    _, held = await _window(schema_url)
    assert held >= 1 << 62, "the window's end was shown, and is not claimed again"
