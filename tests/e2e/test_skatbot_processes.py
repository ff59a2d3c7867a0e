"""Any process serves any table: two bot processes share one PostgreSQL database, process A runs shard 0
(every direct message, so every click on a hand in the DMs) and process B shard 1 (the table's server). A
series is played while the players click in their DMs (arriving at A) and use slash commands in their DMs
(A) and in the channel (B): each deal's result is shown once and counted once. Two clicks for the same
moment arriving at the same instant, one at each process, apply once; the other is refused as stale."""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
import re
import sys
from collections import Counter

from skatbot.storage import PostgresStorage
from tests.controls import control_kind
from tests.e2e.conftest import StartBot
from tests.e2e.fakediscord import Channel, FakeDiscord, Message, User
from tests.e2e.fakediscord.gateway import shard_of
from tests.e2e.skat_helpers import open_table, public_texts
from tests.e2e.skat_leaks import assert_no_public_leaks
from tests.e2e.skat_players import button_move, game_controls, is_hand_message, kind_of, play_out, slash_move
from tests.e2e.skat_processes import assert_no_tracebacks, start_processes, stored_log
from tests.storage.storage_helpers import final_ranking

ROUTES = ("button in the DM", "slash in the DM", "slash in the channel")


def dm_hand(fake: FakeDiscord, user: User) -> Message | None:
    """The newest live hand message in the user's DMs (not an ephemeral copy from /skat hand)."""
    mine = [m for m in fake.dms(user) if not m.deleted and is_hand_message(m)]
    return mine[-1] if mine else None


def drawn_at(message: Message) -> set[str]:
    """The moments (sequence numbers) the message's controls were drawn for."""
    return {str(c["custom_id"]).split(":")[2] for c in message.walk_components() if str(c.get("custom_id", "")).startswith("sk:")}


def moved_past(fake: FakeDiscord, user: User, message: Message, drawn: set[str]) -> bool:
    """The user's newest hand no longer offers controls drawn for the moment of their move. (With two
    processes the process showing the moment before the move may still edit the hand, or send it again as
    the player's turn, after the move was made in the other.)"""
    newest = dm_hand(fake, user)
    return newest is None or not drawn & drawn_at(newest)


def whose_turn_in_dms(fake: FakeDiscord, users: list[User]) -> tuple[User, Message] | None:
    for user in users:
        message = dm_hand(fake, user)
        if message is not None and game_controls(message):
            return user, message
    return None


async def table_id_of(database_url: str) -> int:
    storage = await PostgresStorage.open(database_url)
    try:
        [table_id] = [int(row[0]) for row in await storage.database.fetch_all("SELECT table_id FROM tables")]
        return table_id
    finally:
        await storage.close()


async def shard_one_table(fake: FakeDiscord, users: list[User], deals: int, ais: int) -> Channel:
    """The first user opens a table on shard 1's server (slash commands there reach process B); the others
    join with the lobby's button, AIs are seated by /skat add-ai, and /skat start starts it."""
    guild = fake.add_guild("Shard One Club", shard=1)
    assert shard_of(guild.id, 2) == 1
    channel = fake.add_channel(guild, "skat")
    for user in users:
        fake.add_member(guild, user)
    opened, where = await open_table(fake, users[0], channel, deals=deals)
    assert "is open" in opened and where is channel
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    for user in users[1:]:
        join = next(c["custom_id"] for c in lobby.buttons() if control_kind(c) == "join")
        await (await fake.click(user, lobby, join)).wait_acked()
        def seated(name: str = user.name) -> bool:
            return name in lobby.content
        await fake.wait_for(seated, 30, f"{user.name} seated")
    for _ in range(ais):
        await (await fake.slash(users[0], channel, "skat", subcommand="add-ai")).wait_message()
    started = await (await fake.slash(users[0], channel, "skat", subcommand="start")).wait_message()
    assert started.content == "Done.", started.content
    return channel


async def test_a_series_plays_across_two_processes_and_each_deal_is_shown_and_counted_once(
        two_shards: FakeDiscord, schema_url: str, start_bot: StartBot) -> None:
    fake = two_shards
    alice, bob = fake.add_user("alice", guilds=[]), fake.add_user("bob", guilds=[])
    process_a, process_b = await start_processes(fake, start_bot, schema_url, ["0", "1"])
    channel = await shard_one_table(fake, [alice, bob], deals=2, ais=1)
    rng = random.Random(12)
    routes = itertools.cycle(ROUTES)
    used: Counter[str] = Counter()

    def series_over() -> bool:
        return any("The series is over" in text for text in public_texts(fake, channel))

    async def move(user: User, message: Message) -> None:
        route = next(routes)
        drawn = drawn_at(message)
        if route == "button in the DM":
            await button_move(fake, user, message, rng, avoid=("pass",))
        else:
            await slash_move(fake, user, fake.dm_channel(user) if route == "slash in the DM" else channel, message,
                             rng)
        used[route] += 1
        await fake.wait_for(lambda: moved_past(fake, user, message, drawn), 30, f"{user.name}'s hand to move on")

    await play_out(fake, [alice, bob], series_over, move)
    await fake.wait_for(lambda: all(not game_controls(m) for u in (alice, bob) for m in fake.dms(u)), 30,
                        "every hand closed")
    assert all(used[route] >= 3 for route in ROUTES), used

    # Each deal's board and result, and the final ranking, were posted once (by whichever process made the
    # move that ended the deal); each player had one hand message per deal.
    posted = [m.content for m in fake.messages(channel)]
    for number in (1, 2):
        assert sum(text.startswith(f"**Result of deal {number}**") for text in posted) == 1, posted
        assert sum(text.startswith(f"**Deal {number} of 2**") for text in posted) == 1, posted
    assert sum("The series is over" in text for text in posted) == 1, posted
    for user in (alice, bob):
        titles = [m.content.split("\n", 1)[0] for m in fake.dms(user) if not m.deleted and is_hand_message(m)]
        numbers = [re.search(r"deal (\d+)", title) for title in titles]
        assert all(numbers), titles
        deals = Counter(found[1] for found in numbers if found)
        assert deals == {"1": 1, "2": 1}, (user.name, deals)

    # Both processes served the table: the DMs' clicks and commands arrived at A, the channel's at B, and
    # each caught up with what the other stored.
    in_dms = [ix for ix in fake.interactions if ix.channel.is_dm]
    in_server = [ix for ix in fake.interactions if not ix.channel.is_dm]
    assert {ix.shard for ix in in_dms} == {0} and {ix.shard for ix in in_server} == {1}
    assert all(ix.acknowledged for ix in fake.interactions)
    assert "written by another process" in process_a.output() and "written by another process" in process_b.output()

    # Counted once: two deal records, the series' ranking, and the storage check passes.
    table_id = await table_id_of(schema_url)
    storage = await PostgresStorage.open(schema_url)
    try:
        assert [r.deal_number for r in await storage.deals.for_table(table_id=table_id)] == [1, 2]
        assert len(await final_ranking(storage, table_id)) == 3
    finally:
        await storage.close()
    check = await asyncio.create_subprocess_exec(sys.executable, "-m", "skatbot.storage", "--database", schema_url,
                                                 "check", stdout=asyncio.subprocess.PIPE,
                                                 stderr=asyncio.subprocess.STDOUT)
    output, _ = await check.communicate()
    assert check.returncode == 0 and "checked 2 deals in 1 table: ok" in output.decode(), output.decode()
    assert_no_public_leaks(fake, [alice, bob])
    assert_no_tracebacks([process_a, process_b])
    fake.assert_clean(allow_rejections=False)


async def race(fake: FakeDiscord, alice: User, channel: Channel, in_dm: Message, custom_id: str,
               database_url: str, table_id: int) -> None:
    """Alice's hand, drawn for this moment, as an ephemeral message in the channel (shard 1: process B) next
    to her DM (shard 0: process A); the same button pressed on both at the same instant."""
    shown = await (await fake.slash(alice, channel, "skat", subcommand="hand")).wait_message()
    assert shown.visibility == "ephemeral" and shown.component(custom_id) is not None, shown.buttons()
    before = await stored_log(database_url, table_id)
    drawn = drawn_at(in_dm)
    at_a, at_b = await asyncio.gather(fake.click(alice, in_dm, custom_id), fake.click(alice, shown, custom_id))
    assert (at_a.shard, at_b.shard) == (0, 1)
    await asyncio.gather(at_a.wait_acked(), at_b.wait_acked())

    def refusals() -> list[str]:
        texts = [m.content for ix in (at_a, at_b) for m in ([ix.original] if ix.original else []) + ix.followups]
        return [t for t in texts if "earlier moment" in t]

    await fake.wait_for(lambda: refusals() or None, 30, "a click refused as stale")
    after = await stored_log(database_url, table_id)
    assert after[:len(before)] == before
    acts = [entry.split() for entry in after[len(before):] if entry.startswith("act ")]
    hers = [act for act in acts if act[1:3] == acts[0][1:3]]  # her deal and seat: she moved first
    assert len(hers) == 1 and len(refusals()) == 1, (refusals(), after[len(before):])
    await fake.wait_for(lambda: moved_past(fake, alice, in_dm, drawn), 30, "her hand to move on")


async def test_two_clicks_for_one_moment_at_two_processes_apply_once(
        two_shards: FakeDiscord, schema_url: str, start_bot: StartBot) -> None:
    fake = two_shards
    alice = fake.add_user("alice", guilds=[])
    procs = await start_processes(fake, start_bot, schema_url, ["0", "1"])
    channel = await shard_one_table(fake, [alice], deals=2, ais=2)
    table_id = await table_id_of(schema_url)
    rng = random.Random(3)
    races = 0
    while races < 4:
        _, in_dm = await fake.wait_for(lambda: whose_turn_in_dms(fake, [alice]), 30, "alice's turn")
        buttons = [c for c in game_controls(in_dm) if c["type"] == 2 and kind_of(c) != "pass"]
        if not buttons:  # a menu (the skat, the game): not this race
            await button_move(fake, alice, in_dm, rng, avoid=("pass",))
            continue
        await race(fake, alice, channel, in_dm, rng.choice(buttons)["custom_id"], schema_url, table_id)
        races += 1
    assert_no_public_leaks(fake, [alice])
    assert_no_tracebacks(procs)
    fake.assert_clean(allow_rejections=False)


async def test_after_both_processes_restart_the_table_goes_on_and_is_announced_once(
        two_shards: FakeDiscord, schema_url: str, start_bot: StartBot) -> None:
    """Both processes stop and start again (a new release, say): the table of shard 1's server goes on, and
    only the process that serves that server says so in the channel."""
    fake = two_shards
    alice = fake.add_user("alice", guilds=[])
    procs = await start_processes(fake, start_bot, schema_url, ["0", "1"])
    channel = await shard_one_table(fake, [alice], deals=1, ais=2)
    rng = random.Random(5)
    for _ in range(3):
        _, message = await fake.wait_for(lambda: whose_turn_in_dms(fake, [alice]), 30, "alice's turn")
        drawn = drawn_at(message)
        await button_move(fake, alice, message, rng, avoid=("pass",))
        await fake.wait_for(functools.partial(moved_past, fake, alice, message, drawn), 30, "her hand to move on")
    assert_no_tracebacks(procs)
    for proc in procs:
        await proc.stop()
    for proc in procs:
        await proc.start()
        await proc.wait_connected()
        await proc.wait_for_output("logged in as", timeout=20)

    def notices() -> list[Message]:
        return [m for m in fake.messages(channel) if "I was restarted" in m.content]

    await fake.wait_for(lambda: notices() or None, 30, "the restart notice")
    await play_out(fake, [alice], lambda: any("The series is over" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    assert len(notices()) == 1, [m.content for m in notices()]
    assert_no_tracebacks(procs)
    fake.assert_clean(allow_rejections=False)
