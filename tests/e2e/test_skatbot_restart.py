"""The bot is killed (SIGKILL) mid-deal and restarted on the same database: the table goes on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import sqlite3
import sys
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import FACE, assert_hands_match_database, assert_no_public_leaks
from tests.e2e.skat_players import button_move, cards_in, game_controls, kind_of, latest_hand, play_out, whose_turn


def logged_actions(database: Path) -> list[str]:
    with sqlite3.connect(database) as db:
        return [row[0].split(" ", 3)[3] for row in db.execute(
            "SELECT entry FROM table_log WHERE entry LIKE 'act %' ORDER BY seq")]


def counted(database: Path, player_id: int) -> tuple[list[int], int]:
    """Stored deal numbers of table 1, and how many deals the player's daily statistics count."""
    with sqlite3.connect(database) as db:
        numbers = [row[0] for row in db.execute("SELECT deal_number FROM deals WHERE table_id = 1 ORDER BY 1")]
        played = db.execute("SELECT COALESCE(SUM(deals), 0) FROM player_days WHERE player_id = ?",
                            (player_id,)).fetchone()[0]
    return numbers, int(played)


async def test_killed_mid_deal_the_table_is_restored_and_counted_once(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, alice, channel, deals=2)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()
    rng = random.Random(8)

    def card_turn() -> Message | None:
        message = latest_hand(fake, alice)
        if message is None or not message.content.startswith("**Your hand** · deal 1"):
            return None
        return message if any(kind_of(c) == "card" for c in game_controls(message)) else None

    def alice_to_move() -> Message | None:
        message = latest_hand(fake, alice)
        return message if message is not None and game_controls(message) else None

    # Bid on (never pass) until alice has played two cards of deal 1 and it is her turn again.
    for _ in range(60):
        found = await fake.wait_for(alice_to_move, 30, "alice's turn")
        message = card_turn()
        if message is not None and len(message.content.splitlines()[1].split()) <= 8:
            break
        await button_move(fake, alice, found, rng, avoid=("pass",))
    old_hand = card_turn()
    assert old_hand is not None, "alice never reached the middle of the deal"
    board_before = next(m for m in fake.messages(channel) if m.content.startswith("**Deal 1 of 2**"))

    await proc.kill()
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: any("I was restarted" in t for t in public_texts(fake, channel)), 30,
                        "the restart notice")
    # The board is the one from before the crash (edited, not posted again), and goes on with the same deal:
    # alice's cards on it and in her hand make her ten.
    fresh_board = board_before
    assert [m.id for m in fake.messages(channel) if m.content.startswith("**Deal 1 of 2**")] == [board_before.id]
    # (The channel's messages follow the DMs on a queue of their own: the kill may have come before the board
    # caught up, and its edit on resuming follows the notice.)
    await fake.wait_for(lambda: "plays **" in fresh_board.content and "\n1. " in fresh_board.content and len(
        re.findall(r"alice [♣♠♥♦]", FACE.sub("", fresh_board.content))) + len(cards_in(old_hand)) == 10, 10,
        "the board as the deal stands")

    # A button from before the crash still plays.
    card = next(c for c in game_controls(old_hand) if kind_of(c) == "card")
    click = await fake.click(alice, old_hand, card["custom_id"])
    assert await click.wait_acked() == 6
    played = card["label"]
    await fake.wait_for(lambda: f"alice {played}" in FACE.sub("", fresh_board.content), 30,
                        "the old button's card on the board")

    # An acknowledged click is a stored move: killed right after the acknowledgement, the move is in the log.
    def any_card_turn() -> Message | None:
        message = latest_hand(fake, alice)
        return message if message is not None and any(kind_of(c) == "card" for c in game_controls(message)) \
            else None

    # (A hand not yet redrawn for the moment now is refused as stale, and a move the database holds up is
    # shown as pending: only a silent acknowledgement, or "recorded", says the move was accepted.)
    for _ in range(20):
        hand = await fake.wait_for(any_card_turn, 30, "alice's next card")
        card = next(c for c in game_controls(hand) if kind_of(c) == "card")
        stored_before = len(logged_actions(database))
        click = await fake.click(alice, hand, card["custom_id"])
        answer = await click.wait_acked()
        if answer == 6 or (answer == 5 and "recorded" in (await click.wait_message(30)).content):
            break
        def redrawn(hand: Message = hand) -> bool:
            return hand.deleted or latest_hand(fake, alice) is not hand or len(hand.history) > 1
        with contextlib.suppress(TimeoutError):  # a loaded machine may redraw later: look again either way
            await fake.wait_for(redrawn, 30, "a fresh hand")
    await proc.kill()  # (the AIs may have played on before the kill: the move is among what was stored since)
    assert f"play {card['custom_id'].split(':')[4]}" in logged_actions(database)[stored_before:]
    await proc.start()
    await proc.wait_connected(commands=("skat",))

    # Killed again the moment deal 1's result is public (its record was stored before it was shown).
    await play_out(fake, [alice], lambda: any("Result of deal 1" in t for t in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    await proc.kill()
    assert counted(database, alice.id) == ([1], 1)
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    await play_out(fake, [alice], lambda: any("The series is over" in t for t in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    results = [t for m in fake.messages(channel) if m.visibility == "public"
               for t in [m.content] if t.startswith("**Result of deal")]
    assert sorted(r.split("\n")[0] for r in results) == ["**Result of deal 1**", "**Result of deal 2**"]
    assert counted(database, alice.id) == ([1, 2], 2)
    # The storage's own check: every stored deal and the table log replay to the stored results.
    check = await asyncio.create_subprocess_exec(sys.executable, "-m", "skatbot.storage", "--database",
                                                 str(database), "check", stdout=asyncio.subprocess.PIPE,
                                                 stderr=asyncio.subprocess.STDOUT)
    output, _ = await check.communicate()
    assert check.returncode == 0 and "2 deals" in output.decode(), output.decode()
    assert_no_public_leaks(fake, [alice], min_deals=2, database=database)
    assert_hands_match_database(fake, [alice], database)
    # Two restarts in deal 1: its hand picture was found in the DM and kept up to date, never sent again.
    pictures = [m for m in fake.messages(fake.dm_channel(alice), include_deleted=True)
                if any(a.filename == "hand-1.png" for version in m.history for a in version.attachments)]
    assert len(pictures) == 1 and not pictures[0].deleted and len(pictures[0].history) > 1
    fake.assert_clean(allow_rejections=False)



def worker_pids(bot_pid: int) -> list[int]:
    """The bot's AI worker processes (children running multiprocessing's spawn entry point)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == bot_pid and b"spawn_main" in command:
            pids.append(int(entry.name))
    return pids


async def test_a_killed_ai_worker_does_not_stop_the_table(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, alice, club.channel, deals=2)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()
    assert proc.proc is not None
    bot_pid = proc.proc.pid
    rng = random.Random(12)
    for _ in range(10):  # the workers start with the AIs' first decision: alice may have to speak first
        found: list[int] | tuple[User, Message] = await fake.wait_for(
            lambda: worker_pids(bot_pid) or whose_turn(fake, [alice]), 20, "the AI workers or alice's turn")
        if isinstance(found, list):
            break
        await button_move(fake, alice, found[1], rng, avoid=("pass",))
    workers = await fake.wait_for(lambda: worker_pids(bot_pid), 30, "the AI workers")
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    await play_out(fake, [alice], lambda: any("The series is over" in t for t in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    assert counted(database, alice.id) == ([1, 2], 2)
    assert "the AI worker pool broke" in proc.output() or "the AI executor failed" in proc.output()
    fake.assert_clean(allow_rejections=False)
