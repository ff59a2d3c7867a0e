"""A player whose DMs are closed plays a whole deal through ephemeral messages in the channel, with the hand's
picture that only they see."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

from skatbot.pictures import cards_shown
from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import CARD, HAND_PICTURE, assert_hands_match_database, assert_no_public_leaks
from tests.e2e.skat_players import Moves, button_move, game_controls, latest_hand
from tests.e2e.test_skatbot_refusals import log_rows


def show_buttons(message: Message) -> list[str]:
    return [c["custom_id"] for c in message.buttons() if control_kind(c) == "show"]


async def test_closed_dms_play_by_ephemeral_controls(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, bob, channel = club.fake, club.bob, club.channel
    eve = fake.add_user("eve")
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    opened, channel = await open_table(fake, bob, channel, deals=1)
    assert opened == "Table #1 is open.", opened
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(bob, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    await (await fake.click(bob, lobby, control_id(lobby, "start"))).wait_acked()

    notice = await fake.wait_for_message(channel, lambda m: "cannot send you direct messages" in m.content)
    assert f"<@{bob.id}>" in notice.content and show_buttons(notice)
    assert any(c.status == 403 for c in fake.rejections), "the bot tried the DM first"
    # A stranger pressing the public "Show my hand" learns nothing.
    stranger = await fake.click(eve, notice, show_buttons(notice)[0])
    refusal = await stranger.wait_message()
    assert refusal.visibility == "ephemeral" and refusal.viewer_id == eve.id
    assert "not sitting at this table" in refusal.content

    hand = await (await fake.slash(bob, channel, "skat", subcommand="hand")).wait_message()
    assert hand.visibility == "ephemeral" and hand.content.startswith("**Your hand**")
    # the hand's picture, as a DM would have it, follows into the same message
    (picture,) = await fake.wait_for(lambda: hand.attachments, 30, "bob's hand picture")
    assert picture.filename == "hand-1.png" and len(picture.data) < 60_000
    assert {card.display for card in cards_shown(picture.data) or ()} == set(CARD.findall(hand.content.splitlines()[1]))
    pings_before = len([m for m in fake.messages(channel, include_deleted=True) if "🔔" in m.content])
    interactions_before = len(fake.interactions)

    rng = random.Random(3)
    clicked: set[int] = {notice.id}
    moves = Moves()

    def over() -> bool:
        return any("Result of deal 1" in text for text in public_texts(fake, channel))

    def next_step() -> tuple[str, Message] | str | None:
        if over():
            return "done"
        mine = latest_hand(fake, bob)
        if mine is not None and game_controls(mine):
            return ("play", mine)
        for message in fake.messages(channel):
            if message.id not in clicked and f"<@{bob.id}>" in message.content and show_buttons(message):
                return ("show", message)
        return None

    shown = 0
    for _ in range(100):
        step: tuple[str, Message] | str = await fake.wait_for(next_step, 30, "bob's turn or the end")
        if isinstance(step, str):  # "done"
            break
        what, message = step
        if what == "show":
            clicked.add(message.id)
            reply = await (await fake.click(bob, message, show_buttons(message)[0])).wait_message()
            assert reply.visibility == "ephemeral" and reply.viewer_id == bob.id
            shown += 1
        else:
            assert message.visibility == "ephemeral"
            await button_move(fake, bob, message, rng, moves, avoid=("pass", "declare"))  # bids, picks up: played
    assert over() and moves.kinds.get("card", 0) >= 1, (moves, shown)
    # His ephemeral hand came back to him through his last interaction: one click per move, no "Show my
    # hand" in between, and no public ping each turn.
    # (a ping of his first turn may precede /skat hand; a deal that ends early, a null game lost at a trick,
    # leaves him as few as a bid and a card)
    assert shown <= 1 and moves.buttons >= 2, (moves, shown)
    assert len(fake.interactions) - interactions_before == moves.buttons + shown
    assert len([m for m in fake.messages(channel, include_deleted=True) if "🔔" in m.content]) == pings_before
    assert not fake.dms(bob), "nothing reached bob's closed DMs"
    with_pictures = [m for m in fake.messages(include_deleted=True)
                     if any(HAND_PICTURE.fullmatch(a.filename) for v in m.history for a in v.attachments)]
    assert all(m.visibility == "ephemeral" and m.viewer_id == bob.id for m in with_pictures), \
        "bob's hand pictures reach bob alone"
    hands_drawn = {tuple(cards_shown(a.data) or ()) for m in with_pictures for v in m.history for a in v.attachments}
    assert len(hands_drawn) >= 2, "the picture follows the hand as bob plays from the ephemeral messages"
    await fake.wait_for(lambda: any("The series is over" in text for text in public_texts(fake, channel)),
                        10, "the final ranking")
    assert_no_public_leaks(fake, [bob], database=tmp_path / "skat.sqlite3")
    assert assert_hands_match_database(fake, [bob], tmp_path / "skat.sqlite3") > len(with_pictures)  # pictures too
    assert [(c.status, c.route) for c in fake.rejections] == [(403, "/api/v10/channels/{channel_id}/messages")], \
        "one refused DM, then no more tries"
    fake.assert_clean()


async def test_a_move_pending_on_a_slow_database_redraws_the_ephemeral_hand(club: Club, start_bot: StartBot,
                                                                            tmp_path: Path) -> None:
    """Bob (closed DMs) clicks on his ephemeral hand while another connection holds SQLite's write lock: he sees
    the move pending, then recorded, and the hand he clicked on is redrawn (its controls' moment has passed;
    left as they were, each would be refused as stale)."""
    fake, bob = club.fake, club.bob
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, bob, club.channel, deals=1)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(bob, lobby, control_id(lobby, "addai"))).wait_acked(30)
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    await (await fake.click(bob, lobby, control_id(lobby, "start"))).wait_acked(30)
    await fake.wait_for_message(channel, lambda m: "cannot send you direct messages" in m.content, timeout=30)
    for _ in range(100):  # his hand as it is at his turn (the computer players move on by themselves till then)
        rows = log_rows(database)
        hand = await (await fake.slash(bob, channel, "skat", subcommand="hand")).wait_message(30)
        buttons = [c for c in game_controls(hand) if c["type"] == 2 and f":s{rows}:" in str(c["custom_id"])]
        if buttons and log_rows(database) == rows:
            break
        await asyncio.sleep(0.3)
    else:
        raise AssertionError("bob's turn never came")
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, as a busy second process or a backup would hold it
    try:
        click = await fake.click(bob, hand, buttons[0]["custom_id"])
        assert await click.wait_acked(30) == 5, "a pending move is shown as pending (thinking), not accepted"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    reply = await click.wait_message(30)
    assert reply.visibility == "ephemeral" and reply.content == "Your move is recorded."
    assert log_rows(database) > rows
    await fake.wait_for(lambda: not any(f":s{rows}:" in str(c["custom_id"]) for c in hand.buttons()), 30,
                        "the clicked hand redrawn for the moment now")
    assert hand.content.startswith("**Your hand**") and not hand.deleted
    refused_edits = [(c.method, c.route, c.status) for c in fake.rejections if "/webhooks/" in c.route]
    assert not refused_edits, "the hand is edited only with the token of the interaction that made it"
    fake.assert_clean()
