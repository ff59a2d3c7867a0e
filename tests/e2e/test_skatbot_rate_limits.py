"""Under Discord's rate limits a fast table's board edits use up the channel's allowance; a player's next
turn in their DM must not wait behind them (a DM is a bucket of its own, and it goes first)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import aiohttp

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import Message, User
from tests.e2e.fakediscord.ratelimits import API
from tests.e2e.skat_helpers import start_skatbot
from tests.e2e.skat_players import button_move, latest_hand, whose_turn
from tests.e2e.test_skatbot_metrics import free_port, scrape, total
from tests.e2e.test_skatbot_play import open_against_ais

WINDOW = 10.0
"""Seconds the rate-limited channel waits between two calls: far more than the AIs take for a turn on a loaded
machine, so a DM that waited behind the channel stands out from one that did not."""

CHANNEL_CALLS = ("POST", f"{API}/channels/{{channel_id}}/messages"), \
    ("PATCH", f"{API}/channels/{{channel_id}}/messages/{{message_id}}")


async def test_the_dm_turn_does_not_wait_behind_the_channels_rate_limit(club: Club, start_bot: StartBot,
                                                                         tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    port = free_port()
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"), SKATBOT_METRICS_PORT=str(port))
    _, channel = await open_against_ais(fake, alice, club, deals=2)
    rng = random.Random(5)
    # One move first, unmeasured: the computer players' first decisions start their worker processes (and the
    # bot may still be uploading its card faces), which is no part of what Discord's limits do.
    _, first = await fake.wait_for(lambda: whose_turn(fake, [alice]), 30, "alice's first turn")
    await button_move(fake, alice, first, rng, avoid=("pass",))
    await fake.wait_for(lambda: whose_turn(fake, [alice]), 30, "alice's second turn")
    # From now on the table's channel may take one message and one edit per WINDOW: every board update waits.
    fake.enable_rate_limits({call: (1, WINDOW) for call in CHANNEL_CALLS}, channels=[channel])
    waits: list[float] = []

    def over() -> bool:  # the last deal's result in her DM (the channel's own messages wait their turn)
        hand = latest_hand(fake, alice)
        return hand is not None and "· deal 2 ·" in hand.content and "🧮" in hand.content

    while not over():
        found: tuple[User, Message] | str = await fake.wait_for(
            lambda: "over" if over() else whose_turn(fake, [alice]), 40, "alice's turn")
        if isinstance(found, str):  # "over"
            break
        _, message = found
        clicked = time.monotonic()
        await button_move(fake, alice, message, rng, avoid=("pass",))
        await fake.wait_for(lambda: over() or whose_turn(fake, [alice]) or None, 40, "alice's next turn or the end")
        if whose_turn(fake, [alice]):  # (the end is announced in the channel, which waits its turn)
            waits.append(time.monotonic() - clicked)
    assert len(waits) >= 8, waits
    # Each channel call waits up to a WINDOW here (the result, the next deal's board), and every move queues
    # another board edit: a DM behind them would wait a window or more, longer with each turn. The DM, first
    # and in a bucket of its own, never waits behind them: the next turn, the next deal's first turn included,
    # comes as soon as the computer players have moved (a loaded machine's seconds, well within a window).
    assert max(waits) < WINDOW, waits
    # The waits show in the metrics as the channel's calls go out: discord.py sleeps for the used-up bucket.
    async with aiohttp.ClientSession() as http:
        for _ in range(60):
            samples = await scrape(http, port)
            if total(samples, "skatbot_rate_limit_wait_seconds_total", reason="bucket") >= 3.0:
                break
            await asyncio.sleep(0.5)
    assert total(samples, "skatbot_rate_limit_waits_total", reason="bucket") >= 1, samples
    assert total(samples, "skatbot_rate_limit_wait_seconds_total", reason="bucket") >= 3.0, samples
    fake.world.rate_limits = None  # lifted: the bot's clean close shows what it still queued, not 6 s a message
