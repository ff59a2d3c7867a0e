"""What the bot must show is kept with the move and shown after any failure, exactly once.

The bot is SIGKILLed between storing a deal's last move and posting its result (the channel's posts held
up by server errors), at the end of a series, and restarted twice mid-deal; the channel refuses the bot's
posts for a while. Each time every result card and the final ranking appear exactly once, the lobby and
board are edited rather than posted again, and each player keeps one live hand message; a lobby posted just
before a crash (its id not yet stored) is brought up to date after the restart, not left as it was.
"""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
from pathlib import Path

from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import BotProcess, Channel, FakeDiscord, Message, User
from tests.e2e.skat_helpers import control_id, open_table, start_skatbot
from tests.e2e.skat_players import button_move, game_controls, latest_hand

MESSAGES = "/api/v10/channels/{channel_id}/messages"


def stored_deals(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT COUNT(*) FROM deals").fetchone()[0])


def remembered(database: Path, role: str, user_id: int) -> bool:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT 1 FROM shown_messages WHERE role = ? AND user_id = ?", (role, user_id)).fetchone() \
            is not None


def public(fake: FakeDiscord, channel: Channel, text: str) -> list[Message]:
    """Live public messages of the channel whose current text contains `text`."""
    return [m for m in fake.messages(channel) if m.visibility == "public" and not m.deleted and text in m.content]


def hands(fake: FakeDiscord, user: User) -> list[Message]:
    """The user's DM hand messages that were not deleted (one per deal at most is wanted)."""
    return [m for m in fake.dms(user) if not m.deleted and m.content.startswith("**Your hand**")]


def live_hands(fake: FakeDiscord, user: User) -> list[Message]:
    """The user's DM hand messages that still carry buttons."""
    return [m for m in fake.dms(user) if not m.deleted and m.content.startswith("**Your hand**") and m.buttons()]


async def table_against_ais(fake: FakeDiscord, alice: User, channel: Channel, deals: int) -> tuple[Channel, Message]:
    _, channel = await open_table(fake, alice, channel, deals=deals)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()
    return channel, lobby


async def play_until_last_card(fake: FakeDiscord, alice: User, deal: int, rng: random.Random) -> tuple[int, Message]:
    """Alice plays (never passing, so the deal is played) until her last card is due in deal `deal`, or in a
    later one where that deal ended early (a null game lost at a trick, say); returns that deal's number and her hand."""
    for _ in range(400):
        hand = await fake.wait_for(lambda: (lambda m: m if m is not None and game_controls(m) else None)(
            latest_hand(fake, alice)), 30, "alice's turn")
        cards = [c for c in hand.buttons() if control_kind(c) == "card"]
        shown = re.match(r"\*\*Your hand\*\* · deal (\d+)", hand.content)
        if shown and int(shown.group(1)) >= deal and len(cards) == 1 and not cards[0].get("disabled"):
            return int(shown.group(1)), hand
        await button_move(fake, alice, hand, rng, avoid=("pass",))
    raise AssertionError("alice's last card never came")


def last_card(hand: Message) -> str:
    return next(str(c["custom_id"]) for c in game_controls(hand) if control_kind(c) == "card")


def result_or_ranking(body: object) -> bool:
    """A post of a deal's result card or of the final ranking (its text written down in the outbox)."""
    content = str(body.get("content") or "") if isinstance(body, dict) else ""
    return "Result of deal" in content or "The series is over" in content or "Final ranking" in content


async def play_until_stored(fake: FakeDiscord, alice: User, database: Path, deals: int, rng: random.Random) -> None:
    """Alice plays (never passing, so the deals are played) until `deals` deals are stored, whichever move ended
    the last one: hers, or an AI's (a null game lost at a trick ends a deal early)."""
    def turn_or_stored() -> Message | bool | None:
        if stored_deals(database) >= deals:
            return True
        hand = latest_hand(fake, alice)
        return hand if hand is not None and game_controls(hand) else None
    for _ in range(400):
        hand = await fake.wait_for(turn_or_stored, 30, "alice's turn or the deal stored")
        if not isinstance(hand, Message):
            return
        await button_move(fake, alice, hand, rng, avoid=("pass",))
    raise AssertionError("the deal was never stored")


async def test_killed_after_the_last_move_is_stored_the_result_and_ranking_show_once(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc: BotProcess = await start_skatbot(fake, start_bot, str(database))
    channel, lobby = await table_against_ais(fake, alice, channel, deals=1)
    # The channel's posts of results and rankings fail with server errors (discord.py retries them, seconds
    # apart), so the series' last deal is stored while its result is still on its way: the bot is killed in
    # that window, whichever move ended the deal.
    fault = fake.inject_error("POST", MESSAGES, status=500, times=10**6, path=f"/api/v10/channels/{channel.id}/messages",
                              where=result_or_ranking)
    await play_until_stored(fake, alice, database, 1, random.Random(4))
    await proc.kill()
    assert not public(fake, channel, "Result of deal 1") and not public(fake, channel, "The series is over")
    fault.times = 0

    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: public(fake, channel, "The series is over"), 30, "the final ranking")
    assert len(public(fake, channel, "Result of deal 1")) == 1
    assert len(public(fake, channel, "Final ranking")) == 1
    assert len(public(fake, channel, "Skat table #1")) == 1, "the lobby is edited, not posted again"
    await fake.wait_for(lambda: "The series is over." in lobby.content, 30, "the lobby's final state")
    assert not live_hands(fake, alice)
    listed = await (await fake.slash(alice, channel, "skat", subcommand="list")).wait_message()
    assert "(1 of 1 deal" in listed.content, listed.content

    await proc.kill()  # a second restart shows nothing again
    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    listed = await (await fake.slash(alice, channel, "skat", subcommand="list")).wait_message()
    assert "(1 of 1 deal" in listed.content, listed.content
    assert len(public(fake, channel, "Result of deal 1")) == 1 and len(public(fake, channel, "Final ranking")) == 1


async def test_a_channel_that_refuses_for_a_while_gets_its_result_later_and_the_creator_is_told_once(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    channel, lobby = await table_against_ais(fake, alice, channel, deals=4)
    rng = random.Random(6)
    number, hand = await play_until_last_card(fake, alice, 1, rng)  # deal 1 unless it ended early
    fault = fake.inject_error("POST", MESSAGES, status=403, code=50013, message="Missing Permissions", times=10**6,
                              path=f"/api/v10/channels/{channel.id}/messages")
    await (await fake.click(alice, hand, last_card(hand))).wait_acked()
    await fake.wait_for(lambda: stored_deals(database) == number, 30, "the deal stored")
    # The players go on by DM: the next deal's hand arrives although the channel refuses the board.
    await fake.wait_for(lambda: (lambda m: m is not None and m.content.startswith(f"**Your hand** · deal {number + 1}"))(
        latest_hand(fake, alice)), 20, "the next deal's hand by DM")
    told = await fake.wait_for(lambda: [m for m in fake.dms(alice) if "cannot post" in m.content], 30,
                               "the creator told by DM")
    assert f"<#{channel.id}>" in told[0].content
    assert not public(fake, channel, f"Result of deal {number}")
    fault.times = 0
    await fake.wait_for(lambda: public(fake, channel, f"Result of deal {number}"), 30, "the result once posting works")
    await play_until_last_card(fake, alice, number + 1, rng)  # on with the next deal (its board posted when posting works)
    assert len(public(fake, channel, f"Result of deal {number}")) == 1
    assert len([m for m in fake.dms(alice) if "cannot post" in m.content]) == 1, "told once"


async def test_restarts_leave_one_lobby_one_board_and_one_live_hand(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    bob = fake.add_user("bob", dms_open=False)
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, alice, channel, deals=2)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    await (await fake.click(bob, lobby, control_id(lobby, "join"))).wait_acked()
    await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 1" in lobby.content and "bob" in lobby.content, 30, "seated")
    await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()
    await fake.wait_for(lambda: public(fake, channel, "cannot send you direct messages"), 30, "the closed-DM notice")
    await fake.wait_for(lambda: hands(fake, alice), 30, "alice's hand")
    # (Killed in the milliseconds between posting a message and storing its id, a copy would be left over:
    # the kills here come once the hand, the board and the closed-DM notice are remembered.)
    await fake.wait_for(lambda: remembered(database, "hand", alice.id), 30, "alice's hand message remembered")
    await fake.wait_for(lambda: remembered(database, "board", 0), 30, "the board remembered")
    await fake.wait_for(lambda: remembered(database, "dm_notice", bob.id), 30, "the closed-DM notice remembered")
    for restart in (1, 2):
        await proc.kill()
        await proc.restart()
        await proc.wait_connected(commands=("skat",))
        def notices_seen(restart: int = restart) -> bool:
            return len(public(fake, channel, "I was restarted")) == restart
        await fake.wait_for(notices_seen, 30, "the restart notice")
        await asyncio.sleep(1.0)  # the hands are shown right after the notice: give a second copy time to appear
        assert len(hands(fake, alice)) == 1 and len(live_hands(fake, alice)) <= 1
    assert len(public(fake, channel, "Skat table #1")) == 1, "one lobby"
    assert len(public(fake, channel, "**Deal 1 of 2**")) == 1, "one board"
    assert len(public(fake, channel, "cannot send you direct messages")) == 1, "the closed-DM notice once"
    assert len(hands(fake, alice)) == 1 and len(live_hands(fake, alice)) <= 1


async def test_stop_closes_the_hand_messages_and_their_controls_say_so(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    channel, _ = await table_against_ais(fake, alice, channel, deals=2)
    hand = await fake.wait_for(lambda: (lambda m: m if m is not None and game_controls(m) else None)(
        latest_hand(fake, alice)), 30, "alice's turn")
    control = game_controls(hand)[0]
    await (await fake.slash(alice, channel, "skat", subcommand="stop")).wait_message()
    await fake.wait_for(lambda: not live_hands(fake, alice), 30, "alice's hand closed")
    await proc.kill()
    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    ix = await fake._dispatch(3, alice, fake.channel(hand.channel_id),  # her old button, as an old client sends it
                              {"custom_id": control["custom_id"], "component_type": control["type"],
                               "values": [o["value"] for o in control.get("options", [])][:control.get("min_values", 1)]},
                              hand)
    reply = await ix.wait_message()
    assert "This table was closed." in reply.content
    assert len(public(fake, channel, "The table was closed: its creator or a server manager stopped it.")) == 1, "the closing notice once"


def log_rows(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT COUNT(*) FROM table_log").fetchone()[0])


async def test_a_slow_database_shows_the_move_pending_then_recorded(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """Another connection holds SQLite's write lock while alice clicks: she sees her move pending (not
    silently accepted), and then that it was recorded, once it is stored."""
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    channel, _ = await table_against_ais(fake, alice, channel, deals=1)
    def now_drawn() -> Message | None:  # alice's hand, with buttons drawn for the table's moment now
        hand = latest_hand(fake, alice)
        now = f":s{log_rows(database)}:"
        return hand if hand is not None and any(c["type"] == 2 and now in str(c["custom_id"])
                                                for c in game_controls(hand)) else None

    hand = await fake.wait_for(now_drawn, 30, "alice's turn")
    button = next(c for c in game_controls(hand) if c["type"] == 2)
    rows = log_rows(database)
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, as a busy second process or a backup would hold it
    try:
        click = await fake.click(alice, hand, button["custom_id"])
        assert await click.wait_acked() == 5, "a pending move is shown as pending (thinking), not accepted"
        await asyncio.sleep(1.0)
        assert log_rows(database) == rows, "nothing stored while the lock is held"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    reply = await click.wait_message(30)
    assert reply.visibility == "ephemeral" and reply.content == "Your move is recorded."
    assert log_rows(database) > rows


async def test_a_lobby_posted_just_before_a_crash_is_brought_up_to_date_not_left_as_it_was(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """Killed between posting the lobby and storing its id: after the restart the bot posts it again with the same
    nonce, Discord gives back the lobby it made the first time (as it was then), and the bot edits it to show
    the table as it is now (bob, who joined after the restart), rather than leaving the old one standing."""
    fake, alice, bob, channel = club.fake, club.alice, club.bob, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, alice, channel, deals=1)
    await fake.wait_for(lambda: lobby_remembered(database), 30, "the lobby remembered")
    await proc.kill()
    with sqlite3.connect(database) as db:  # as if the kill had come before its id was stored
        db.execute("DELETE FROM shown_messages WHERE role = 'lobby'")
    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    joined = await (await fake.slash(bob, channel, "skat", subcommand="join")).wait_message(30)
    assert joined.content == "You sit at table #1.", joined.content
    await fake.wait_for(lambda: any("alice" in m.content and "bob" in m.content
                                    for m in public(fake, channel, "Skat table #1")), 30, "the lobby with bob")
    assert len(public(fake, channel, "Skat table #1")) == 1, "one lobby"


def lobby_remembered(database: Path) -> bool:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT 1 FROM shown_messages WHERE role = 'lobby'").fetchone() is not None


async def test_result_cards_owed_after_an_outage_come_out_in_the_order_of_the_log(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """The channel refuses the first deal's result card for a while (its other posts go through): the second
    deal's result and the final ranking wait for it, and once it is taken the three come out in the order the
    deals were played, each once."""
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    channel, _ = await table_against_ais(fake, alice, channel, deals=2)
    fault = fake.inject_error("POST", MESSAGES, status=403, code=50013, message="Missing Permissions", times=10**6,
                              path=f"/api/v10/channels/{channel.id}/messages",
                              where=lambda body: isinstance(body, dict) and "Result of deal 1" in str(body.get("content")))
    rng = random.Random(6)
    await play_until_stored(fake, alice, database, 2, rng)
    refused = 10**6 - fault.times
    await fake.wait_for(lambda: 10**6 - fault.times > refused, 30, "the first result asked again after the series")
    fault.times = 0
    await fake.wait_for(lambda: public(fake, channel, "Result of deal 1"), 30, "the first result once it is taken")
    await fake.wait_for(lambda: public(fake, channel, "Final ranking"), 30, "the final ranking")
    posted = [(m.id, text) for text in ("Result of deal 1", "Result of deal 2", "Final ranking")
              for m in public(fake, channel, text)]
    assert [text for _, text in sorted(posted)] == ["Result of deal 1", "Result of deal 2", "Final ranking"]
