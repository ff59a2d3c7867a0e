"""Killed between posting a message and storing its id, the bot leaves no copy after the restart.

A tap in the fake Discord takes SQLite's write lock the moment the message was posted, so the bot cannot
store the message's id; it is killed right then. After the restart the board is asked for again with the
same nonce (Discord's `enforce_nonce` returns the message made the first time), and a hand message posted
but not remembered is found in the DMs and removed: one board, one hand.
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message
from tests.e2e.skat_helpers import start_skatbot
from tests.e2e.skat_players import button_move, game_controls, latest_hand
from tests.e2e.test_skatbot_outbox import (
    MESSAGES,
    hands,
    live_hands,
    play_until_stored,
    public,
    remembered,
    table_against_ais,
)
from tests.e2e.test_skatbot_pending import write_lock


def content_of(body: Any) -> str:
    return str(body.get("content") or "") if isinstance(body, dict) else ""


def posts(fake: FakeDiscord, text: str) -> list[Any]:
    """The bodies of the bot's message posts whose content starts with `text`."""
    return [call.body for call in fake.rest_log
            if call.method == "POST" and call.route == MESSAGES and content_of(call.body).startswith(text)]


async def test_killed_after_posting_the_board_before_remembering_it_leaves_one_board(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    held: list[sqlite3.Connection] = []
    fake.tap("POST", MESSAGES, lambda: held.append(write_lock(database)),
             where=lambda body: content_of(body).startswith("**Deal 1 of 2**"))
    channel, _ = await table_against_ais(fake, alice, channel, deals=2)
    await fake.wait_for(lambda: held, 30, "the board posted")
    await proc.kill()
    held[0].execute("ROLLBACK")
    held[0].close()
    assert not remembered(database, "board", 0), "killed before the board's id was stored"
    assert len(public(fake, channel, "**Deal 1 of 2**")) == 1

    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: remembered(database, "board", 0), 30, "the board remembered after the restart")
    assert len(public(fake, channel, "**Deal 1 of 2**")) == 1, "the board is not posted twice"
    first, again = posts(fake, "**Deal 1 of 2**")
    assert first["nonce"] == again["nonce"] and again["enforce_nonce"], "asked again with the same nonce"


async def test_killed_after_posting_a_hand_before_remembering_it_leaves_one_hand(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    held: list[sqlite3.Connection] = []
    fake.tap("POST", MESSAGES, lambda: held.append(write_lock(database)),
             where=lambda body: content_of(body).startswith("**Your hand** · deal 1"))
    channel, _ = await table_against_ais(fake, alice, channel, deals=2)
    await fake.wait_for(lambda: held, 30, "alice's hand posted")
    await proc.kill()
    held[0].execute("ROLLBACK")
    held[0].close()
    assert not remembered(database, "hand", alice.id), "killed before the hand's id was stored"

    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: remembered(database, "hand", alice.id), 30, "a hand remembered after the restart")
    assert len(hands(fake, alice)) == 1, "one hand message"
    assert len(live_hands(fake, alice)) <= 1


async def test_killed_after_a_hand_was_sent_again_for_her_turn_leaves_one_hand(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """The hand is sent again when it is her turn (so Discord notifies her); the new one is stored before the
    old one goes. Killed in between, the restarted bot finds the new one in her DMs and removes it.

    A hand is sent again when her turn comes to a hand she has not clicked on: the deal's first hand, drawn
    before her turn (the computer players pause a second before each move, so it is), in a deal where she
    does not speak first. Which deal that is depends on the seats: the deal is noted, and its hands counted
    (a past deal's hand stays, closed)."""
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database), SKATBOT_AI_PAUSE="1")
    held: list[sqlite3.Connection] = []
    seen: dict[str, int] = {}
    again: list[str] = []

    def sent_again(body: Any) -> bool:  # a second hand message of one deal: one sent for her turn
        shown = re.match(r"\*\*Your hand\*\* · deal (\d+) ", content_of(body))
        if shown is None:
            return False
        seen[shown.group(1)] = seen.get(shown.group(1), 0) + 1
        if seen[shown.group(1)] >= 2 and remembered(database, "hand", alice.id):
            again.append(f"**Your hand** · deal {shown.group(1)} ")
            return True
        return False

    def deal_hands(found: list[Message]) -> list[Message]:
        return [m for m in found if m.content.startswith(again[0])]

    fake.tap("POST", MESSAGES, lambda: held.append(write_lock(database)), where=sent_again)
    channel, _ = await table_against_ais(fake, alice, channel, deals=3)
    rng = random.Random(5)
    for _ in range(100):
        def turn_or_held() -> Message | str | None:
            if held:
                return "held"
            hand = latest_hand(fake, alice)
            return hand if hand is not None and game_controls(hand) else None
        found: Message | str = await fake.wait_for(turn_or_held, 30, "alice's turn or her hand sent again")
        if isinstance(found, str):  # "held"
            break
        try:
            await button_move(fake, alice, found, rng, avoid=("pass",))
        except ValueError:  # her hand was replaced meanwhile: look again
            continue
    assert held, "her hand was never sent again"
    await proc.kill()
    held[0].execute("ROLLBACK")
    held[0].close()
    assert len(deal_hands(hands(fake, alice))) == 2, "the new hand posted, the old one not yet removed"

    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: public(fake, channel, "I was restarted"), 30, "the restart notice")
    await fake.wait_for(lambda: len(deal_hands(hands(fake, alice))) == 1, 30, "one hand message")
    assert len(live_hands(fake, alice)) == 1


def shown_up_to(database: Path) -> tuple[int, int, str | None]:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT shown_up_to, shown_in, draft FROM table_shown").fetchone()
    return (int(row[0]), int(row[1]), row[2]) if row else (0, 0, None)


async def test_killed_after_posting_a_result_before_its_position_moved_shows_it_once(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """Discord took deal 1's result card, and the bot is killed before it stored that it was shown (the position
    in the log past the card): the card's text was written down with its position first, so after the restart
    it is found in the channel (and asked for with the same nonce), not posted again; the table plays on."""
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    held: list[sqlite3.Connection] = []
    fake.tap("POST", MESSAGES, lambda: held.append(write_lock(database)),
             where=lambda body: content_of(body).startswith("**Result of deal 1**"))
    channel, _ = await table_against_ais(fake, alice, channel, deals=2)
    await play_until_stored(fake, alice, database, 1, random.Random(5))
    await fake.wait_for(lambda: held, 30, "the result card posted")
    await proc.kill()
    held[0].execute("ROLLBACK")
    held[0].close()
    seq, part, draft = shown_up_to(database)
    assert part == 0 and (draft or "").startswith("**Result of deal 1**"), "killed before the position moved past it"
    assert len(public(fake, channel, "**Result of deal 1**")) == 1

    await proc.restart()
    await proc.wait_connected(commands=("skat",))
    await fake.wait_for(lambda: shown_up_to(database)[:2] > (seq, part), 30, "the position past the card")
    await fake.wait_for(lambda: (lambda h: h is not None and "deal 2" in h.content)(latest_hand(fake, alice)), 30,
                        "deal 2's hand")
    assert len(public(fake, channel, "**Result of deal 1**")) == 1, "the result card is not posted twice"
    assert shown_up_to(database)[2] is None
