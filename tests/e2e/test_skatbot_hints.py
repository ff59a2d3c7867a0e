"""Hints through Discord: a table opened with hints:True says so, and the DM's hint button answers the
player alone with the AI's advice and its reason."""

from __future__ import annotations

import random
from pathlib import Path

from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.skat_helpers import open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_no_public_leaks
from tests.e2e.skat_players import button_move, kind_of, play_out


async def test_a_hinted_table_gives_its_player_a_hint(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    _, channel = await open_table(fake, alice, club.channel, deals=1, hints=True)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content and "Hints on" in m.content)
    for _ in range(2):
        await (await fake.click(alice, lobby, next(
            c["custom_id"] for c in lobby.buttons() if control_kind(c) == "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 30, "two AIs seated")
    start = next(c["custom_id"] for c in lobby.buttons() if control_kind(c) == "start")
    await (await fake.click(alice, lobby, start)).wait_acked()

    rng = random.Random(8)
    hints: list[str] = []

    async def move(user: User, message: Message) -> None:
        button = [c for c in message.buttons() if kind_of(c) == "hint"]
        if button and len(hints) < 2:
            answer = await (await fake.click(user, message, button[0]["custom_id"])).wait_message(timeout=30)
            assert answer.visibility in ("ephemeral", "dm") and answer.viewer_id == user.id
            hints.append(answer.content)
        await button_move(fake, user, message, rng, avoid=("pass",))

    await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   move)
    assert hints, "alice never saw a hint button"
    assert all(text.startswith("💡 Hint: ") for text in hints), hints
    result = next(m.content for m in fake.messages(channel) if m.content.startswith("**Result of deal 1**"))
    assert "with hints" in result
    assert_no_public_leaks(fake, [alice], database=database)
