"""Card faces on every shard: two processes started together on a fresh application (no emojis yet). Shard 0's
process uploads the faces; shard 1's process finds none at its start, looks again, and shows the faces within a
minute of the upload, without a restart."""

from __future__ import annotations

import time

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import BotProcess, FakeDiscord
from tests.e2e.skat_helpers import BOT
from tests.e2e.skat_leaks import FACE
from tests.e2e.skat_processes import process_env
from tests.e2e.test_skatbot_play import open_against_ais


async def test_a_table_on_shard_one_shows_the_faces_shard_zero_uploaded(
        two_shards: FakeDiscord, start_bot: StartBot, schema_url: str) -> None:
    fake = two_shards
    guild = fake.add_guild("Shard One Club", shard=1)
    club = Club(fake, guild, fake.add_channel(guild, "skat"), fake.add_user("alice"),
                fake.add_user("bob", dms_open=False))
    assert not fake.world.application_emojis  # a fresh application
    zero, one = (BotProcess(fake, BOT, env=process_env(schema_url, 2, ids)) for ids in ("0", "1"))
    start_bot.procs += [zero, one]
    await zero.start()
    await one.start()  # together: shard 1's process lists the emojis while shard 0's is still uploading
    await one.wait_for_output("card emojis in use: none", 30)
    await zero.wait_for_output("card emojis ready: french, german", 60)
    uploaded = time.monotonic()
    await one.wait_for_output("card emojis in use: french, german", 60)
    assert time.monotonic() - uploaded < 60
    names = {e.name: e.id for e in fake.world.application_emojis.values()}

    _, channel = await open_against_ais(fake, club.alice, club, deals=1)
    asked = await fake.slash(club.alice, channel, "skat", subcommand="hand")
    hand = await asked.wait_message()
    assert fake.interactions[-1].shard == 1  # answered by shard 1's process
    faces = FACE.findall(hand.content)  # alice's ten cards, each with its face
    assert len(faces) == 10, hand.content
    assert all(int(emoji_id) == names[f"sk1_{deck}_{card}"] for deck, card, emoji_id in faces)
    assert "Traceback (most recent call last)" not in one.output()
