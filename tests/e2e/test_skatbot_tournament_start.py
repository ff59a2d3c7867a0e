"""A tournament with a start time: a Discord Scheduled Event where the bot may, and the tournament starts
itself at that time (drawn by lot, its tables opened); stopped early by the organiser with the list as it is."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.fakediscord.state import MANAGE_EVENTS
from tests.e2e.skat_helpers import start_skatbot


async def tournament(fake: FakeDiscord, user: User, channel: Channel, subcommand: str, **options: Any) -> Message:
    ix = await fake.slash(user, channel, "tournament", subcommand=subcommand, options=options)
    return await ix.wait_message(60)


async def test_a_start_time_makes_a_scheduled_event_and_the_tournament_starts_itself(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel, owner = club.fake, club.channel, club.fake.world.owner
    bot_role = next(r for r in club.guild.roles.values() if r.name == fake.world.bot.name)
    bot_role.permissions |= MANAGE_EVENTS  # the bot may create events here
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    # Organisers: Manage Server, or a role set in /skat settings; lena has the role, not Manage Server.
    organiser = fake.add_user("lena")
    refused = await tournament(fake, organiser, channel, "new", name="Not yet")
    assert "Only organisers" in refused.content
    skatwarte = fake.add_role(club.guild, "Skatwarte", 0)
    fake.give_role(club.guild, organiser, skatwarte)
    chosen = await (await fake.slash(owner, channel, "skat", subcommand="settings",
                                     options={"organisers": skatwarte})).wait_message()
    assert f"• tournament organisers: members with Manage Server and the role <@&{skatwarte.id}>" in chosen.content

    past = await tournament(fake, organiser, channel, "new", name="Too late", start="2001-01-01T19:30+00:00")
    assert "has passed already" in past.content
    garbled = await tournament(fake, organiser, channel, "new", name="Garbled", start="half past seven")
    assert garbled.content.startswith("“half past seven” is not a time")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0] == 0  # refused: nothing stored

    start = (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=6)).replace(microsecond=0)
    typed = start.replace(tzinfo=None).isoformat(sep=" ")  # no offset: read as UTC, and the reply says so
    created = await tournament(fake, organiser, channel, "new", name="Friday Skat", deals=3, entry_fee=5.0,
                               lost_fee=0.5, start=typed)
    assert created.content.startswith("Tournament #1 (Friday Skat) is open for sign-up"), created.content
    assert (f"It starts <t:{int(start.timestamp())}:F> (in your own time zone): “{typed}” has no offset, so it was "
            "read as UTC.") in created.content, created.content
    assert "A scheduled event shows the start" in created.content
    (event,) = fake.world.scheduled_events.values()
    assert event["name"] == "Friday Skat" and event["entity_type"] == 3
    assert event["entity_metadata"] == {"location": "#skat"}
    assert dt.datetime.fromisoformat(event["scheduled_start_time"]) == start
    signup = await fake.wait_for_message(channel, lambda m: m.content.startswith("🏆 **Tournament #1: Friday Skat**"))
    assert f"Starts <t:{int(start.timestamp())}:F>." in signup.content
    assert "entry 5.00, per lost game 0.50 (booked only)" in signup.content
    people = [fake.add_user(name) for name in ("ida", "jan", "kai")]
    for user in people:
        await (await fake.click(user, signup, "tournament:join:1")).wait_message(30)

    drawn = await fake.wait_for_message(channel, lambda m: m.content.startswith("🎲 **Series 1"), timeout=60)
    assert "Table 1: " in drawn.content and len(fake.threads(channel)) == 1
    await fake.wait_for(lambda: event["status"] == 2, 30, "the event shown as under way")
    thread = fake.threads(channel)[0]
    await fake.wait_for_message(thread, lambda m: "Skat table" in m.content, timeout=30)

    late = await tournament(fake, fake.add_user("lou"), channel, "join")
    assert late.content.startswith("Friday Skat has started: late entries are not taken."), late.content
    going = await tournament(fake, people[1], channel, "leave")
    assert going.content.startswith("Friday Skat has started: your place is at your table now. To go, use /skat "
                                    "leave there"), going.content
    not_yours = await tournament(fake, people[0], channel, "stop")
    assert "Only organisers" in not_yours.content
    stopped = await tournament(fake, organiser, channel, "stop")
    assert stopped.content == "Friday Skat is over; the standings stay as they are."
    final = await fake.wait_for_message(channel, lambda m: m.content.startswith(
        "🏆 **Friday Skat (#1) was stopped: the list as it stood**"), timeout=30)
    assert "**Fees booked** (entry + lost games):" in final.content and "ida: 5.00 (5.00 + 0 × lost = 0.00)" in \
        final.content
    await fake.wait_for(lambda: event["status"] == 3, 30, "the event shown as completed")
    again = await tournament(fake, organiser, channel, "stop")
    assert again.content == "This tournament is over."
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT state FROM tournaments").fetchone()[0] == "stopped"
        assert db.execute("SELECT state FROM tables").fetchone()[0] == "abandoned"  # its table was closed
    fake.assert_clean()


async def test_a_start_time_that_passed_while_the_bot_was_down_starts_the_tournament_on_its_return(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """Killed before the start time, back after it: the tournament starts as the process comes back, not at a
    later tick of its clock (off here: SKATBOT_TOURNAMENT_CLOCK=3600), and not never."""
    fake, channel, owner = club.fake, club.channel, club.fake.world.owner
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database), SKATBOT_TOURNAMENT_CLOCK="3600")
    start = (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=12)).replace(microsecond=0)
    created = await tournament(fake, owner, channel, "new", name="Down at eight", deals=3, start=start.isoformat())
    assert created.content.startswith("Tournament #1 (Down at eight) is open for sign-up"), created.content
    for user in [fake.add_user(name) for name in ("ida", "jan", "kai")]:
        assert "You are signed up" in (await tournament(fake, user, channel, "join")).content
    await proc.kill()
    with sqlite3.connect(database) as db:  # killed before it started
        assert db.execute("SELECT state FROM tournaments").fetchone()[0] == "signup"
    await fake.wait_for(lambda: dt.datetime.now(dt.UTC) > start + dt.timedelta(seconds=1), 30, "the start time")
    await proc.start()
    await proc.wait_connected(commands=("skat", "tournament"))
    drawn = await fake.wait_for_message(channel, lambda m: m.content.startswith("🎲 **Series 1"), timeout=60)
    assert "Table 1: " in drawn.content and len(fake.threads(channel)) == 1
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT state FROM tournaments").fetchone()[0] == "playing"


async def test_a_tournament_stopped_before_its_start_time_cancels_its_scheduled_event(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """Called off before it began: the server's event list must not keep announcing it."""
    fake, channel, owner = club.fake, club.channel, club.fake.world.owner
    bot_role = next(r for r in club.guild.roles.values() if r.name == fake.world.bot.name)
    bot_role.permissions |= MANAGE_EVENTS
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    start = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=2)).replace(microsecond=0)
    created = await tournament(fake, owner, channel, "new", name="Rained off", start=start.isoformat())
    assert "A scheduled event shows the start" in created.content, created.content
    (event,) = fake.world.scheduled_events.values()
    assert event["status"] == 1
    stopped = await tournament(fake, owner, channel, "stop")
    assert stopped.content == "Rained off is over; the standings stay as they are."
    await fake.wait_for(lambda: event["status"] == 4, 30, "the event canceled")
    fake.assert_clean()
