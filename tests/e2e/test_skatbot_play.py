"""The real bot, as its own process, against the fake Discord: people play Skat through it."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.conftest import Club
from tests.e2e.skat_helpers import play_until, public_texts, start_skatbot


async def test_one_human_against_two_ais_plays_a_deal_by_buttons(club: Club, start_bot, tmp_path: Path) -> None:
    fake = club.fake
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    reply = await (await fake.slash(club.alice, club.channel, "skat", subcommand="new",
                                    options={"deals": 1})).wait_message()
    assert "is open" in reply.content
    lobby = await fake.wait_for_message(club.channel, lambda m: "Skat table" in m.content)
    for _ in range(2):
        await (await fake.click(club.alice, lobby, next(
            c["custom_id"] for c in lobby.buttons() if c["custom_id"].split(":")[3] == "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 2" in lobby.content, 5, "two AIs seated")
    start = next(c["custom_id"] for c in lobby.buttons() if c["custom_id"].split(":")[3] == "start")
    await (await fake.click(club.alice, lobby, start)).wait_acked()
    await play_until(fake, club.channel, [club.alice], lambda: any(
        "Result of deal 1" in text for text in public_texts(fake, club.channel)), random.Random(4))
    await fake.wait_for(lambda: any("The series is over" in text for text in public_texts(fake, club.channel)),
                        10, "the final ranking")
    board = next(m for m in fake.messages(club.channel) if m.content.startswith("**Deal 1 of 1**"))
    assert "10. " in board.content or "→" in board.content  # the tricks are shown as they fall
    fake.assert_clean()
