"""A tournament with two bot processes on one PostgreSQL database: process A runs shard 0 (every direct message,
so the hand clicks, and the deals they finish, land there) and process B shard 1 (the tournament's server). The
deals are stored wherever they finish; B shows the tournament, catches up with the stored deals, and posts
the final list once, with the Seeger-Fabian sums of the stored deal records."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from skatbot.storage import PostgresStorage
from tests.e2e.conftest import StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.fakediscord.gateway import shard_of
from tests.e2e.server_helpers import run
from tests.e2e.skat_helpers import public_texts
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


PROMPT_SECONDS = 4.0
"""A series' end, shown by the process serving the tournament's server, follows the last deal within this long
although another process stored that deal (the clock, 15 s, is not what moves it on)."""


async def test_the_end_of_a_series_a_deal_stored_in_the_other_process_finished_is_shown_at_once(
        two_shards: FakeDiscord, start_bot: StartBot, schema_url: str) -> None:
    fake = two_shards
    guild = fake.add_guild("Shard One Club", shard=1)
    channel, organiser = fake.add_channel(guild, "skat"), fake.world.owner
    people = [fake.add_user(name) for name in ("olga", "paul", "quinn")]
    procs = await start_processes(fake, start_bot, schema_url, ["0", "1"])
    # Text only: the final list's chart (matplotlib, first drawn in a fresh process) is not what is measured.
    assert (await run(fake, organiser, channel, "settings", pictures="off")).content.startswith("✅ Saved")
    await tournament(fake, organiser, channel, "new", name="Two rooms", deals=3, series=2)
    signup = await fake.wait_for_message(channel, lambda m: m.content.startswith("🏆 **Tournament #1: Two rooms**"))
    for user in people:
        await (await fake.click(user, signup, "tournament:join:1")).wait_message(30)
    await tournament(fake, organiser, channel, "start")
    rng = random.Random(17)
    loop = asyncio.get_running_loop()
    stored: dict[int, float] = {}  # deals stored in the database -> when the test first saw that many

    async def count_stored() -> None:
        storage = await PostgresStorage.open(schema_url)
        try:
            while True:
                stored.setdefault(len(await storage.deals.iter_all()), loop.time())
                await asyncio.sleep(0.05)
        finally:
            await storage.close()

    counting = asyncio.create_task(count_stored())

    async def move(user: User, message: Message) -> None:
        await button_move(fake, user, message, rng, avoid=("pass",) if rng.random() < 0.6 else ())

    def said(start: str) -> bool:
        return any(text.startswith(start) for text in public_texts(fake, channel))

    try:
        for series, end in ((1, "✅ Series 1 of Two rooms is over"), (2, "🏆 **Two rooms (#1): the final list**")):
            deals = 3 * series
            await play_out(fake, people, lambda: deals in stored, move, limit=1000, wait=45)  # noqa: B023
            await fake.wait_for(lambda: said(end), 30, f"the end of series {series}")  # noqa: B023
            waited = loop.time() - stored[deals]
            assert waited < PROMPT_SECONDS, f"series {series}: shown {waited:.1f} s after its last deal was stored"
            if series == 1:
                assert any(ix.shard == 0 for ix in fake.interactions if ix.kind == 3)  # hand clicks: process A
                assert (await tournament(fake, organiser, channel, "next")).content.startswith("Series 2 started")
    finally:
        counting.cancel()
    assert_no_tracebacks(procs)
