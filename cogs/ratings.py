"""Skill ratings in the bot: keep every finished series and ended challenge day rated, and show the ratings.

A series is rated when it finishes (skatbot.wiring); this cog catches up at start-up and every few minutes
on whatever was left unrated (a restart in between, a challenge day that has ended, series finished before
ratings existed). `/skat scores leaderboard scoring:rating` and the rating line and chart of
`/skat scores stats` are drawn here; their page buttons are the leaderboard's own (`lb:LANG:PERIOD:rating:PAGE`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from skatbot.app import skat_bot
from skatbot.interactions.replies import say
from skatbot.models import counted
from skatbot.ratings import RatingRow
from skatbot.storage import NotFound, StorageError
from skatbot.ui.fit import Limit, fit
from skatbot.ui.i18n import t
from skatbot.ui.languages import Lang
from skatbot.ui.leaderboard import PERIODS
from skatbot.ui.ratings_text import (
    RatingPage,
    rating_board_text,
    rating_page,
    rating_shown,
    rating_stats_line,
)

if TYPE_CHECKING:
    from skatbot.app import SkatBot

log = logging.getLogger(__name__)

CATCH_UP_SECONDS = 600.0
"""How often unrated series and ended challenge days are looked for (also once at start-up)."""

RATING = "rating"
"""The leaderboard's scoring choice for the skill rating."""


def _now() -> datetime:
    return datetime.now(UTC)


async def rating_rows(bot: SkatBot, guild_id: int, period: str) -> list[RatingRow]:
    """The server's rated identities: all, or those rated in the period (with their change in it)."""
    return await bot.storage.ratings.board(server_id=guild_id, since=PERIODS[period].since(_now()))


async def rating_board(bot: SkatBot, guild_id: int, page: int, period: str = "all") -> RatingPage:
    return rating_page(await rating_rows(bot, guild_id, period), page, period=period)


def rating_view(board: RatingPage, lang: Lang) -> discord.ui.View:
    """◀ ▶ for the rating pages: custom ids the leaderboard's page button answers (they survive restarts)."""
    view = discord.ui.View(timeout=None)
    for label_key, page, disabled in (("lb.prev", board.page - 1, board.page <= 1),
                                      ("lb.next", board.page + 1, board.page >= board.pages)):
        view.add_item(discord.ui.Button(label=t(lang, label_key), disabled=disabled,
                                        style=discord.ButtonStyle.secondary,
                                        custom_id=f"lb:{lang}:{board.period}:{RATING}:{page}"))
    return view


async def show_rating_board(interaction: discord.Interaction, guild_id: int, lang: Lang, page: int,
                            period: str = "all") -> None:
    """`/skat scores leaderboard scoring:rating`: the ranking by mu - 3 sigma; with a week or a month, of those
    rated in it, with how much their rating moved in it."""
    board = await rating_board(skat_bot(interaction), guild_id, page, period)
    await say(interaction, rating_board_text(board, lang), ephemeral=False, view=rating_view(board, lang),
              allowed_mentions=discord.AllowedMentions.none())


async def turn_rating_page(interaction: discord.Interaction, guild_id: int, lang: Lang, page: int,
                           period: str = "all") -> None:
    """A page button of the rating board: the page again (the last one when the list got shorter)."""
    rows = await rating_rows(skat_bot(interaction), guild_id, period)
    last = rating_page(rows, 1, period=period).pages
    board = rating_page(rows, min(max(page, 1), last), period=period)
    await interaction.response.edit_message(content=fit(rating_board_text(board, lang), Limit.CONTENT),
                                            view=rating_view(board, lang))


async def rating_for_stats(bot: SkatBot, guild_id: int, player_id: int, name: str, lang: Lang,
                           pictures: bool) -> tuple[str, discord.File | None]:
    """The rating line under a player's stats, and its chart over time ("" and None before any rating)."""
    try:
        rating = await bot.storage.ratings.of(server_id=guild_id, player_id=player_id)
    except NotFound:
        return "", None
    chart = None
    if pictures:
        shown = await rating_shown(name, await bot.storage.ratings.history(server_id=guild_id, player_id=player_id),
                                   lang)
        chart = shown.file() if shown else None
    return rating_stats_line(rating, lang), chart


async def show_rating_only(interaction: discord.Interaction, guild_id: int, player_id: int, name: str,
                           lang: Lang) -> bool:
    """`/skat scores stats` for a player rated here who never sat at a table (the daily challenge only): their
    rating and its chart. False (nothing said) when they have no rating either."""
    bot = skat_bot(interaction)
    try:
        await bot.storage.ratings.of(server_id=guild_id, player_id=player_id)
    except NotFound:
        return False
    pictures = bool((await bot.storage.settings.get(server_id=guild_id)).pictures)
    if pictures and not interaction.response.is_done():
        await interaction.response.defer(thinking=True)  # the chart is drawn in a worker: Discord waits 3 s only
    rating, chart = await rating_for_stats(bot, guild_id, player_id, name, lang, pictures)
    title = t(lang, "stats.title", name=name, period=t(lang, "lb.period.all"))
    await say(interaction, f"{title}\n{rating}", ephemeral=False, allowed_mentions=discord.AllowedMentions.none(),
              **({"file": chart} if chart is not None else {}))
    return True


class RatingsCog(commands.Cog):
    """Rates what is left unrated, at start-up and then every `CATCH_UP_SECONDS`."""

    def __init__(self, bot: SkatBot, every: float = CATCH_UP_SECONDS) -> None:
        self.bot = bot
        self.every = every
        self._task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._keep_rated(), name="ratings catch-up")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            # Its end awaited without swallowing a cancel of this task: suppress(CancelledError) around `await
            # self._task` also ate the cancel meant for the bot's close (a second Ctrl-C), which then went on.
            await asyncio.gather(self._task, return_exceptions=True)

    async def _keep_rated(self) -> None:
        while True:
            try:
                rated = await self.bot.storage.ratings.catch_up(now=_now())
                if rated:
                    log.info("rated what was waiting: %s", counted(rated, "series or challenge day",
                                                                   "series and challenge days"))
            except StorageError:
                log.warning("the ratings could not catch up now; trying again later", exc_info=True)
            await asyncio.sleep(self.every)


async def setup(bot: SkatBot) -> None:
    await bot.add_cog(RatingsCog(bot))
