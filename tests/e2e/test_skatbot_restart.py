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

from skatbot.app import AI_WORKER_NAME
from skatbot.ui.controls import MoveControl, parse_control
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import FACE, assert_hands_match_database, assert_no_public_leaks
from tests.e2e.skat_players import (
    button_move,
    cards_in,
    game_controls,
    kind_of,
    latest_hand,
    play_out,
    whose_turn,
)


def logged_actions(database: Path) -> list[str]:
    with sqlite3.connect(database) as db:
        return [row[0].split(" ", 3)[3] for row in db.execute(
            "SELECT entry FROM table_log WHERE entry LIKE 'act %' ORDER BY seq")]


def deal_of(hand: Message | None) -> int:
    """The deal a hand message is for ("**Your hand** · deal 2 · ...")."""
    shown = re.match(r"\*\*Your hand\*\* · deal (\d+)", hand.content if hand is not None else "")
    assert shown is not None, hand
    return int(shown.group(1))


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
    # Three deals: the kills below come in deal 1, or in deal 2 where deal 1 ended early (a null game lost at a
    # trick), and a deal always follows them.
    _, channel = await open_table(fake, alice, channel, deals=3)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()
    rng = random.Random(8)

    def card_turn() -> Message | None:
        message = latest_hand(fake, alice)
        if message is None or deal_of(message) > 2:
            return None
        return message if any(kind_of(c) == "card" for c in game_controls(message)) else None

    def alice_to_move() -> Message | None:
        message = latest_hand(fake, alice)
        return message if message is not None and game_controls(message) else None

    # Bid on (never pass) until alice has played two cards of a deal and it is her turn again.
    for _ in range(120):
        found = await fake.wait_for(alice_to_move, 30, "alice's turn")
        message = card_turn()
        if message is not None and len(message.content.splitlines()[1].split()) <= 8:
            break
        await button_move(fake, alice, found, rng, avoid=("pass",))
    old_hand = card_turn()
    assert old_hand is not None, "alice never reached the middle of a deal"
    number = deal_of(old_hand)

    def the_board() -> Message | None:  # (it follows her hand)
        return next((m for m in fake.messages(channel) if m.content.startswith(f"**Deal {number} of 3**")), None)
    board_before = await fake.wait_for(the_board, 30, "the deal's board")

    await proc.kill()
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: any("I was restarted" in t for t in public_texts(fake, channel)), 30,
                        "the restart notice")
    # The board is the one from before the crash (edited, not posted again), and goes on with the same deal:
    # alice's cards on it and in her hand make her ten.
    fresh_board = board_before
    assert [m.id for m in fake.messages(channel) if m.content.startswith(f"**Deal {number} of 3**")] == \
        [board_before.id]
    # (The channel's messages follow the DMs on a queue of their own: the kill may have come before the board
    # caught up, and its edit on resuming follows the notice.)
    await fake.wait_for(lambda: "plays **" in fresh_board.content and "\n1. " in fresh_board.content and len(
        re.findall(r"alice [♣♠♥♦]", FACE.sub("", fresh_board.content))) + len(cards_in(old_hand)) == 10, 30,
        "the board as the deal stands")

    # A button from before the crash still plays.
    card = next(c for c in game_controls(old_hand) if kind_of(c) == "card")
    click = await fake.click(alice, old_hand, card["custom_id"])
    assert await click.wait_acked() == 6
    played = card["label"]
    await fake.wait_for(lambda: f"alice {played}" in FACE.sub("", fresh_board.content), 30,
                        "the old button's card on the board")

    # An acknowledged click is a stored move: killed right after the acknowledgement, the move is in the log.
    # (A hand not yet redrawn for the moment now is refused as stale, and a move the database holds up is
    # shown as pending: only a silent acknowledgement, or "recorded", says the move was accepted. Her next
    # button is a card, or a bid where the old button's card ended the deal.)
    for _ in range(40):
        hand = await fake.wait_for(alice_to_move, 30, "alice's next turn")
        buttons = [c for c in game_controls(hand) if c["type"] == 2 and kind_of(c) != "pass"]
        if not buttons:  # a menu (discard, declare): chosen, and on to her next button
            await button_move(fake, alice, hand, rng)
            continue
        button = next((c for c in buttons if kind_of(c) == "card"), buttons[0])
        stored_before = len(logged_actions(database))
        click = await fake.click(alice, hand, str(button["custom_id"]))
        answer = await click.wait_acked()
        if answer == 6 or (answer == 5 and "recorded" in (await click.wait_message(30)).content):
            break
        def redrawn(hand: Message = hand) -> bool:
            return hand.deleted or latest_hand(fake, alice) is not hand or len(hand.history) > 1
        with contextlib.suppress(TimeoutError):  # a loaded machine may redraw later: look again either way
            await fake.wait_for(redrawn, 30, "a fresh hand")
    await proc.kill()  # (the AIs may have played on before the kill: the move is among what was stored since)
    made = parse_control(str(button["custom_id"]))
    assert isinstance(made, MoveControl) and str(made.action) in logged_actions(database)[stored_before:]
    await proc.start()
    await proc.wait_connected(commands=("skat",))

    # Killed again the moment the result of the deal she plays now is public (its record was stored before it
    # was shown).
    now = deal_of(latest_hand(fake, alice))
    await play_out(fake, [alice], lambda: any(f"Result of deal {now}**" in t for t in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    await proc.kill()
    assert counted(database, alice.id) == (list(range(1, now + 1)), now)
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    await play_out(fake, [alice], lambda: any("The series is over" in t for t in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    results = [t for m in fake.messages(channel) if m.visibility == "public"
               for t in [m.content] if t.startswith("**Result of deal")]
    assert sorted(r.split("\n")[0] for r in results) == [f"**Result of deal {n}**" for n in (1, 2, 3)]
    assert counted(database, alice.id) == ([1, 2, 3], 3)
    # The storage's own check: every stored deal and the table log replay to the stored results.
    check = await asyncio.create_subprocess_exec(sys.executable, "-m", "skatbot.storage", "--database",
                                                 str(database), "check", stdout=asyncio.subprocess.PIPE,
                                                 stderr=asyncio.subprocess.STDOUT)
    output, _ = await check.communicate()
    assert check.returncode == 0 and "3 deals" in output.decode(), output.decode()
    assert_no_public_leaks(fake, [alice], min_deals=3, database=database)
    assert_hands_match_database(fake, [alice], database)
    # Two restarts in deal 1: its hand picture was found in the DM and kept up to date, never sent again.
    pictures = [m for m in fake.messages(fake.dm_channel(alice), include_deleted=True)
                if any(a.filename == "hand-1.png" for version in m.history for a in version.attachments)]
    assert len(pictures) == 1 and not pictures[0].deleted and len(pictures[0].history) > 1
    fake.assert_clean(allow_rejections=False)



def worker_pids(bot_pid: int, name: str) -> list[int]:
    """The bot's live worker processes of one pool: its children named `name` (/proc/PID/comm, set by each worker
    as it starts; every pool's command line is multiprocessing's spawn entry point)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            comm = (entry / "comm").read_text().strip()
        except (OSError, ValueError):
            continue
        if int(parent) == bot_pid and comm == name and state != "Z":
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
            lambda: worker_pids(bot_pid, AI_WORKER_NAME) or whose_turn(fake, [alice]), 30,
            "the AI workers or alice's turn")
        if isinstance(found, list):
            break
        await button_move(fake, alice, found[1], rng, avoid=("pass",))
    killed = await fake.wait_for(lambda: worker_pids(bot_pid, AI_WORKER_NAME), 60, "the AI workers")
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    await play_out(fake, [alice], lambda: any("The series is over" in t for t in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    assert counted(database, alice.id) == ([1, 2], 2)
    # The AI pool was replaced, and the AIs decided the deals' later moves in fresh workers (not on the bot's
    # event loop for the rest of its life); the picture process was left alone.
    assert "the AI worker pool broke" in proc.output()
    fresh = worker_pids(bot_pid, AI_WORKER_NAME)
    assert fresh and not set(fresh) & set(killed), (killed, fresh)
    assert "the picture pool broke" not in proc.output()
    fake.assert_clean(allow_rejections=False)
