"""The bot is stopped the way docker stop or systemd stop it (SIGTERM): it shuts down as after Ctrl-C, and
gives back the due steps it holds (a player's turn timer), so another process sharing the database takes
them over at once instead of a lease later. A second Ctrl-C while it closes ends it at once."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.skat_helpers import control_id, open_table, start_skatbot
from tests.e2e.skat_players import button_move, game_controls, latest_hand, whose_turn
from tests.e2e.test_skatbot_play import open_against_ais
from tests.e2e.test_skatbot_rate_limits import CHANNEL_CALLS


def due_rows(database: Path) -> list[tuple[str, int, int]]:
    """The table's due steps: (kind, due at, held until), in milliseconds."""
    with sqlite3.connect(database) as db:
        return [(str(kind), int(at), int(held)) for kind, at, held in db.execute(
            "SELECT kind, due_at, claimed_until FROM table_due WHERE table_id = 1 ORDER BY kind")]


async def test_sigterm_stops_the_bot_cleanly_and_gives_its_turn_timers_back(club: Club, start_bot: StartBot,
                                                                           tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, alice, channel, deals=1)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()
    await fake.wait_for(lambda: bool(game_controls(latest_hand(fake, alice) or lobby)), 30, "alice's hand")
    await fake.wait_for(lambda: [kind for kind, _, _ in due_rows(database)] == ["timeout", "warn"], 30,
                        "alice's turn timer")
    held = due_rows(database)
    assert all(until > at for _, at, until in held), "held by the bot for a lease past their time"

    assert proc.proc is not None
    proc.proc.send_signal(signal.SIGTERM)
    code = await proc.proc.wait()
    output = proc.output()
    assert code == 0, output
    assert "Traceback (most recent call last)" not in output, output
    assert [(kind, at, until) for kind, at, until in due_rows(database)] == \
        [(kind, at, 0) for kind, at, _ in held], "given back: any process may fire them on time"


async def test_a_second_ctrl_c_while_the_bot_closes_ends_it_at_once(club: Club, start_bot: StartBot,
                                                                    tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    proc = await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    _, channel = await open_against_ais(fake, alice, club, deals=1)
    rng = random.Random(3)
    _, first = await fake.wait_for(lambda: whose_turn(fake, [alice]), 30, "alice's turn")
    # The table's channel takes one message or edit a minute from now on: the board's next edits wait there,
    # and so does a clean close, which shows what the table queued.
    fake.enable_rate_limits({call: (1, 60.0) for call in CHANNEL_CALLS}, channels=[channel])
    await button_move(fake, alice, first, rng, avoid=("pass",))
    await fake.wait_for(lambda: whose_turn(fake, [alice]), 30, "alice's next turn (her DM is not limited)")

    assert proc.proc is not None
    proc.proc.send_signal(signal.SIGINT)
    await proc.wait_for_output("closing cleanly", 30)
    assert proc.running, "the close waits for the channel"
    proc.proc.send_signal(signal.SIGINT)  # impatient: stop now
    # (a generous deadline: a process cut short this way used to wait forever for its database threads)
    code = await asyncio.wait_for(proc.proc.wait(), 30)
    assert code == 0, proc.output()
    assert "stopped before the close was done" in proc.output()
