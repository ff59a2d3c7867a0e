"""/skat scores: the server's leaderboard, a player's stats and history, and deal/series records.

Leaderboard pages turn with buttons whose custom_id carries everything needed to draw the page again
(`lb:LANG:PERIOD:SCORING:PAGE`), so they keep working after a restart.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from skatbot.app import skat_bot
from skatbot.interactions.looks import looks_of
from skatbot.interactions.replies import chosen, guarded, say
from skatbot.models import LeaderboardRow
from skatbot.storage import NotFound, Window
from skatbot.ui.fit import Limit, fit
from skatbot.ui.i18n import t
from skatbot.ui.languages import Lang, language_of
from skatbot.ui.leaderboard import PERIODS, LeaderboardPage, Scoring, leaderboard_text, page_of
from skatbot.ui.names import player_name_of
from skatbot.ui.pictures import points_shown
from skatbot.ui.replay import history_view
from skatbot.ui.server_text import history_text, stats_text

from ._analysis import AnalyseButton, analyse_by_id
from ._common import (
    AttachingCog,
    ServerError,
    choice,
    deal_of_this_server,
    describe,
    en,
    guild_id_of,
    server_language,
)
from .ratings import RATING, rating_for_stats, show_rating_board, show_rating_only, turn_rating_page
from .tournament import tournaments_for_stats

if TYPE_CHECKING:
    from skatbot.app import SkatBot

HISTORY_LENGTH = 10
_FETCH_PAGE = 100

PERIOD_CHOICES = [choice("choice.period.week", "week"), choice("choice.period.month", "month"),
                  choice("choice.period.all", "all")]
SCORINGS = tuple(scoring.value for scoring in Scoring)
SCORING_CHOICES = [choice("choice.scoring.list", "list"), choice("choice.scoring.seeger", "seeger"),
                   choice("choice.scoring.won", "won"), choice("choice.scoring.rating", RATING)]


CHART_DEALS = 100
"""How many of a player's latest deals the points chart of /skat scores stats follows."""


def _now() -> datetime:
    return datetime.now(UTC)


async def ranking_rows(bot: SkatBot, guild_id: int, window: Window) -> list[LeaderboardRow]:
    """Every ranked human and every AI of the server in the window (storage pages of 100)."""
    now = _now()
    first = await bot.storage.stats.leaderboard(server_id=guild_id, window=window, now=now, page=1,
                                                page_size=_FETCH_PAGE)
    rows = list(first.humans) + list(first.ai)
    for page in range(2, first.pages + 1):
        more = await bot.storage.stats.leaderboard(server_id=guild_id, window=window, now=now, page=page,
                                                   page_size=_FETCH_PAGE)
        rows += more.humans
    return rows


async def leaderboard_page(bot: SkatBot, guild_id: int, period: str, scoring: Scoring,
                           page: int) -> LeaderboardPage:
    rows = await ranking_rows(bot, guild_id, PERIODS[period])
    return page_of(rows, period=period, scoring=scoring, page=page)


def leaderboard_view(board: LeaderboardPage, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for label_key, page, disabled in (("lb.prev", board.page - 1, board.page <= 1),
                                      ("lb.next", board.page + 1, board.page >= board.pages)):
        view.add_item(LeaderboardButton(lang, board.period, board.scoring.value, page, t(lang, label_key),
                                        disabled))
    return view


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                        template=r"lb:(?P<lang>[a-z]{2}):(?P<period>week|month|all):"
                                 r"(?P<scoring>list|seeger|won|rating):(?P<page>\d{1,5})"):
    """A page button of a leaderboard message; any member may turn the page."""

    def __init__(self, lang: Lang, period: str, scoring: str, page: int, label: str = "·",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
                                           custom_id=f"lb:{lang}:{period}:{scoring}:{page}"))
        self.lang, self.period, self.scoring, self.page = lang, period, scoring, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LeaderboardButton:
        return cls(language_of(None, match["lang"]), match["period"], match["scoring"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.turn_page(interaction))

    async def turn_page(self, interaction: discord.Interaction) -> None:
        guild_id = guild_id_of(interaction)
        if self.scoring == RATING:
            await turn_rating_page(interaction, guild_id, self.lang, self.page, self.period)
            return
        bot = skat_bot(interaction)
        rows = await ranking_rows(bot, guild_id, PERIODS[self.period])
        scoring = Scoring(self.scoring)
        last = page_of(rows, period=self.period, scoring=scoring, page=1).pages
        board = page_of(rows, period=self.period, scoring=scoring, page=min(max(self.page, 1), last))
        await interaction.response.edit_message(content=fit(leaderboard_text(board, self.lang), Limit.CONTENT),
                                                view=leaderboard_view(board, self.lang))


class ScoresGroup(app_commands.Group):
    """/skat scores ...: the lists of this server."""

    def __init__(self) -> None:
        super().__init__(name="scores", description=en("cmd.skat.scores"))

    @app_commands.command(name="leaderboard", description=en("cmd.skat.scores.leaderboard"))
    @app_commands.describe(period=describe("cmd.skat.scores.leaderboard.period"),
                           scoring=describe("cmd.skat.scores.leaderboard.scoring"),
                           page=describe("cmd.skat.scores.leaderboard.page"))
    @app_commands.choices(period=PERIOD_CHOICES, scoring=SCORING_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, period: str = "all", scoring: str = "list",
                          page: app_commands.Range[int, 1, 10000] = 1) -> None:
        guild_id = guild_id_of(interaction)
        period, scoring = chosen(period, PERIODS, "period"), chosen(scoring, (*SCORINGS, RATING), "scoring")
        lang = await server_language(interaction)
        if scoring == RATING:
            await show_rating_board(interaction, guild_id, lang, page, period)
            return
        bot = skat_bot(interaction)
        board = await leaderboard_page(bot, guild_id, period, Scoring(scoring), page)
        await say(interaction, leaderboard_text(board, lang), ephemeral=False, view=leaderboard_view(board, lang),
                  allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="stats", description=en("cmd.skat.scores.stats"))
    @app_commands.describe(player=describe("cmd.skat.scores.stats.player"),
                           period=describe("cmd.skat.scores.stats.period"))
    @app_commands.choices(period=PERIOD_CHOICES)
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None,
                    period: str = "all") -> None:
        guild_id = guild_id_of(interaction)
        period = chosen(period, PERIODS, "period")
        lang = await server_language(interaction)
        bot = skat_bot(interaction)
        who = player or interaction.user
        try:
            stats = await bot.storage.stats.player_stats(server_id=guild_id, player_id=who.id,
                                                         window=PERIODS[period], now=_now())
        except NotFound:
            if await show_rating_only(interaction, guild_id, who.id, who.display_name, lang):
                return  # rated by the daily challenge alone
            raise ServerError("server.error.never_played", name=who.display_name) from None
        if stats.deals == 0 and stats.declared == 0:
            if period == "all":
                if await show_rating_only(interaction, guild_id, who.id, who.display_name, lang):
                    return
                raise ServerError("server.error.never_played", name=who.display_name)
            raise ServerError("server.error.never_played_period", name=who.display_name,
                              period=t(lang, f"lb.period.{period}"))
        extra: dict[str, Any] = {}
        settings = await looks_of(interaction).settings(guild_id)
        if settings.pictures:
            await interaction.response.defer(thinking=True)  # the chart is drawn in a worker
            history = await bot.storage.stats.player_history(server_id=guild_id, player_id=who.id,
                                                             limit=CHART_DEALS)
            since = PERIODS[period].since(_now())
            points = [(s.finished_at, s.player_score or 0) for s in reversed(history)
                      if since is None or s.finished_at >= since]
            chart = await points_shown(who.display_name, points, lang)
            extra = {"files": [chart.file()]} if chart else {}
        rating, rating_chart = await rating_for_stats(bot, guild_id, who.id, who.display_name, lang, settings.pictures)
        if rating_chart is not None:
            extra = {"files": [*extra.get("files", []), rating_chart]}
        text = stats_text(stats, lang, period) + (f"\n{rating}" if rating else "")
        text += await tournaments_for_stats(bot, guild_id, who.id, lang)
        await say(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none(), **extra)

    @app_commands.command(name="history", description=en("cmd.skat.scores.history"))
    @app_commands.describe(player=describe("cmd.skat.scores.history.player"))
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        guild_id = guild_id_of(interaction)
        lang = await server_language(interaction)
        bot = skat_bot(interaction)
        settings = await looks_of(interaction).settings(guild_id)
        if player is None:
            summaries = await bot.storage.stats.server_history(server_id=guild_id, limit=HISTORY_LENGTH)
            if not summaries:
                raise ServerError("history.empty")
        else:
            summaries = await bot.storage.stats.player_history(server_id=guild_id, player_id=player.id,
                                                               limit=HISTORY_LENGTH)
            if not summaries:
                raise ServerError("server.error.never_played", name=player.display_name)
        names: dict[int, str] = {}
        for summary in summaries:
            declarer = summary.declarer_id
            if declarer is not None and declarer not in names:
                try:
                    known = await bot.storage.players.get(player_id=declarer)
                    names[declarer] = f"🤖 {player_name_of(declarer, known.display_name, lang)}" if known.is_ai else \
                        known.display_name
                except NotFound:
                    names[declarer] = str(declarer)
        text = history_text(summaries, names, lang, settings.deck_style,
                            player.display_name if player is not None else None)
        replays = history_view([summary.deal_id for summary in summaries], lang)  # 🎞 per deal (cogs.replay)
        await say(interaction, text, ephemeral=False, allowed_mentions=discord.AllowedMentions.none(),
                  **({"view": replays} if replays is not None else {}))

    @app_commands.command(name="record", description=en("cmd.skat.scores.record"))
    @app_commands.describe(deal=describe("cmd.skat.scores.record.deal"),
                           series=describe("cmd.skat.scores.record.series"))
    async def record(self, interaction: discord.Interaction, deal: app_commands.Range[int, 1, None] | None = None,
                     series: app_commands.Range[int, 1, None] | None = None) -> None:
        guild_id = guild_id_of(interaction)
        lang = await server_language(interaction)
        bot = skat_bot(interaction)
        if (deal is None) == (series is None):
            raise ServerError("record.error.choose")
        if deal is not None:
            stored = await deal_of_this_server(interaction, deal)
            if stored.iss:  # ISS records cannot hold Ramsch, Kontra, Re or Musik: those come as JSON
                file = discord.File(io.BytesIO(stored.iss.encode()), filename=f"skat-deal-{deal}.sgf")
                text = t(lang, "record.deal", deal=deal, table=stored.table_id, number=stored.deal_number)
            else:
                data = (await bot.storage.deals.export_json(deal_id=deal)).encode()
                file = discord.File(io.BytesIO(data), filename=f"skat-deal-{deal}.json")
                text = t(lang, "record.deal_json", deal=deal, table=stored.table_id, number=stored.deal_number)
        else:
            assert series is not None
            try:
                table = await bot.storage.tables.get(table_id=series)
            except NotFound:
                table = None
            if table is None or table.server_id != guild_id:
                raise ServerError("record.error.no_series", table=series)
            data = (await bot.storage.deals.export_series_json(table_id=series)).encode()
            file = discord.File(io.BytesIO(data), filename=f"skat-series-{series}.json")
            text = t(lang, "record.series", table=series)
        await say(interaction, text, ephemeral=False, file=file)


    @app_commands.command(name="analyse", description=en("cmd.skat.scores.analyse"))
    @app_commands.describe(deal=describe("cmd.skat.scores.analyse.deal"))
    async def analyse(self, interaction: discord.Interaction, deal: app_commands.Range[int, 1, None]) -> None:
        await analyse_by_id(interaction, deal)


class ScoresCog(AttachingCog):
    def __init__(self, bot: SkatBot) -> None:
        super().__init__(bot, [ScoresGroup()])

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(LeaderboardButton, AnalyseButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LeaderboardButton, AnalyseButton)
        await super().cog_unload()


async def setup(bot: SkatBot) -> None:
    await bot.add_cog(ScoresCog(bot))
