"""Shards: the bot runs as an AutoShardedBot; Discord sends a server's events and interactions to shard
`(server_id >> 22) % shard_count` and direct messages' clicks to shard 0. One process running both shards
of two plays a deal at a table whose server is on shard 1 while the hand clicks arrive on shard 0; the slash
commands are published once (not again at a restart, never by a process without shard 0)."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.fakediscord.gateway import Session, shard_of
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_no_public_leaks
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais


def ready_guilds(session: Session) -> set[int]:
    ready = next(event["d"] for event in session.sent if event["t"] == "READY")
    return {int(guild["id"]) for guild in ready["guilds"]}


async def test_a_table_on_shard_one_plays_while_its_hand_clicks_arrive_on_shard_zero(
        two_shards: FakeDiscord, start_bot: StartBot, tmp_path: Path) -> None:
    fake = two_shards
    lounge = fake.add_guild("Shard Zero Lounge", shard=0)
    club_guild = fake.add_guild("Shard One Club", shard=1)
    assert (shard_of(lounge.id, 2), shard_of(club_guild.id, 2)) == (0, 1)
    club = Club(fake, club_guild, fake.add_channel(club_guild, "skat"), fake.add_user("alice"),
                fake.add_user("bob", dms_open=False))
    database = tmp_path / "skat.sqlite3"
    await start_skatbot(fake, start_bot, str(database), SKATBOT_SHARD_COUNT="2")
    sessions = await fake.wait_for(
        lambda: (lambda live: live if len(live) == 2 else None)(
            {s.shard: s for s in fake.gateway.sessions if s.guilds_sent and not s.closed}),
        20, "both shards to connect")
    assert set(sessions) == {(0, 2), (1, 2)}
    assert ready_guilds(sessions[(0, 2)]) == {lounge.id} and ready_guilds(sessions[(1, 2)]) == {club_guild.id}

    opened, channel = await open_against_ais(fake, club.alice, club, deals=1)
    assert "is open" in opened
    rng = random.Random(4)
    await play_out(fake, [club.alice],
                   lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    await fake.wait_for(lambda: any("The series is over" in text for text in public_texts(fake, channel)),
                        10, "the final ranking")

    in_dms = [ix for ix in fake.interactions if ix.channel.is_dm]
    in_server = [ix for ix in fake.interactions if not ix.channel.is_dm]
    assert in_dms and in_server  # the hand was played from the DMs, the table opened in the channel
    assert {ix.shard for ix in in_dms} == {0} and {ix.shard for ix in in_server} == {1}
    assert all(ix.acknowledged for ix in fake.interactions)
    assert_no_public_leaks(fake, [club.alice], database=database)
    fake.assert_clean(allow_rejections=False)


async def test_the_commands_are_published_once_and_only_by_shard_zeros_process(
        two_shards: FakeDiscord, start_bot: StartBot, tmp_path: Path, schema_url: str) -> None:
    fake, database = two_shards, str(tmp_path / "skat.sqlite3")
    guild = fake.add_guild("Shard One Club", shard=1)
    channel, alice = fake.add_channel(guild, "skat"), fake.add_user("alice")

    def publications() -> int:
        return sum(1 for call in fake.rest_log
                   if (call.method, call.route) == ("PUT", "/api/v10/applications/{app_id}/commands"))

    first = await start_skatbot(fake, start_bot, database, SKATBOT_SHARD_COUNT="1")
    assert publications() == 1
    await first.stop()
    again = await start_skatbot(fake, start_bot, database, SKATBOT_SHARD_COUNT="1")
    await again.wait_for_output("the application commands are published globally already and unchanged")
    await again.stop()
    shard_one = await start_skatbot(fake, start_bot, str(tmp_path / "unused.sqlite3"), SKATBOT_DATABASE_URL=schema_url,
                                    SKATBOT_SHARD_COUNT="2", SKATBOT_SHARD_IDS="1")  # a fresh, shared database
    await shard_one.wait_for_output("shard 0 runs in another process")
    assert publications() == 1  # neither the second start nor shard 1's process (on an empty database)
    opened = await (await fake.slash(alice, channel, "skat", subcommand="new")).wait_message()
    assert "is open" in opened.content and fake.interactions[-1].shard == 1  # shard 1's process serves it
    fake.assert_clean(allow_rejections=False)
