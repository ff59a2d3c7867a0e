"""A lobby click (join, start) shown as pending ends in a clear answer, across a crash too, as a move does.

A second connection holds SQLite's write lock while a player clicks in the lobby, so the click is shown
pending ("thinking…"), never silently acknowledged. Killed while it is pending, the bot tells the player
after the restart whether the click is in the table's log ("recorded") or not ("make it again").
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.skat_helpers import control_id, open_table, start_skatbot
from tests.e2e.test_skatbot_outbox import remembered
from tests.e2e.test_skatbot_pending import (
    NOT_RECORDED,
    WEBHOOK,
    log_rows,
    pending_markers,
    pending_then_killed,
    stored_unheard_then_killed,
    write_lock,
)


async def lobby_of(fake: FakeDiscord, alice: User, club: Club, database: Path) -> Message:
    """The table's lobby, once the bot has stored its id (so the lock the tests take next holds up the click,
    and a restart edits this message)."""
    _, channel = await open_table(fake, alice, club.channel, deals=1)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    await fake.wait_for(lambda: remembered(database, "lobby", 0), 30, "the lobby remembered")
    return lobby


async def test_killed_while_a_join_is_pending_and_not_stored_the_player_is_told_to_join_again(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    carol = fake.add_user("carol")
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    lobby = await lobby_of(fake, alice, club, database)
    rows = log_rows(database)
    click = await pending_then_killed(fake, carol, lobby, control_id(lobby, "join"), database, proc)
    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    reply = await click.wait_message(30)
    assert reply.visibility == "ephemeral" and reply.content == NOT_RECORDED, reply.content
    assert log_rows(database) == rows and "carol" not in lobby.content
    await fake.wait_for(lambda: not pending_markers(database), 30, "the marker gone once she was told")
    again = await fake.click(carol, lobby, control_id(lobby, "join"))
    assert await again.wait_acked() in (5, 6)
    await fake.wait_for(lambda: "carol" in lobby.content, 30, "carol seated on the second try")


async def test_killed_after_a_pending_start_was_stored_the_player_hears_it_was_recorded(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    lobby = await lobby_of(fake, alice, club, database)
    for _ in range(2):
        await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    click = await stored_unheard_then_killed(fake, alice, lobby, control_id(lobby, "start"), database, proc)
    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    reply = await click.wait_message(30)
    assert reply.visibility == "ephemeral" and reply.content == "Your move is recorded.", reply.content
    await fake.wait_for(lambda: not pending_markers(database), 30, "the marker gone")


async def test_a_slow_join_command_is_shown_pending_then_answered_once_stored(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    carol = fake.add_user("carol")
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    lobby = await lobby_of(fake, alice, club, database)
    rows = log_rows(database)
    holder = write_lock(database)
    try:
        command = await fake.slash(carol, fake.channel(lobby.channel_id), "skat", subcommand="join")
        assert await command.wait_acked() == 5, "shown as pending, not answered as done"
        await fake.wait_for(lambda: pending_markers(database), 30, "the pending command's marker")
        assert log_rows(database) == rows
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    reply = await command.wait_message(30)
    assert reply.visibility == "ephemeral" and reply.content == "You sit at table #1.", reply.content
    await fake.wait_for(lambda: "carol" in lobby.content, 30, "carol seated")
    await fake.wait_for(lambda: not pending_markers(database), 30, "the marker gone once she was told")


def log_since(database: Path, seq: int) -> list[str]:
    with sqlite3.connect(database) as db:
        return [str(row[0]) for row in db.execute("SELECT entry FROM table_log WHERE seq >= ? ORDER BY seq", (seq,))]


async def test_pending_add_ai_clicks_of_two_players_are_told_apart_after_a_crash(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """Alice and bob ask for computer players at once, alice twice, where two seats are free: two are seated,
    one click is refused, and the bot dies before anyone heard. After the restart each click is told what
    became of it: bob's "recorded" only if his own request is in the log, and only one of alice's two."""
    fake, alice, bob = club.fake, club.alice, club.bob
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, alice, club.channel, deals=1, seats=4)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    await (await fake.click(bob, lobby, control_id(lobby, "join"))).wait_acked()
    await fake.wait_for(lambda: "bob" in lobby.content and remembered(database, "lobby", 0), 30, "bob seated")
    rows = log_rows(database)
    add_ai = control_id(lobby, "addai")
    holder = write_lock(database)
    try:
        first = await fake.click(alice, lobby, add_ai)
        assert await first.wait_acked() == 5, "shown as pending"
        others = [await fake.click(bob, lobby, add_ai), await fake.click(alice, lobby, add_ai)]
        for click in others:
            assert await click.wait_acked() == 5, "shown as pending"
        await fake.wait_for(lambda: len(pending_markers(database)) == 3, 30, "the three clicks' markers")
        fault = fake.inject_error("POST", WEBHOOK, status=500, times=10**6)  # nobody hears what became of them
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    await fake.wait_for(lambda: log_rows(database) == rows + 2, 30, "two computer players seated")
    await proc.kill()
    fault.times = 0
    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    told = {click.id: (await click.wait_message(30)).content for click in (first, *others)}
    assert sorted(told.values()) == [NOT_RECORDED] + ["Your move is recorded."] * 2, told  # two seated, not three
    seated = log_since(database, rows)
    assert sorted(seated) == sorted(f"add-ai normal {user.id}" for user in (alice, bob)) or \
        seated == [f"add-ai normal {alice.id}"] * 2, seated
    bob_told = told[others[0].id]
    assert bob_told == ("Your move is recorded." if f"add-ai normal {bob.id}" in seated else NOT_RECORDED), told
    alice_told = sorted(told[click.id] for click in (first, others[1]))
    recorded = seated.count(f"add-ai normal {alice.id}")
    assert alice_told == sorted(["Your move is recorded."] * recorded + [NOT_RECORDED] * (2 - recorded)), told
    await fake.wait_for(lambda: not pending_markers(database), 30, "the markers gone")
