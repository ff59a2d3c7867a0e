"""Ratings in the bot: a finished series is rated at once, the rating leaderboard and the stats line show it,
and the rating pages turn with the leaderboard's own buttons."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

import pytest

from cogs.ratings import RatingsCog
from skatbot.ratings import MODEL
from tests.cogs.helpers import GUILD_ID, CogBot, FakeMessage
from tests.cogs.table_helpers import one_deal_conceded


async def test_an_empty_server_has_no_ratings(world: CogBot) -> None:
    board = await world.run("skat scores leaderboard", world.user("alice"), scoring="rating")
    assert not board.answer.ephemeral and "Skill rating" in board.text
    assert "Nobody has a skill rating on this server yet" in board.text


async def test_a_finished_series_is_rated_and_shown(world: CogBot) -> None:
    table, users, declarer = await one_deal_conceded(world)  # a one-deal series: finished, so rated
    storage = world.bot.storage
    winners = [user for user in users.values() if user.id != declarer.id]
    lost = await storage.ratings.of(server_id=table.guild_id, player_id=declarer.id)
    for winner in winners:  # the declarer lost the grand: both defenders placed above
        assert (await storage.ratings.of(server_id=table.guild_id, player_id=winner.id)).mu > MODEL.mu > lost.mu
    reader = world.user("dora")
    board = await world.run("skat scores leaderboard", reader, scoring="rating")
    assert "3 more players have a rating but fewer than 3 rated series or challenge days." in board.text
    assert board.answer.custom_ids() == ["lb:en:all:rating:0", "lb:en:all:rating:2"]
    turned = await world.click(reader, FakeMessage(1, 20, board.text, board.answer.view), "lb:en:all:rating:2")
    assert turned.answer.how == "edit" and "Page 1 of 1 · 0 ranked players" in (turned.answer.content or "")
    stats = await world.run("skat scores stats", declarer)
    assert "📈 Skill rating: **" in stats.text and "1 series or day rated" in stats.text
    assert f"μ {lost.mu:.1f}" in stats.text
    assert (await world.run("skat scores leaderboard", reader, scoring="rating", page=2)).text == \
        "There is no page 2: the ranking has 1 page."


async def test_the_rating_board_of_a_period_lists_those_rated_in_it_with_their_change(world: CogBot) -> None:
    storage, server = world.bot.storage, GUILD_ID
    now = datetime.now(UTC)
    long_ago = now - timedelta(days=40)
    anna, ben, cleo = 9001, 9002, 9003
    for player, name in ((anna, "Anna"), (ben, "Ben"), (cleo, "Cleo")):
        await storage.challenge.start(day=long_ago.date(), player_id=player, server_id=server, name=name, deals=3,
                                      now=long_ago)
    for days in range(3):  # Anna and Ben forty days ago; then Anna and Cleo this week, Anna ahead each time
        await storage.ratings.rate_challenge_day(server_id=server, day=long_ago.date() + timedelta(days=days),
                                                 results=[(anna, 100, 0), (ben, 0, 0)], now=long_ago)
    for days in range(3):
        await storage.ratings.rate_challenge_day(server_id=server, day=now.date() - timedelta(days=days),
                                                 results=[(anna, 100, 0), (cleo, 0, 0)], now=now)
    before = (await storage.ratings.history(server_id=server, player_id=anna))[2]
    mine = await storage.ratings.of(server_id=server, player_id=anna)
    reader = world.user("dora")
    for period, label in (("week", "this week"), ("month", "this month")):
        board = await world.run("skat scores leaderboard", reader, scoring="rating", period=period)
        lines = board.text.splitlines()
        assert lines[0].startswith(f"🏆 **Skill rating** · {label}: those rated {label}, ranked by μ − 3σ")
        assert "Anna" in board.text and "Cleo" in board.text and "Ben" not in board.text
        change = mine.conservative - (before.mu - 3 * before.sigma)
        assert lines[1].startswith(f"1. **Anna** — {mine.conservative:.1f}, +{change:.1f} (μ ")
        assert board.answer.custom_ids() == [f"lb:en:{period}:rating:0", f"lb:en:{period}:rating:2"]
    whole = await world.run("skat scores leaderboard", reader, scoring="rating")
    assert "all time" in whole.text and "Ben" in whole.text and ", +" not in whole.text
    week = await world.run("skat scores leaderboard", reader, scoring="rating", period="week")
    turned = await world.click(reader, FakeMessage(1, 20, week.text, week.answer.view), "lb:en:week:rating:2")
    assert "Ben" not in (turned.answer.content or "") and "this week" in (turned.answer.content or "")


async def test_unloading_while_the_bot_is_cancelled_lets_the_cancel_through() -> None:
    """A second Ctrl-C cancels the bot's close while it unloads this cog, which waits for its catch-up task to
    end (a catch-up finishing its write): the cancel reaches the close, which stops there. (The wait used to
    suppress CancelledError, the close's as well, and the close went on: tests/e2e/test_skatbot_shutdown.py's
    second Ctrl-C then ended in a clean close, 1 or 2 runs in 12 under load.)"""
    started = asyncio.Event()

    async def catch_up(now: datetime) -> int:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await asyncio.sleep(0.05)  # its write under way is finished first
            raise
        return 0

    bot = SimpleNamespace(storage=SimpleNamespace(ratings=SimpleNamespace(catch_up=catch_up)))
    cog = RatingsCog(cast(Any, bot))
    await cog.cog_load()
    await started.wait()
    unloading = asyncio.create_task(cog.cog_unload())
    await asyncio.sleep(0.01)  # waiting for the catch-up to end
    unloading.cancel()
    with pytest.raises(asyncio.CancelledError):
        await unloading
    assert cog._task is not None and cog._task.cancelled()
