"""Pictures through the real bot: the hand in the DM (a new image only when the hand changed), the tricks
under the result card, the list's chart and the player's points chart; none when a server turns them off;
and no public picture shows a hidden card."""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from functools import partial
from pathlib import Path

from skatbot.pictures import cards_shown
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_hands_match_database, assert_no_public_leaks
from tests.e2e.skat_players import _moments, button_move, game_controls, is_hand_message, play_out
from tests.e2e.test_skatbot_play import open_against_ais


async def run(fake: FakeDiscord, user: User, channel: Channel, subcommand: str, group: str | None = None,
              **options: object) -> Message:
    return await (await fake.slash(user, channel, "skat", subcommand=subcommand, group=group,
                                   options=options)).wait_message()


async def play_one_deal(fake: FakeDiscord, alice: User, club: Club, seed: int) -> Channel:
    _, channel = await open_against_ais(fake, alice, club, deals=1)
    rng = random.Random(seed)
    await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    await fake.wait_for(lambda: any("The series is over" in text for text in public_texts(fake, channel)),
                        10, "the final ranking")
    return channel


def hand_pictures(fake: FakeDiscord, user: User) -> list[Message]:
    return [m for m in fake.dms(user) if any(a.filename.startswith("hand-") for v in m.history for a in v.attachments)]


async def test_the_hand_the_tricks_and_the_charts_as_pictures(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    database = str(tmp_path / "skat.sqlite3")
    await start_skatbot(fake, start_bot, database)
    channel = await play_one_deal(fake, alice, club, seed=4)

    pictures = hand_pictures(fake, alice)
    assert len(pictures) == 1, "one picture message per deal"
    shown = [cards_shown(v.attachments[0].data) for v in pictures[0].history]
    assert shown[0] is not None and len(shown[0]) == 10
    assert all(a != b for a, b in zip(shown, shown[1:], strict=False)), "a new image only when the hand changed"
    assert len(shown) <= 13  # ten cards played at most, the skat picked up and put away, the game named
    for version in pictures[0].history:
        attachment = version.attachments[0]
        assert len(attachment.data) < 60_000 and (attachment.description or "").startswith("Your cards: ")
    hand_messages = [m for m in fake.messages(include_deleted=True) if m.viewer_id == alice.id
                     and m.content.startswith("**Your hand**")]
    assert sum(len(m.history) for m in hand_messages) > len(shown)  # the text changes more often than the hand

    result = next(m for m in fake.messages(channel) if m.content.startswith("**Result of deal 1**"))
    (sheet,) = result.attachments
    tricks = cards_shown(sheet.data)
    assert sheet.filename == "tricks.png" and tricks and len(tricks) % 3 == 2  # whole tricks and the skat
    assert len(sheet.data) < 80_000 and "tricks of deal 1" in (sheet.description or "")

    listed = await run(fake, alice, channel, "list")
    assert listed.visibility == "ephemeral" and listed.content.startswith("**Score list**")
    (chart,) = listed.attachments
    assert chart.filename == "list.png" and chart.data.startswith(b"\x89PNG") and len(chart.data) < 80_000
    stats = await run(fake, alice, club.channel, "stats", group="scores")
    # the points chart, and the skill rating chart (the finished series was rated)
    assert stats.visibility == "public" and [a.filename for a in stats.attachments] == ["points.png", "rating.png"]
    assert all(a.data.startswith(b"\x89PNG") and len(a.data) < 80_000 for a in stats.attachments)

    assert_no_public_leaks(fake, [alice], database=database)
    assert assert_hands_match_database(fake, [alice], database) > 0
    fake.assert_clean(allow_rejections=False)


async def test_a_server_without_pictures_gets_text_only(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    changed = await run(fake, fake.world.owner, club.channel, "settings", pictures="off")
    assert "pictures: off (text only)" in changed.content
    channel = await play_one_deal(fake, alice, club, seed=5)
    assert not [a for m in fake.messages(include_deleted=True) for v in m.history for a in v.attachments]
    listed = await run(fake, alice, channel, "list")
    assert listed.content.startswith("**Score list**") and not listed.attachments
    assert_no_public_leaks(fake, [alice])
    fake.assert_clean(allow_rejections=False)


async def test_after_a_restart_each_table_keeps_its_own_hand_picture(club: Club, start_bot: StartBot,
                                                                     tmp_path: Path) -> None:
    """alice plays deal 1 at two tables at once; after a restart each table finds its own hand picture in her DM
    (both are named hand-1.png) and edits it: no picture is sent again, and none shows the other table's cards."""
    fake, alice = club.fake, club.alice
    proc = await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    second = replace(club, channel=fake.add_channel(club.guild, "skat-2"))
    _, first_channel = await open_against_ais(fake, alice, club, deals=1)
    _, second_channel = await open_against_ais(fake, alice, second, deals=1)
    await fake.wait_for(lambda: len(hand_pictures(fake, alice)) == 2, 30, "a hand picture from each table")

    await proc.kill()
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    rng = random.Random(6)

    def over() -> bool:
        return all(any("The series is over" in text for text in public_texts(fake, channel))
                   for channel in (first_channel, second_channel))

    def turn() -> Message | str | None:  # her hand at either table that waits for her
        if over():
            return "over"
        live = [m for m in fake.dms(alice) if is_hand_message(m) and game_controls(m)]
        return live[-1] if live else None

    def moved_on(hand: Message, versions: int, offered: set[str]) -> bool:  # or both series over
        return over() or hand.deleted or (
            len(hand.history) > versions and not offered & _moments(hand, len(hand.history)))

    for _ in range(300):
        found = await fake.wait_for(turn, 30, "alice's turn at either table, or both series over")
        if isinstance(found, str):
            break
        assert isinstance(found, Message)
        versions = len(found.history)
        offered = _moments(found, versions)
        with contextlib.suppress(ValueError):  # the hand moved on meanwhile: look again
            await button_move(fake, alice, found, rng, avoid=("pass",))
        # button_move waits for her newest hand to move on; with two tables the newest may be the other table's,
        # so wait here for the one she pressed: otherwise she presses its old controls again and again (each
        # refused as stale) until the loop runs out, on a machine slow to redraw it.
        await fake.wait_for(partial(moved_on, found, versions, offered), 30, "the pressed hand to move on")
    assert over()
    pictures = hand_pictures(fake, alice)
    assert len(pictures) == 2, "each table's picture was found after the restart, not sent again"
    for picture in pictures:
        assert len(picture.history) > 1, "edited after the restart as the hand changed"
        cards = {card for version in picture.history for card in cards_shown(version.attachments[0].data) or ()}
        assert len(cards) <= 12, "one table's hand (ten cards and the skat), never the other's"
