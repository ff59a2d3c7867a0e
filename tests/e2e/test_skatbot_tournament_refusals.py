"""A tournament as players break it: the standings asked for before the start and while the draw is being made,
a sign-up button pressed after the start on a sign-up message the player's client still shows with its buttons,
a second join, a leave after the draw, a tournament set up inside a thread. Each is answered only to the one who
asked, kindly, and changes nothing stored."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.skat_helpers import start_skatbot
from tests.e2e.test_skatbot_pending import write_lock

PLAYERS = ("ida", "jan", "kai", "lea", "max", "nia")


async def tournament(fake: FakeDiscord, user: User, channel: Channel, subcommand: str, **options: Any) -> Message:
    ix = await fake.slash(user, channel, "tournament", subcommand=subcommand, options=options)
    return await ix.wait_message(60)


def stored_log(database: Path) -> list[str]:
    """The tournaments' steps as stored, but the messages they keep up to date (`shown`: the live standings are
    posted a moment after the start, whenever the painter gets to it)."""
    with sqlite3.connect(database) as db:
        return [str(row[0]) for row in db.execute("SELECT entry FROM tournament_log ORDER BY tournament_id, seq")
                if not str(row[0]).startswith("shown ")]


async def test_late_presses_and_early_questions_are_answered_kindly_and_change_nothing(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel, organiser = club.fake, club.channel, club.fake.world.owner
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    people = [fake.add_user(name) for name in PLAYERS]
    await tournament(fake, organiser, channel, "new", name="Quick round", deals=3)
    signup = await fake.wait_for_message(channel, lambda m: m.content.startswith("🏆 **Tournament #1: Quick round**"))
    for user in people:
        joined = await tournament(fake, user, channel, "join")
        assert "You are signed up for Quick round" in joined.content, joined.content

    # Before the start there is nothing to rank: the answer is who has signed up, not "series 0".
    early = await tournament(fake, people[0], channel, "standings")
    assert early.visibility == "ephemeral", early
    assert early.content.startswith("The tournament has not started yet."), early.content
    assert "series 0" not in early.content and "**Signed up (6):**" in early.content, early.content

    await fake.wait_for(lambda: "**Signed up (6):**" in signup.content, 30, "the sign-up list with all six")
    stale = dataclasses.replace(signup, history=list(signup.history))  # as a client that missed the next edits
    started = await tournament(fake, organiser, channel, "start")
    assert started.content.startswith("Started: 2 tables drawn by lot"), started.content
    await fake.wait_for(lambda: "Sign-up is closed" in signup.content and not signup.buttons(), 30, "sign-up closed")
    assert stale.buttons(), "the stale copy still offers Join and Leave"
    before = stored_log(database)

    hugo = fake.add_user("hugo")
    late = await (await fake.click(hugo, stale, "tournament:join:1")).wait_message(30)
    assert late.visibility == "ephemeral" and late.content.startswith(
        "Quick round has started: late entries are not taken."), late.content
    again = await (await fake.click(people[1], stale, "tournament:join:1")).wait_message(30)
    assert again.visibility == "ephemeral" and "late entries are not taken" in again.content, again.content
    gone = await (await fake.click(people[2], stale, "tournament:leave:1")).wait_message(30)
    assert gone.visibility == "ephemeral" and gone.content.startswith(
        "Quick round has started: your place is at your table now."), gone.content
    leave = await tournament(fake, people[3], channel, "leave")
    assert leave.visibility == "ephemeral" and "your place is at your table now" in leave.content

    assert stored_log(database) == before, "nothing stored"
    assert "hugo" not in signup.content and "**Signed up (6):**" in signup.content
    standings = await tournament(fake, hugo, channel, "standings")  # anyone, once it has started
    assert standings.visibility == "ephemeral" and standings.content.startswith("📊 **Quick round (#1)** · series 1")
    assert all(name in standings.content for name in PLAYERS) and "hugo" not in standings.content

    # A tournament set up inside a thread (here a table's) could never open its tables: Discord opens no thread
    # in a thread, and its players would stay bound to tables that never open. Refused, nothing stored.
    thread = fake.threads(channel)[0]
    nested = await tournament(fake, organiser, thread, "new", name="Nested")
    assert nested.visibility == "ephemeral" and nested.content.startswith(
        "Set up a tournament in a text channel: each of its tables plays in a thread of its own there"), nested.content
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 1


THREADS = "/api/v10/channels/{channel_id}/messages/{message_id}/threads"


async def test_the_standings_asked_for_while_the_draw_is_being_made_are_answered_at_once(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """/tournament start is opening its tables: the first table's thread is open, and the database is busy (a
    second process, a backup) as the bot would store it. /tournament standings asked meanwhile is answered at
    once, within Discord's 3 s, with the draw made (series 1, no deal yet, everyone listed), not held up behind
    the start's write; the start then goes on and opens both tables."""
    fake, channel, organiser = club.fake, club.channel, club.fake.world.owner
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    people = [fake.add_user(name) for name in PLAYERS]
    await tournament(fake, organiser, channel, "new", name="Quick round", deals=3)
    for user in people:
        await tournament(fake, user, channel, "join")
    held: list[sqlite3.Connection] = []
    fake.tap("POST", THREADS, lambda: held.append(write_lock(database)))
    starting = await fake.slash(organiser, channel, "tournament", subcommand="start")
    await fake.wait_for(lambda: held, 60, "the first table's thread opened")
    try:
        asked = await fake.slash(people[4], channel, "tournament", subcommand="standings")
        assert await asked.wait_acked(2.5) == 4, "answered at once, not deferred behind the start"
        shown = await asked.wait_message(5)
        assert shown.visibility == "ephemeral" and shown.content.startswith(
            "📊 **Quick round (#1)** · series 1 of 1 · 0 deals played"), shown.content
        assert all(name in shown.content for name in PLAYERS)
    finally:
        held[0].execute("ROLLBACK")
        held[0].close()
    started = await starting.wait_message(60)
    assert started.content.startswith("Started: 2 tables drawn by lot"), started.content
    await fake.wait_for(lambda: len(fake.threads(channel)) == 2, 30, "both tables' threads")
    fake.assert_clean()
