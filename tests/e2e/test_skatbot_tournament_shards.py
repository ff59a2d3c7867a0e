"""A tournament with two bot processes on one PostgreSQL database: process A runs shard 0 (every direct message,
so the hand clicks, and the deals they finish, land there) and process B shard 1 (the tournament's server). The
deals are stored wherever they finish; B shows the tournament, catches up with the stored deals, and posts
the final list once, with the Seeger-Fabian sums of the stored deal records."""

from __future__ import annotations

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


CLOCK_OFF = "3600"
"""The tournaments' clock of both processes (SKATBOT_TOURNAMENT_CLOCK) ticks first an hour after they started: in
this test it never ticks, so only the serving process's look at the stored deals can show a series' end."""


async def test_the_end_of_a_series_a_deal_stored_in_the_other_process_finished_is_shown_at_once(
        two_shards: FakeDiscord, start_bot: StartBot, schema_url: str) -> None:
    """Every deal is finished by a hand click in process A (shard 0: direct messages), so process B (the
    tournament's server) hears of none through its own hook, and its clock is off: B shows each series' end
    because it looks at the deals stored at its tournament's tables, or never (the test then fails, whatever
    the machine's speed)."""
    fake = two_shards
    guild = fake.add_guild("Shard One Club", shard=1)
    channel, organiser = fake.add_channel(guild, "skat"), fake.world.owner
    people = [fake.add_user(name) for name in ("olga", "paul", "quinn")]
    procs = await start_processes(fake, start_bot, schema_url, ["0", "1"], SKATBOT_TOURNAMENT_CLOCK=CLOCK_OFF)
    # Text only: the final list's chart (matplotlib, first drawn in a fresh process) is not what is tested.
    assert (await run(fake, organiser, channel, "settings", pictures="off")).content.startswith("✅ Saved")
    await tournament(fake, organiser, channel, "new", name="Two rooms", deals=3, series=2)
    signup = await fake.wait_for_message(channel, lambda m: m.content.startswith("🏆 **Tournament #1: Two rooms**"))
    for user in people:
        await (await fake.click(user, signup, "tournament:join:1")).wait_message(30)
    await tournament(fake, organiser, channel, "start")
    rng = random.Random(17)
    dms = {user.id: fake.dm_channel(user).id for user in people}
    moves: list[int] = []  # the interactions of the players' moves

    async def move(user: User, message: Message) -> None:
        assert message.channel_id == dms[user.id], "the hands go by direct message"
        before = len(fake.interactions)
        await button_move(fake, user, message, rng, avoid=("pass",) if rng.random() < 0.6 else ())
        moves.extend(ix.id for ix in fake.interactions[before:] if ix.user.id == user.id and ix.kind == 3)

    def said(start: str) -> bool:
        return any(text.startswith(start) for text in public_texts(fake, channel))

    async def stored_deals() -> int:
        storage = await PostgresStorage.open(schema_url)
        try:
            return len(await storage.deals.iter_all())
        finally:
            await storage.close()

    for series, end in ((1, "✅ Series 1 of Two rooms is over"), (2, "🏆 **Two rooms (#1): the final list**")):
        await play_out(fake, people, lambda: said(end), move, limit=1000, wait=60)  # noqa: B023
        assert await stored_deals() == 3 * series
        if series == 1:
            assert (await tournament(fake, organiser, channel, "next")).content.startswith("Series 2 started")
    by_id = {ix.id: ix for ix in fake.interactions}
    assert moves and all(by_id[i].shard == 0 for i in moves), "every move, so every deal's end, was process A's"
    assert_no_tracebacks(procs)
