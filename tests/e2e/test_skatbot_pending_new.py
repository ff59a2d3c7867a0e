"""/skat new is answered only once its table is stored, whole: its row, its creator and its first log entry go in
one write, so a crash leaves the whole table or none of it.

A second connection holds SQLite's write lock while alice opens a table, so it is shown pending ("thinking…"),
then answered and its lobby shown once the lock is free. Killed while it is pending, nothing is stored, the
player is told after the restart to open it again, and the channel is free for it; killed once it is stored but
before she heard it, she hears after the restart that it is open, and it is there.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import BotProcess, Channel, FakeDiscord, Interaction, User
from tests.e2e.skat_helpers import open_table, start_skatbot
from tests.e2e.test_skatbot_pending import WEBHOOK, log_rows, pending_markers, write_lock

NEW_NOT_RECORDED = ("Your new table was not opened: the bot restarted before it could store it. "
                    "Please use /skat new again.")


def stored_tables(database: Path) -> list[tuple[int, int]]:
    """Each stored table's id and how many log entries it has."""
    with sqlite3.connect(database) as db:
        return [(int(row[0]), int(row[1])) for row in db.execute(
            "SELECT tables.table_id, COUNT(table_log.seq) FROM tables "
            "LEFT JOIN table_log ON table_log.table_id = tables.table_id GROUP BY tables.table_id")]


def lobbies(fake: FakeDiscord, channel: Channel) -> list[str]:
    return [m.content for m in fake.messages(channel) if "Skat table" in m.content]


async def new_pending(fake: FakeDiscord, alice: User, channel: Channel, database: Path) -> Interaction:
    """Alice runs /skat new while the write lock is held (the caller releases it): shown pending, with its
    marker, and nothing stored yet."""
    command = await fake.slash(alice, channel, "skat", subcommand="new", options={"deals": 1})
    assert await command.wait_acked() == 5, "shown as pending, not answered as done"
    await fake.wait_for(lambda: pending_markers(database), 30, "the pending command's marker")
    assert stored_tables(database) == [] and not lobbies(fake, channel)
    return command


async def restarted(proc: BotProcess) -> None:
    await proc.restart()
    await proc.wait_connected(commands=("skat",))


async def test_a_slow_new_table_is_shown_pending_then_answered_and_its_lobby_shown_once_stored(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    holder = write_lock(database)
    try:
        command = await new_pending(fake, alice, channel, database)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    reply = await command.wait_message(30)
    assert reply.visibility == "ephemeral" and reply.content == "Table #1 is open.", reply.content
    await fake.wait_for(lambda: lobbies(fake, channel), 30, "the lobby")
    assert "1. alice" in lobbies(fake, channel)[0]
    assert stored_tables(database) == [(1, 1)], "the table with its first entry (alice's seat)"
    await fake.wait_for(lambda: not pending_markers(database), 30, "the marker gone once she was told")


async def test_killed_while_a_new_table_is_pending_nothing_is_left_and_she_can_open_it_again(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    holder = write_lock(database)
    try:
        command = await new_pending(fake, alice, channel, database)
        await proc.kill()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert command.original is not None and command.original.content == "", "still thinking when the bot died"
    assert stored_tables(database) == [] and log_rows(database) == 0, "no table, not half of one"
    await restarted(proc)
    reply = await command.wait_message(30)
    assert reply.visibility == "ephemeral" and reply.content == NEW_NOT_RECORDED, reply.content
    await fake.wait_for(lambda: not pending_markers(database), 30, "the marker gone once she was told")
    text, _ = await open_table(fake, alice, channel, deals=1)  # the channel is free
    assert text == "Table #1 is open.", text
    await fake.wait_for(lambda: lobbies(fake, channel), 30, "the lobby")
    assert stored_tables(database) == [(1, 1)]


async def test_killed_once_a_pending_new_table_was_stored_she_hears_it_is_open_and_it_is_whole(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, bob, channel = club.fake, club.alice, club.bob, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    holder = write_lock(database)
    try:
        command = await new_pending(fake, alice, channel, database)
        fault = fake.inject_error("POST", WEBHOOK, status=500, times=10**6)  # "open" cannot reach her
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    await fake.wait_for(lambda: stored_tables(database), 30, "the table stored once the lock is free")
    await proc.kill()
    fault.times = 0
    assert command.original is not None and command.original.content == ""
    assert stored_tables(database) == [(1, 1)], "the table with its first entry, or nothing"
    await restarted(proc)
    reply = await command.wait_message(30)
    assert reply.visibility == "ephemeral" and reply.content == "Table #1 is open.", reply.content
    await fake.wait_for(lambda: not pending_markers(database), 30, "the marker gone")
    joined = await (await fake.slash(bob, channel, "skat", subcommand="join")).wait_message(30)
    assert joined.content == "You sit at table #1.", joined.content
    await fake.wait_for(lambda: any("1. alice" in text and "bob" in text for text in lobbies(fake, channel)), 30,
                        "the lobby with alice and bob")
