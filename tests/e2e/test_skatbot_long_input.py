"""Input at Discord's own limits and forged control values: a valid, friendly answer, and nothing changes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.skat_helpers import open_table, public_texts, start_skatbot
from tests.e2e.skat_players import game_controls, whose_turn
from tests.e2e.test_skatbot_play import open_against_ais
from tests.e2e.test_skatbot_refusals import QUIET, Snapshot, forged_click, refused, settled

BAD_CONTROL = "Not allowed: that button or menu choice is not one I offered."


async def test_a_refusal_echoing_six_thousand_characters_reaches_the_player(club: Club, start_bot: StartBot,
                                                                          tmp_path: Path) -> None:
    """Discord allows 6,000 characters in a string option; quoting them all back would exceed the 2,000 of a
    message and the interaction would fail ("The application did not respond")."""
    fake, alice, channel = club.fake, club.alice, club.channel
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    answer = await refused(fake, alice, channel, "play", card="Q" * 6000)
    assert answer == "'" + "Q" * 59 + "…' is not a card. Write it as the bot shows it, like ♣J, ♠10, ♥Q (or CJ, ST), or pick one from the list."
    german = fake.add_user("dieter", locale="de")
    assert await refused(fake, german, channel, "discard", first="ä" * 6000, second="CJ") == \
        "'" + "ä" * 59 + "…' ist keine Karte. Schreib sie, wie der Bot sie zeigt, etwa ♣B, ♠10, ♥D (oder CJ, ST), oder wähl eine aus der Liste."
    fake.assert_clean(allow_rejections=False)


async def settled_turn(fake: FakeDiscord, user: User, channel: Channel,
                       database: Path) -> tuple[User, Message]:
    """The user's turn once the table has stopped moving: its log and public messages unchanged for longer than
    the presenter's pacing of board edits (a loaded machine can show the hand before the computer players'
    last step is through, and the hand of one's turn goes out at once, the board's edit up to a second later),
    so a snapshot taken now can only change by what the test itself does."""
    for _ in range(20):
        found = await fake.wait_for(lambda: whose_turn(fake, [user]), 30, f"{user.name}'s turn")
        before = Snapshot(fake, channel, database)
        await asyncio.sleep(QUIET)
        if before.take() == before.before and whose_turn(fake, [user]) == found:
            return found
    raise AssertionError(f"the table never settled on {user.name}'s turn")


async def test_forged_control_values_are_refused_and_change_nothing(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database))
    _, lobby_channel = await open_table(fake, alice, fake.add_channel(club.guild, "lobby"), deals=1)
    lobby = await fake.wait_for_message(lobby_channel, lambda m: "Skat table" in m.content)
    snapshot = await settled(fake, lobby_channel, database)
    assert "unknown AI level" in await forged_click(fake, alice, lobby, "sk:1:0:addai:genius")
    assert await forged_click(fake, alice, lobby, "sk:one:0:pass:") == BAD_CONTROL
    assert await forged_click(fake, alice, lobby, "lb:en:all:list:9") == BAD_CONTROL
    snapshot.assert_unchanged()

    _, channel = await open_against_ais(fake, alice, club, deals=1)
    _, hand = await settled_turn(fake, alice, channel, database)
    deal = ":".join(str(game_controls(hand)[0]["custom_id"]).split(":")[:3]) + ":"
    snapshot = await settled(fake, channel, database)
    assert await forged_click(fake, alice, hand, deal + "bid abc") == BAD_CONTROL
    assert await forged_click(fake, alice, hand, deal + "play ZZ") == BAD_CONTROL
    snapshot.assert_unchanged()
    assert not any("genius" in text or "abc" in text for text in public_texts(fake, channel))
    fake.assert_clean(allow_rejections=False)
