"""Issue 13's leftovers, probed end to end: a player who left cannot play his seat from his old hand (the
stand-in plays; /skat join brings him back), and /skat stop racing the AIs' moves is a normal outcome (no
error logged)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, Message
from tests.e2e.skat_helpers import control_id, open_table, start_skatbot
from tests.e2e.skat_players import game_controls, latest_hand

LEFT = "You left this table and an AI plays your seat. Use /skat join to come back."


def log_rows(database: Path) -> int:
    with sqlite3.connect(database) as db:
        return int(db.execute("SELECT COUNT(*) FROM table_log").fetchone()[0])


async def test_a_player_who_left_cannot_play_his_seat_from_his_old_hand(club: Club, start_bot: StartBot,
                                                                         tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    carol = fake.add_user("carol")
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, alice, channel, deals=2)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    await (await fake.click(carol, lobby, control_id(lobby, "join"))).wait_acked()
    await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "carol" in lobby.content and "AI 1" in lobby.content, 30, "seated")
    await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()
    old: Message = await fake.wait_for(lambda: latest_hand(fake, carol), 30, "carol's hand")
    left = await (await fake.slash(carol, channel, "skat", subcommand="leave")).wait_message()
    assert "left" in left.content.lower(), left.content
    # A control of her old hand drawn for the moment now, pressed as an old client would send it (its
    # buttons may be gone): refused as hers no longer, nothing stored.
    rows = log_rows(database)
    ix = await fake._dispatch(3, carol, fake.channel(old.channel_id),
                              {"custom_id": f"sk:1:s{rows}:pass", "component_type": 2}, old)
    answer = await ix.wait_message()
    assert answer.content == LEFT, answer.content
    # The stand-in plays her seat: the table goes on without her (alice's moves and the AIs').
    async def alice_moves() -> None:
        hand = latest_hand(fake, alice)
        if hand is not None and game_controls(hand):
            control = game_controls(hand)[0]
            if control["type"] == 2:
                await fake.click(alice, hand, str(control["custom_id"]))
            else:
                await fake.select(alice, hand, str(control["custom_id"]),
                                  [o["value"] for o in control["options"]][:control.get("min_values", 1)])
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60  # ends as soon as the table went on (seconds under load, not a timing)
    while log_rows(database) <= rows + 3 and loop.time() < deadline:
        with contextlib.suppress(ValueError):
            await alice_moves()
        try:
            await fake.wait_for(lambda: log_rows(database) > rows + 3, 1.0, "the table going on")
        except TimeoutError:
            continue
    assert log_rows(database) > rows + 3, "the table went on with the stand-in"
    back = await (await fake.slash(carol, channel, "skat", subcommand="join")).wait_message()
    assert "joined" in back.content.lower() or "table #1" in back.content, back.content


async def test_stop_racing_the_ais_logs_no_error(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    database = tmp_path / "skat.sqlite3"
    proc = await start_skatbot(fake, start_bot, str(database))

    def closing_notices(where: Channel) -> int:
        return len([m for m in fake.messages(where) if m.visibility == "public"
                    and m.content.startswith("The table was closed")])

    for attempt in range(3):
        _, where = await open_table(fake, alice, channel, deals=2)
        def is_lobby(message: Message, n: int = attempt + 1) -> bool:
            return f"Skat table #{n}" in message.content
        lobby = await fake.wait_for_message(where, is_lobby)
        for _ in range(2):
            await (await fake.click(alice, lobby, control_id(lobby, "addai"))).wait_acked()
        def two_ais(lobby: Message = lobby) -> bool:
            return "AI 2" in lobby.content
        await fake.wait_for(two_ais, 30, "two AIs seated")
        await (await fake.click(alice, lobby, control_id(lobby, "start"))).wait_acked()
        stopped = await (await fake.slash(alice, where, "skat", subcommand="stop")).wait_message()
        assert stopped.content == "Done.", stopped.content
        def closed(where: Channel = where, n: int = attempt + 1) -> bool:
            return closing_notices(where) == n
        await fake.wait_for(closed, 30, "the closing notice")
    errors = [line for line in proc.output().splitlines() if " ERROR " in line or "Traceback" in line]
    assert not errors, "\n".join(errors)
