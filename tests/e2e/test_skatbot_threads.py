"""A thread of its own per table (/skat settings tables: own thread), through the real bot process.

The channel shows one notice with the table's thread under it; the lobby, boards, tricks and results go
to the thread, commands typed there act on its table, a restart goes on in the thread, and where no
thread can be opened the table plays in the channel with one message saying why.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.fakediscord.state import PUBLIC_THREAD
from tests.e2e.server_helpers import run, speak
from tests.e2e.skat_helpers import open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_hands_match_database, assert_no_public_leaks, public_leaks
from tests.e2e.skat_players import button_move, game_controls, latest_hand, play_out, slash_move

THREADS_ROUTE = "/api/v10/channels/{channel_id}/messages/{message_id}/threads"


def public(fake: FakeDiscord, channel: Channel) -> list[Message]:
    return [m for m in fake.messages(channel) if m.visibility == "public"]


async def choose_threads(fake: FakeDiscord, **also: str) -> Message:
    """The guild owner (Manage Server) sets `tables: own thread`, plus any other settings given."""
    admin = fake.world.owner
    channel = next(c for c in fake.world.channels.values() if c.name == "skat")
    return await run(fake, admin, channel, "settings", tables="thread", **also)


async def seat_two_ais_and_start(fake: FakeDiscord, user: User, thread: Channel) -> None:
    """By commands typed in the thread: they must find the thread's table."""
    for _ in range(2):
        added = await run(fake, user, thread, "add-ai", level="easy")
        assert added.content in ("Done.", "Erledigt."), added.content
    started = await run(fake, user, thread, "start")
    assert started.content in ("Done.", "Erledigt."), started.content


async def test_a_table_plays_in_its_own_thread(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    shown = await run(fake, fake.world.owner, club.channel, "settings")
    assert "Tables: in the channel where /skat new is used" in shown.content  # the default: as before
    refused = await run(fake, alice, club.channel, "settings", tables="thread")
    assert "Only members with the Manage Server permission" in refused.content
    chosen = await choose_threads(fake)
    assert "✅ Saved" in chosen.content and "• tables: each in a thread of its own" in chosen.content
    assert "Tables: each in a thread of its own" in chosen.content

    reply, thread = await open_table(fake, alice, club.channel, deals=1)
    assert thread.type == PUBLIC_THREAD and thread.parent_id == club.channel.id
    assert thread.name == "Skat · alice's table" and thread.auto_archive_duration == 10080
    assert reply == f"Table #1 is open in its own thread: <#{thread.id}>."
    (notice,) = public(fake, club.channel)  # the channel shows only the notice, the thread under it
    assert notice.id == thread.id and notice.content.startswith("🃏 **alice** opens a Skat table")
    lobby = await fake.wait_for_message(thread, lambda m: m.content.startswith("🃏 **Skat table #1**"))

    nothing = await run(fake, alice, club.channel, "table")  # the channel itself has no table
    assert nothing.content.startswith("There is no table in this channel. Open one with /skat new")
    assert "thread" in nothing.content
    here = await run(fake, alice, thread, "table")
    assert here.content.startswith("🃏 **Skat table #1**")
    await seat_two_ais_and_start(fake, alice, thread)
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated in the thread's lobby")

    rng = random.Random(11)
    moves = {"slash": 0}

    async def move(user: User, message: Message) -> None:  # commands typed in the thread, and buttons
        if moves["slash"] < 4:
            moves["slash"] += 1
            await slash_move(fake, user, thread, message, rng)
        else:
            await button_move(fake, user, message, rng, avoid=("pass",))

    await play_out(fake, [alice], lambda: any("The series is over" in text for text in public_texts(fake, thread)),
                   move)
    assert moves["slash"] == 4
    texts = public_texts(fake, thread)
    assert any(text.startswith("**Deal 1 of 1**") for text in texts)
    assert any(text.startswith("**Result of deal 1**") for text in texts)
    assert [m.id for m in public(fake, club.channel)] == [notice.id]  # nothing of the game in the channel
    await fake.wait_for(lambda: thread.archived, 30, "the finished table's thread archived")
    # The notice no longer invites players: it says the table has ended (the same message, edited).
    assert notice.content == "🃏 **alice**'s Skat table has ended (see the thread for the results)."
    assert notice.history[0].content.startswith("🃏 **alice** opens a Skat table")
    listed = await run(fake, alice, thread, "list")  # the thread still answers for its finished table
    assert listed.content.startswith("**Score list** (1 of 1 deal)")

    # The hidden-card check reads the thread's messages (and everything else that is public).
    thread_boards = [m for m in public(fake, thread) if m.content.startswith("**Deal 1 of 1**")]
    assert thread_boards and public_leaks(fake, [alice], channel=thread, database=database) == []
    assert_no_public_leaks(fake, [alice], database=database)
    assert_hands_match_database(fake, [alice], database)
    fake.assert_clean(allow_rejections=False)


async def test_german_admin_and_player_get_a_german_thread(club: Club, start_bot: StartBot, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    fake = club.fake
    dieter = fake.add_user("dieter", locale="de")
    speak(monkeypatch, {fake.world.owner.id: "de"})
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    chosen = await choose_threads(fake, language="de")
    assert "✅ Gespeichert" in chosen.content and "• Tische: jeder in seinem eigenen Thread" in chosen.content
    assert "Tische: jeder in seinem eigenen Thread" in chosen.content.split("\n\n", 1)[1]

    reply, thread = await open_table(fake, dieter, club.channel, deals=1)
    assert reply == f"Tisch #1 ist eröffnet, in seinem eigenen Thread: <#{thread.id}>."
    assert thread.name == "Skat · Tisch von dieter"
    (notice,) = public(fake, club.channel)
    assert notice.content.startswith("🃏 **dieter** eröffnet einen Skattisch")
    lobby = await fake.wait_for_message(thread, lambda m: m.content.startswith("🃏 **Skattisch #1**"))
    await seat_two_ais_and_start(fake, dieter, thread)
    await fake.wait_for(lambda: "KI 2 (leicht)" in lobby.content, 30, "two AIs seated")
    hand = await fake.wait_for(lambda: latest_hand(fake, dieter), 30, "dieter's cards")
    assert hand.content.startswith("**Deine Karten**")
    stopped = await run(fake, dieter, thread, "stop")
    assert stopped.content == "Erledigt."
    await fake.wait_for(lambda: thread.archived, 30, "the stopped table's thread archived")
    assert [m.id for m in public(fake, club.channel)] == [notice.id]
    assert notice.content == "🃏 Der Skattisch von **dieter** wurde geschlossen (mehr im Thread darunter)."
    fake.assert_clean(allow_rejections=False)


async def test_a_restart_goes_on_in_the_thread(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    await choose_threads(fake)
    _, thread = await open_table(fake, alice, club.channel, deals=1)
    await seat_two_ais_and_start(fake, alice, thread)
    rng = random.Random(5)

    def alice_to_act() -> Message | None:
        hand = latest_hand(fake, alice)
        return hand if hand is not None and game_controls(hand) else None

    for _ in range(3):  # a few moves into the deal
        await button_move(fake, alice, await fake.wait_for(alice_to_act, 30, "alice's turn"), rng, avoid=("pass",))
    board_before = next(m for m in public(fake, thread) if m.content.startswith("**Deal 1 of 1**"))

    await proc.kill()
    thread.archived = True  # as Discord does to a quiet thread: the restored table must reopen it
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: any("I was restarted: table #1" in text for text in public_texts(fake, thread)),
                        10, "the restart notice in the thread")
    boards = [m.id for m in fake.messages(thread) if m.content.startswith("**Deal 1 of 1**")]
    assert boards == [board_before.id], "the board is edited after the restart, not posted again"
    assert not thread.archived
    shown = await run(fake, alice, thread, "table")  # commands in the thread find the restored table
    assert shown.content.startswith("🃏 **Skat table #1**") and "**Deal 1 of 1**" in shown.content
    await play_out(fake, [alice], lambda: any("The series is over" in text for text in public_texts(fake, thread)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    assert len(public(fake, club.channel)) == 1  # still only the notice
    assert not any("restarted" in text for text in public_texts(fake, club.channel))
    await fake.wait_for(lambda: thread.archived, 30, "the thread archived at the end")
    (notice,) = public(fake, club.channel)  # the restored table finds its notice by the thread's id
    assert notice.id == thread.id
    assert notice.content == "🃏 **alice**'s Skat table has ended (see the thread for the results)."
    assert_no_public_leaks(fake, [alice], database=database)
    assert_hands_match_database(fake, [alice], database)
    fake.assert_clean(allow_rejections=False)


async def test_without_thread_permission_the_table_plays_in_the_channel(club: Club, start_bot: StartBot,
                                                                        tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    closed = fake.add_channel(club.guild, "no-threads", allow_threads=False)
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    await choose_threads(fake)

    reply, where = await open_table(fake, alice, closed, deals=1)
    assert where is closed and fake.threads(closed) == []
    assert reply == "Table #1 is open."
    said = [m.content for m in public(fake, closed) if "thread of its own" in m.content]
    assert said == ["This server plays each table in a thread of its own, but I may not open threads here "
                    "(missing permission: Create Public Threads). The table plays in this channel; a server "
                    "manager can grant the permission, or choose `/skat settings tables: in the channel`."]
    await fake.wait_for_message(closed, lambda m: m.content.startswith("🃏 **Skat table #1**"))
    assert (await run(fake, alice, closed, "table")).content.startswith("🃏 **Skat table #1**")
    assert not any(call.route.endswith("/threads") for call in fake.rest_log)  # not even tried

    # Discord refusing the thread (here: a permission changed meanwhile) falls back the same way, once.
    fake.inject_error("POST", THREADS_ROUTE, status=403, code=50013, message="Missing Permissions")
    reply, where = await open_table(fake, club.bob, club.channel, deals=1)
    assert where is club.channel and reply == "Table #2 is open."
    (notice,) = [m for m in public(fake, club.channel) if "thread" in m.content]
    assert notice.content == ("This server plays each table in a thread of its own, but Discord did not let me "
                              "open one (403 Missing Permissions). The table plays in this channel.")
    await fake.wait_for_message(club.channel, lambda m: m.content.startswith("🃏 **Skat table #2**"))
    # The next table gets its thread again, next to the one playing in the channel.
    reply, where = await open_table(fake, alice, club.channel, deals=1)
    assert where is not club.channel and reply == f"Table #3 is open in its own thread: <#{where.id}>."
    await fake.wait_for_message(where, lambda m: m.content.startswith("🃏 **Skat table #3**"))
    fake.assert_clean()


async def test_in_a_thread_already_the_table_plays_right_there(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    chat = Channel(fake.world.ids.next(), PUBLIC_THREAD, name="chat", guild_id=club.guild.id,
                   parent_id=club.channel.id, owner_id=alice.id, thread_member_ids=[alice.id])
    fake.world.channels[chat.id] = chat
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    await choose_threads(fake)

    reply, where = await open_table(fake, alice, chat, deals=1)
    assert reply == "Table #1 is open." and where is chat and fake.threads(chat) == []
    assert [m.content for m in public(fake, chat) if "thread" in m.content] == [
        "This server plays each table in a thread of its own, but this is a thread already: the table plays "
        "right here."]
    await fake.wait_for_message(chat, lambda m: m.content.startswith("🃏 **Skat table #1**"))
    assert (await run(fake, alice, chat, "stop")).content == "Done."
    await fake.wait_for(lambda: any("The table was closed" in text for text in public_texts(fake, chat)), 5,
                        "the closing notice")
    assert not chat.archived  # someone else's thread is left as it was
    assert public(fake, club.channel) == []
    fake.assert_clean(allow_rejections=False)
