"""The daily challenge killed between its last stored move and the summary it owed: Discord refused the edit that
would have shown the day's results (server errors, retried) and the bot was killed meanwhile. After the restart
the player's DM message still shows their last hand with its controls; a press there plays nothing, turns the
message into the day's summary and tells only them that the challenge is finished; /challenge shows them that
summary again (it answered only "played already: score against par")."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message
from tests.e2e.skat_helpers import start_skatbot
from tests.e2e.skat_players import game_controls
from tests.e2e.test_skatbot_challenge import WAIT, hand, logs, moment, seeded_move

EDIT = "/api/v10/webhooks/{app_id}/{token}/messages/{message_id}"
EVERY = 10**6


def content_of(body: Any) -> str:
    return str(body.get("content") or "") if isinstance(body, dict) else ""


def finished(database: Path, player_id: int) -> bool:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT finished_at FROM challenge_attempts WHERE player_id = ?", (player_id,)).fetchone()
    return row is not None and row[0] is not None


async def test_a_press_after_a_kill_that_cut_off_the_summary_shows_it_and_plays_nothing(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel, owner = club.fake, club.alice, club.channel, club.fake.world.owner
    database = tmp_path / "skat.sqlite3"
    bot = await start_skatbot(fake, start_bot, str(database))
    await fake.wait_for_commands("challenge")
    set_ = await (await fake.slash(owner, channel, "challenge", options={"deals": 3})).wait_message()
    assert "now has 3 deals" in set_.content, set_.content
    await (await fake.slash(alice, channel, "challenge")).wait_message(WAIT)
    summary_refused = fake.inject_error("PATCH", EDIT, status=500, times=EVERY,
                                        where=lambda body: "**: done" in content_of(body))
    rng = random.Random(3)

    def cut_off() -> bool:
        return summary_refused.times < EVERY

    async def press(message: Message) -> None:
        before, versions = moment(message), len(message.history)
        await seeded_move(fake, alice, message, rng)
        await fake.wait_for(lambda: cut_off() or (len(message.history) > versions and moment(message) != before),
                            WAIT, "the challenge to move on, or its summary refused")

    for _ in range(400):
        if cut_off():
            break
        await press(await fake.wait_for(lambda: hand(fake, alice), WAIT, "alice's turn"))
    assert cut_off(), "the summary was asked for"
    await fake.wait_for(lambda: finished(database, alice.id), 30, "the attempt stored finished")
    await bot.kill()  # while discord.py retries the refused edit
    summary_refused.times = 0
    left = hand(fake, alice)
    assert left is not None and game_controls(left), "the DM still shows a hand with its controls"
    moves = logs(database)[alice.id]

    await bot.start()
    await bot.wait_connected(commands=("skat", "challenge"))
    pressed = await fake.click(alice, left, game_controls(left)[0]["custom_id"])
    shown = await pressed.wait_message(WAIT)  # the pressed message itself, edited
    assert shown.id == left.id
    told = await pressed.wait_followup(0, WAIT)
    assert told.visibility == "ephemeral" and told.content.startswith(
        "You have finished this challenge: nothing was played, and the message now shows your results"), told.content
    await fake.wait_for(lambda: "**: done" in left.content, WAIT, "the summary in place of the hand")
    assert "Your total " in left.content
    assert [str(c["custom_id"]).split(":")[0] for c in left.buttons()] == ["rpd"] * 3  # 🎞 per deal, no move
    assert logs(database)[alice.id] == moves, "nothing played"
    again = await fake.slash(alice, channel, "challenge")  # the day's summary again, where only alice sees it
    said = await again.wait_message(WAIT)
    assert said.visibility == "ephemeral" and "You have played today's challenge already" in said.content, said.content
    shown_again = await again.wait_followup(0, WAIT)  # the line replaced the "thinking" answer
    assert shown_again.visibility == "ephemeral" and shown_again.content == left.content
    assert [str(c["custom_id"]).split(":")[0] for c in shown_again.buttons()] == ["rpd"] * 3
