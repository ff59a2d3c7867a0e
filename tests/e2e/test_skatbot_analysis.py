"""The deal analysis through Discord: the result card's Analyse button and /skat scores analyse."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Interaction, Message
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais


async def analysis_answer(fake: FakeDiscord, asked: Interaction) -> Message:
    """The answer once it holds the analysis (a progress message first is replaced by it)."""
    message = await asked.wait_message(timeout=30)
    return await fake.wait_for(lambda: message if "every card open" in message.content and (
        "could be won" in message.content or "could not be won" in message.content) else None, 60,
        "the analysis")


async def test_the_result_card_offers_an_analysis_once_the_deal_is_over(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, bob = club.fake, club.alice, club.bob
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    _, channel = await open_against_ais(fake, alice, club, deals=1)
    rng = random.Random(4)
    for message in fake.messages(channel):
        assert not any(c["custom_id"].startswith("an:") for c in message.buttons())  # nothing before the end
    await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    result = next(m for m in fake.messages(channel) if m.content.startswith("**Result of deal 1**"))
    button = next(c for c in result.buttons() if c["custom_id"].startswith("an:"))
    assert button["label"] == "Analyse"

    # Bob did not play, but may read the record: he gets the analysis, only for him.
    answer = await analysis_answer(fake, await fake.click(bob, result, button["custom_id"]))
    assert answer.visibility == "ephemeral" and answer.viewer_id == bob.id
    lines = answer.content.splitlines()
    assert lines[0].startswith("🔍 **Deal 1**, every card open:")
    assert all(line.startswith(("Trick ", "No card", "·", "With the skat")) for line in lines[2:]), lines

    # The command gives the same lines for the deal's number; an unknown number is refused.
    by_command = await analysis_answer(fake, await fake.slash(alice, channel, "skat", group="scores",
                                                              subcommand="analyse", options={"deal": 1}))
    assert by_command.content == answer.content
    unknown = await (await fake.slash(alice, channel, "skat", group="scores", subcommand="analyse",
                                      options={"deal": 99})).wait_message()
    assert "99" in unknown.content and unknown.visibility == "ephemeral"
    fake.assert_clean(allow_rejections=False)
