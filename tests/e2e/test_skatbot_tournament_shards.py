"""A tournament with two bot processes on one PostgreSQL database: process A runs shard 0 (every direct message,
so the hand clicks, and the deals they finish, land there) and process B shard 1 (the tournament's server). The
deals are stored wherever they finish; B shows the tournament, catches up with the stored deals, and posts
the final list once, with the Seeger-Fabian sums of the stored deal records."""

from __future__ import annotations

import json
import random
from typing import Any

from tests.e2e.conftest import StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.fakediscord.gateway import shard_of
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.skat_processes import assert_no_tracebacks, start_processes
from tests.e2e.test_skatbot_tournament import listed


async def tournament(fake: FakeDiscord, user: User, channel: Channel, subcommand: str, **options: Any) -> Message:
    ix = await fake.slash(user, channel, "tournament", subcommand=subcommand, options=options)
    return await ix.wait_message(60)


async def test_a_tournament_across_two_processes_ends_once_with_the_stored_sums(
        two_shards: FakeDiscord, start_bot: StartBot, schema_url: str) -> None:
    fake = two_shards
    guild = fake.add_guild("Shard One Club", shard=1)
    assert shard_of(guild.id, 2) == 1
    channel, organiser = fake.add_channel(guild, "skat"), fake.world.owner
    people = [fake.add_user(name) for name in ("olga", "paul", "quinn")]
    procs = await start_processes(fake, start_bot, schema_url, ["0", "1"])

    await tournament(fake, organiser, channel, "new", name="Two rooms", deals=3)
    signup = await fake.wait_for_message(channel, lambda m: m.content.startswith("🏆 **Tournament #1: Two rooms**"))
    for user in people:
        await (await fake.click(user, signup, "tournament:join:1")).wait_message(30)
    started = await tournament(fake, organiser, channel, "start")
    assert started.content.startswith("Started: 1 tables drawn by lot"), started.content
    assert fake.interactions[-1].shard == 1  # process B took the command

    rng = random.Random(31)

    def final() -> list[Message]:
        return [m for m in fake.messages(channel) if m.content.startswith("🏆 **Two rooms (#1): the final list**")]

    await play_out(fake, people, lambda: bool(final()), lambda user, message: button_move(
        fake, user, message, rng, avoid=("pass",) if rng.random() < 0.6 else ()), limit=1000, wait=45)
    assert any(ix.shard == 0 for ix in fake.interactions if ix.kind == 3)  # hand clicks arrived at process A
    export = await tournament(fake, people[0], channel, "export")
    document = json.loads({a.filename: a for a in export.attachments}["tournament-1.json"].data)
    assert len(document["deals"]) == 3
    sums: dict[str, int] = {}
    for deal in document["deals"]:
        for score in deal["scores"]:
            sums[score["player"]] = sums.get(score["player"], 0) + score["seeger"]
    (posted,) = final()  # once, though both processes run the tournament's clock
    assert {name: points for _, name, points in listed(posted.content)} == {u.name: sums[u.name] for u in people}
    assert_no_tracebacks(procs)
