"""Ratings in the bot: a finished series is rated at once, the rating leaderboard and the stats line show it,
and the rating pages turn with the leaderboard's own buttons."""

from __future__ import annotations

from skatbot.ratings import MODEL
from tests.cogs.helpers import CogBot, FakeMessage
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
