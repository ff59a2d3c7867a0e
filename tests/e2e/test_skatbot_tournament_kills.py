"""A tournament killed between two steps that belong together: posting something and storing that it was posted.

A tap in the fake Discord takes SQLite's write lock the moment Discord answered the post (a table's thread
opened, "series over" or the final list posted), so the bot cannot store it; the bot is killed right then.
After the restart it asks again with the same nonce, Discord gives back what it made the first time, and the
channel shows each thing once: one thread per table (none left empty), one "series over", one final list.
A tournament's table is seated and started by the draw: no message in its thread ever offers Join, Leave or
Add AI.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import BotProcess, Channel, FakeDiscord, Message, User
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_kill_window import content_of
from tests.e2e.test_skatbot_outbox import MESSAGES, public
from tests.e2e.test_skatbot_pending import write_lock
from tests.e2e.test_skatbot_tournament import stored_state

THREADS = "/api/v10/channels/{channel_id}/messages/{message_id}/threads"
PLAYERS = ("ida", "jan", "kai")


async def tournament(fake: FakeDiscord, user: User, channel: Channel, subcommand: str, **options: Any) -> Message:
    ix = await fake.slash(user, channel, "tournament", subcommand=subcommand, options=options)
    return await ix.wait_message(60)


async def signed_up(fake: FakeDiscord, channel: Channel, **options: Any) -> list[User]:
    """A tournament of three players (one table of three, 3 deals a series), signed up, not started."""
    created = await tournament(fake, fake.world.owner, channel, "new", name="Kill night", deals=3, **options)
    assert created.content.startswith("Tournament #1 (Kill night) is open"), created.content
    people = [fake.add_user(name) for name in PLAYERS]
    for user in people:
        joined = await tournament(fake, user, channel, "join")
        assert "You are signed up" in joined.content, joined.content
    return people


def logged(database: Path, entry: str) -> bool:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT 1 FROM tournament_log WHERE entry LIKE ?", (entry,)).fetchone() is not None


async def killed_when(fake: FakeDiscord, proc: BotProcess, database: Path, held: list[sqlite3.Connection]) -> None:
    """Once the tap took the write lock: kill the bot, free the lock, start it again."""
    await fake.wait_for(lambda: held, 60, "the post the bot is killed after")
    await proc.kill()
    held[0].execute("ROLLBACK")
    held[0].close()
    await proc.restart()
    await proc.wait_connected(commands=("skat", "tournament"))


def lobby_buttons(fake: FakeDiscord, thread: Channel) -> list[str]:
    """Labels of every lobby button any version of any message in the thread ever carried."""
    labels = []
    for message in fake.messages(thread):
        for version in message.history:
            for row in version.components:
                for item in row.get("components", []):
                    if item.get("label") in ("Join", "Leave", "Add AI", "Start"):
                        labels.append(item["label"])
    return labels


async def test_killed_between_opening_a_tables_thread_and_storing_it_leaves_one_thread(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel = club.fake, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    await signed_up(fake, channel)
    held: list[sqlite3.Connection] = []
    fake.tap("POST", THREADS, lambda: held.append(write_lock(database)))
    await fake.slash(fake.world.owner, channel, "tournament", subcommand="start")
    await killed_when(fake, proc, database, held)
    assert not logged(database, "shown thread-1-1 %"), "killed before the thread's id was stored"

    drawn = await fake.wait_for_message(channel, lambda m: m.content.startswith("🎲 **Series 1"), timeout=60)
    (thread,) = fake.threads(channel)  # one thread: the one opened before the kill, taken up
    assert f"<#{thread.id}>" in drawn.content
    assert len(public(fake, channel, "🏆 Kill night · series 1 · table 1:")) == 1, "one notice in the channel"
    await fake.wait_for_message(thread, lambda m: "Skat table" in m.content, timeout=30)
    assert logged(database, f"shown thread-1-1 {thread.id}") and logged(database, "table 1 1 %")
    assert lobby_buttons(fake, thread) == [], "a tournament's table never offers its lobby's buttons"
    fake.assert_clean()


async def test_killed_after_posting_series_over_or_the_final_list_before_storing_it_shows_each_once(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel = club.fake, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    people = await signed_up(fake, channel, series=2)
    held: list[sqlite3.Connection] = []
    fake.tap("POST", MESSAGES, lambda: held.append(write_lock(database)),
             where=lambda body: content_of(body).startswith("✅ Series 1 of Kill night is over"))
    started = await tournament(fake, fake.world.owner, channel, "start")
    assert started.content.startswith("Started: 1 tables drawn by lot"), started.content
    (thread,) = fake.threads(channel)
    rng = random.Random(7)

    async def move(user: User, message: Message) -> None:
        await button_move(fake, user, message, rng, avoid=("pass",) if rng.random() < 0.6 else ())

    def results() -> int:
        return sum(1 for text in public_texts(fake, thread) if text.startswith("**Result of deal"))

    await play_out(fake, people, lambda: bool(held) or results() >= 3, move)
    await killed_when(fake, proc, database, held)
    assert not logged(database, "shown series-1 %")
    await fake.wait_for(lambda: logged(database, "shown series-1 %"), 60, "series 1's end stored after the restart")
    assert len(public(fake, channel, "Series 1 of Kill night is over")) == 1, "said once"

    fake.tap("POST", MESSAGES, lambda: held.append(write_lock(database)),
             where=lambda body: content_of(body).startswith("🏆 **Kill night (#1) was stopped"))
    held.clear()
    await fake.slash(fake.world.owner, channel, "tournament", subcommand="stop")
    await killed_when(fake, proc, database, held)
    assert not logged(database, "shown final %")
    await fake.wait_for(lambda: logged(database, "shown final %"), 60, "the final list stored after the restart")
    assert len(public(fake, channel, "🏆 **Kill night (#1) was stopped")) == 1, "the final list once"
    await fake.wait_for(lambda: stored_state(database) == "stopped", 30, "the tournament's row stopped")
    fake.assert_clean()


async def test_killed_after_posting_the_sign_up_before_storing_it_keeps_one_sign_up_that_lists_who_joins(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, channel = club.fake, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    held: list[sqlite3.Connection] = []
    fake.tap("POST", MESSAGES, lambda: held.append(write_lock(database)),
             where=lambda body: content_of(body).startswith("🏆 **Tournament #1: Kill night**"))
    await fake.slash(fake.world.owner, channel, "tournament", subcommand="new", options={"name": "Kill night"})
    await killed_when(fake, proc, database, held)
    await fake.wait_for(lambda: logged(database, "shown signup %"), 60, "the sign-up stored after the restart")
    (signup,) = public(fake, channel, "🏆 **Tournament #1: Kill night**")  # the one posted before the kill
    assert logged(database, f"shown signup {signup.id}")
    ida = fake.add_user("ida")
    joined = await (await fake.click(ida, signup, "tournament:join:1")).wait_message(30)
    assert "You are signed up" in joined.content, joined.content
    await fake.wait_for(lambda: "1. ida" in signup.content, 30, "the sign-up list with ida")
    assert len(public(fake, channel, "🏆 **Tournament #1: Kill night**")) == 1
    assert not fake.unknown_routes  # (the /tournament new the kill cut off was never answered: no assert_clean)
