"""A move shown as pending ("thinking…") ends in a clear answer, whatever happens meanwhile.

A second connection holds SQLite's write lock while alice clicks, so her move is shown pending: held past
the busy timeout, she is told the database was busy and nothing changed; killed while pending, the bot
tells her after the restart whether the move is in the log ("recorded") or not ("play it again"), through
the interaction while its token lives, by DM after that.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.conftest import Club
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.skat_helpers import start_skatbot
from tests.e2e.skat_players import game_controls, latest_hand
from tests.e2e.test_skatbot_outbox import table_against_ais


def log_rows(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT COUNT(*) FROM table_log").fetchone()[0])


def pending_markers(database: Path) -> list[Path]:
    folder = database.with_name(database.name + ".pending")
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


async def hand_drawn_now(fake: FakeDiscord, alice: User, database: Path) -> Message:
    """Alice's hand once its buttons are drawn for the table's moment now (her turn)."""
    def now_drawn() -> Message | None:
        hand = latest_hand(fake, alice)
        now = f":s{log_rows(database)}:"
        return hand if hand is not None and any(c["type"] == 2 and now in str(c["custom_id"])
                                                for c in game_controls(hand)) else None
    return await fake.wait_for(now_drawn, 30, "alice's turn")


def a_button(hand: Message) -> str:
    return str(next(c for c in game_controls(hand) if c["type"] == 2)["custom_id"])


def write_lock(database: Path) -> sqlite3.Connection:
    """SQLite's write lock, held by another connection (as a busy second process or a backup would)."""
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


async def test_a_write_lock_held_past_the_busy_timeout_is_said_clearly_and_changes_nothing(
        club: Club, start_bot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    await table_against_ais(fake, alice, channel, deals=1)
    hand = await hand_drawn_now(fake, alice, database)
    button = a_button(hand)
    rows = log_rows(database)
    holder = write_lock(database)
    try:
        click = await fake.click(alice, hand, button)
        assert await click.wait_acked() == 5, "shown as pending"
        reply = await click.wait_message(15)  # the bot waits out its busy timeout (5 s), then says so
        assert reply.visibility == "ephemeral"
        assert reply.content == ("The table's database is busy, so your move was not recorded. "
                                 "Please try again in a moment."), reply.content
        assert log_rows(database) == rows, "nothing stored"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not pending_markers(database), "a settled move leaves no marker (nor its interaction token)"
    again = await fake.click(alice, hand, button)  # nothing changed: the same button still stands for now
    assert await again.wait_acked() in (5, 6)
    await fake.wait_for(lambda: log_rows(database) > rows, 10, "the move stored on the second try")
