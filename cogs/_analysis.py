"""Deal analysis for players: the result card's "Analyse" button and `/skat scores analyse deal:N`.

Anyone who may read a deal's record (a member of its server) may ask. The search runs in the AI
workers (the bot's process pool), never on the event loop; when it takes longer than PROGRESS_AFTER
seconds the player first sees a progress message that the answer then replaces.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from skatbot.ai.verdict import DealAnalysis, NotAnalysable
from skatbot.app import skat_bot
from skatbot.engine import GameType
from skatbot.interactions.replies import guarded, reader_style, say
from skatbot.models import DealRecord
from skatbot.storage import NotFound
from skatbot.tables.ai_bridge import analyse_record
from skatbot.ui.analysis_text import ANALYSE_TEMPLATE, analysis_text
from skatbot.ui.fit import Limit, fit
from skatbot.ui.i18n import t
from skatbot.ui.languages import Lang
from skatbot.ui.names import player_name_of
from skatbot.ui.refusals import ServerError
from skatbot.ui.replay import history_view

from ._common import deal_of_this_server

if TYPE_CHECKING:
    from skatbot.app import SkatBot

log = logging.getLogger(__name__)

PROGRESS_AFTER = 2.0
"""Seconds before a progress message answers the interaction (Discord wants an answer within 3 s)."""


async def _names(bot: SkatBot, stored: DealRecord, lang: Lang) -> list[str]:
    """The players' names by seat (forehand, middlehand, rearhand) as the reader sees them everywhere: a computer
    player marked 🤖 and named in the reader's language from its id (its stored name is never read back)."""
    names = ["?", "?", "?"]
    for score in stored.scores:
        if score.seat is None:
            continue
        try:
            known = await bot.storage.players.get(player_id=score.player_id)
        except NotFound:
            names[score.seat] = str(score.player_id)
            continue
        name = known.display_name
        names[score.seat] = f"🤖 {player_name_of(score.player_id, name, lang)}" if known.is_ai else name
    return names


async def answer_analysis(interaction: discord.Interaction, stored: DealRecord) -> None:
    """Analyse a stored deal in the AI workers and answer with its lines (ephemeral)."""
    bot = skat_bot(interaction)
    deal_id = stored.deal_id
    if stored.game is None or stored.game is GameType.RAMSCH:  # passed in, or no declarer
        raise ServerError("analysis.error.not_analysable", deal=deal_id)
    lang, deck = await reader_style(interaction)
    work = asyncio.get_running_loop().run_in_executor(bot.ai_executor, analyse_record, stored.record_json)
    done, _ = await asyncio.wait({work}, timeout=PROGRESS_AFTER)
    progress = not done
    if progress:
        await interaction.response.send_message(t(lang, "analysis.working", deal=deal_id), ephemeral=True)
    try:
        analysis: DealAnalysis = await work
    except NotAnalysable:
        raise ServerError("analysis.error.not_analysable", deal=deal_id) from None
    except Exception:
        log.exception("the analysis of deal %s failed", deal_id)
        raise ServerError("analysis.error.failed", deal=deal_id) from None
    text = analysis_text(analysis, await _names(bot, stored, lang), deal_id or 0, lang, deck)
    replay = history_view([deal_id], lang) if deal_id else None  # 🎞 Replay of the deal (cogs.replay)
    if progress:
        await interaction.edit_original_response(content=fit(text, Limit.CONTENT), view=replay)
    else:
        await say(interaction, text, ephemeral=True, **({"view": replay} if replay is not None else {}))


async def analyse_by_id(interaction: discord.Interaction, deal_id: int) -> None:
    """`/skat scores analyse deal:N`: the deal must be of this server."""
    await answer_analysis(interaction, await deal_of_this_server(interaction, deal_id))


class AnalyseButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ANALYSE_TEMPLATE):
    """The result card's button: the table and the deal's number there, from 1 (the record is found by them)."""

    def __init__(self, table_id: int, number: int) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"an:{table_id}:{number}"))
        self.table_id, self.number = table_id, number

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> AnalyseButton:
        return cls(int(match["table"]), int(match["number"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.analyse(interaction))

    async def analyse(self, interaction: discord.Interaction) -> None:
        bot = skat_bot(interaction)
        try:
            stored = await bot.storage.deals.by_number(table_id=self.table_id, deal_number=self.number)
        except NotFound:
            raise ServerError("record.error.no_deal", deal=self.number) from None
        if interaction.guild_id is not None and stored.server_id != interaction.guild_id:
            raise ServerError("record.error.no_deal", deal=self.number)
        await answer_analysis(interaction, stored)
