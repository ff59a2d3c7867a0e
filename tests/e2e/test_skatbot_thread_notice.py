"""The notice a table's own thread hangs from, through the real bot process.

When the table is over (series ended, or closed) the notice in the channel says so instead of inviting
players; it is found by the thread's id (a thread opened from a message has that message's id). A notice
that is gone or may not be edited changes nothing else. A thread opened for a table that then cannot be
stored is put away, with its notice, and the creator gets a clear answer.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord.state import PUBLIC_THREAD
from tests.e2e.server_helpers import run, speak
from tests.e2e.skat_helpers import open_table, public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_threads import choose_threads, public, seat_two_ais_and_start

MESSAGE_ROUTE = "/api/v10/channels/{channel_id}/messages/{message_id}"
REFUSE_TABLES = ("CREATE TRIGGER refuse_tables BEFORE INSERT ON tables "
                 "BEGIN SELECT RAISE(ABORT, 'the disk refuses (test)'); END")


def stored_tables(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT count(*) FROM tables").fetchone()[0])


async def test_a_german_notice_says_the_series_has_ended(club: Club, start_bot: StartBot, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    fake = club.fake
    dieter = fake.add_user("dieter", locale="de")
    speak(monkeypatch, {fake.world.owner.id: "de"})
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    await choose_threads(fake, language="de")
    _, thread = await open_table(fake, dieter, club.channel, deals=1)
    (notice,) = public(fake, club.channel)
    assert notice.id == thread.id and notice.content.startswith("🃏 **dieter** eröffnet einen Skattisch")
    await seat_two_ais_and_start(fake, dieter, thread)
    rng = random.Random(3)
    await play_out(fake, [dieter], lambda: any("Die Serie ist beendet" in text for text in public_texts(fake, thread)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    await fake.wait_for(lambda: thread.archived, 30, "the finished table's thread archived")
    assert notice.content == "🃏 Der Skattisch von **dieter** ist zu Ende (die Ergebnisse stehen im Thread)."
    assert [m.id for m in public(fake, club.channel)] == [notice.id]  # edited, not posted anew
    fake.assert_clean(allow_rejections=False)


async def test_a_closed_table_whose_creator_left_says_so_without_a_name(club: Club, start_bot: StartBot,
                                                                        tmp_path: Path) -> None:
    fake, alice, bob = club.fake, club.alice, club.bob
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    await choose_threads(fake)
    _, thread = await open_table(fake, alice, club.channel, deals=1)
    (notice,) = public(fake, club.channel)
    assert (await run(fake, bob, thread, "join")).content == "You sit at table #1."
    assert (await run(fake, alice, thread, "leave")).content == "You left table #1."
    assert (await run(fake, fake.world.owner, thread, "stop")).content == "Done."  # a server manager closes it
    await fake.wait_for(lambda: thread.archived, 30, "the closed table's thread archived")
    assert notice.content == "🃏 This Skat table was closed (see the thread below)."
    fake.assert_clean(allow_rejections=False)


async def test_a_notice_that_is_gone_or_locked_changes_nothing_else(club: Club, start_bot: StartBot,
                                                                    tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    proc = await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    await choose_threads(fake)

    _, first = await open_table(fake, alice, club.channel, deals=1)
    fake.message(first.id).deleted = True  # a moderator removed the notice
    assert (await run(fake, alice, first, "stop")).content == "Done."
    await fake.wait_for(lambda: first.archived, 30, "the first thread archived all the same")
    assert any("The table was closed" in text for text in public_texts(fake, first))
    await proc.wait_for_output(f"could not mark the notice {first.id}")

    _, second = await open_table(fake, alice, club.channel, deals=1)
    notice = fake.message(second.id)
    path = f"/api/v10/channels/{club.channel.id}/messages/{notice.id}"
    fake.inject_error("PATCH", MESSAGE_ROUTE, status=403, code=50001, message="Missing Access", path=path)
    assert (await run(fake, alice, second, "stop")).content == "Done."
    await fake.wait_for(lambda: second.archived, 30, "the second thread archived all the same")
    assert notice.content.startswith("🃏 **alice** opens a Skat table") and len(notice.history) == 1
    assert [(c.method, c.status) for c in fake.rest_log if c.path == path] == [("PATCH", 403)]
    await proc.wait_for_output(f"could not mark the notice {second.id}")

    reply, third = await open_table(fake, alice, club.channel, deals=1)  # the bot carries on
    assert reply == f"Table #3 is open in its own thread: <#{third.id}>."
    assert "Traceback" not in proc.output()
    fake.assert_clean()


async def test_a_table_that_cannot_be_stored_puts_its_thread_away(club: Club, start_bot: StartBot,
                                                                  tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    await choose_threads(fake)
    with sqlite3.connect(database) as db:  # from now on the storage refuses every new table
        db.execute(REFUSE_TABLES)

    reply, thread = await open_table(fake, alice, club.channel, deals=1)
    assert reply == "Something went wrong on our side; it has been logged. Please try again."
    assert thread.type == PUBLIC_THREAD and thread.parent_id == club.channel.id  # it was opened ...
    await fake.wait_for(lambda: thread.archived, 30, "the empty thread archived")  # ... and put away
    assert fake.messages(thread) == []
    (notice,) = [m for m in fake.messages(club.channel, include_deleted=True) if m.visibility == "public"]
    assert notice.id == thread.id and notice.deleted  # nothing in the channel invites anyone to it
    assert stored_tables(database) == 0
    for where in (thread, club.channel):  # no table exists, here or there
        answer = await run(fake, alice, where, "table")
        assert answer.content.startswith("There is no table in this channel.")
    await proc.wait_for_output("command failed for user")
    assert "the disk refuses (test)" in proc.output()

    with sqlite3.connect(database) as db:  # the storage takes tables again: the next one opens as usual
        db.execute("DROP TRIGGER refuse_tables")
    reply, fresh = await open_table(fake, alice, club.channel, deals=1)
    assert fresh is not thread and reply == f"Table #1 is open in its own thread: <#{fresh.id}>."
    await fake.wait_for_message(fresh, lambda m: m.content.startswith("🃏 **Skat table #1**"))
    assert stored_tables(database) == 1
    fake.assert_clean()
