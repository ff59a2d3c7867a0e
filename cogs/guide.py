"""/skat help: how to play here (a few screens with page buttons), the active rules, the value calculator."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from skatbot.app import skat_bot
from skatbot.engine import RuleSet
from skatbot.engine.errors import InvalidRuleSet
from skatbot.interactions.looks import looks_of
from skatbot.interactions.replies import guarded, named_game, say, within
from skatbot.models import Deck
from skatbot.ui.calculator import ValueQuestion, answer
from skatbot.ui.fit import Limit, fit
from skatbot.ui.i18n import t
from skatbot.ui.languages import Lang, language_of
from skatbot.ui.server_settings import active_rules
from skatbot.ui.server_text import HELP_PAGES, help_text, rules_text, value_text

from ._common import AttachingCog, choice, describe, en, server_language

if TYPE_CHECKING:
    from skatbot.app import SkatBot

GAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
GAME_CHOICES = [choice(f"choice.game.{game}", game) for game in GAMES]
ANNOUNCE_CHOICES = [choice(f"choice.announced.{word}", word) for word in ("none", "schneider", "schwarz")]


def help_view(page: int, lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HelpButton(lang, page - 1, t(lang, "help.prev"), page <= 1))
    view.add_item(HelpButton(lang, page + 1, t(lang, "help.next"), page >= HELP_PAGES))
    return view


class HelpButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"help:(?P<lang>[a-z]{2}):(?P<page>\d{1,2})"):
    """A page button of the help screens."""

    def __init__(self, lang: Lang, page: int, label: str = "·", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled, style=discord.ButtonStyle.secondary,
                                           custom_id=f"help:{lang}:{page}"))
        self.lang, self.page = lang, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HelpButton:
        return cls(language_of(None, match["lang"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.turn_page(interaction))

    async def turn_page(self, interaction: discord.Interaction) -> None:
        page = min(max(self.page, 1), HELP_PAGES)
        await interaction.response.edit_message(content=fit(help_text(page, self.lang), Limit.CONTENT),
                                                view=help_view(page, self.lang))


class HelpGroup(app_commands.Group):
    """/skat help ...: learning the game and the table's rules."""

    def __init__(self) -> None:
        super().__init__(name="help", description=en("cmd.skat.help"))

    @app_commands.command(name="play", description=en("cmd.skat.help.play"))
    @app_commands.describe(page=describe("cmd.skat.help.play.page"))
    async def play(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, HELP_PAGES] = 1) -> None:
        within(page, 1, HELP_PAGES, "page")
        lang = await server_language(interaction)
        await say(interaction, help_text(page, lang), view=help_view(page, lang))

    @app_commands.command(name="rules", description=en("cmd.skat.help.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        lang = await server_language(interaction)
        bot = skat_bot(interaction)
        tables = await bot.storage.tables.in_channel(channel_id=interaction.channel_id or 0)
        if tables:
            table = max(tables, key=lambda stored: stored.table_id)
            rule_set = RuleSet.from_dict(table.rules)
            text = rules_text(rule_set, lang, table.table_id, table.rule_preset)
        elif interaction.guild_id is not None:
            settings = await looks_of(interaction).settings(interaction.guild_id)
            try:
                rule_set = active_rules(settings)
            except InvalidRuleSet:  # stored by an older version and no longer valid: say what tables get
                rule_set = RuleSet.preset(settings.rule_preset)
            text = rules_text(rule_set, lang, None, settings.rule_preset)
        else:
            text = rules_text(RuleSet(), lang, None, "official")
        await say(interaction, text)

    @app_commands.command(name="value", description=en("cmd.skat.help.value"))
    @app_commands.describe(game=describe("cmd.skat.help.value.game"),
                           matadors=describe("cmd.skat.help.value.matadors"),
                           against=describe("cmd.skat.help.value.against"),
                           hand=describe("cmd.skat.help.value.hand"),
                           schneider=describe("cmd.skat.help.value.schneider"),
                           schwarz=describe("cmd.skat.help.value.schwarz"),
                           announced=describe("cmd.skat.help.value.announced"),
                           ouvert=describe("cmd.skat.help.value.ouvert"),
                           bid=describe("cmd.skat.help.value.bid"))
    @app_commands.choices(game=GAME_CHOICES, announced=ANNOUNCE_CHOICES)
    async def value(self, interaction: discord.Interaction, game: str,
                    matadors: app_commands.Range[int, 1, 11] | None = None, against: bool = False,
                    hand: bool = False, schneider: bool = False, schwarz: bool = False, announced: str = "none",
                    ouvert: bool = False, bid: app_commands.Range[int, 18, 999] = 18) -> None:
        lang = await server_language(interaction)
        deck = Deck.FRENCH
        rule_set = RuleSet()
        if interaction.guild_id is not None:
            settings = await looks_of(interaction).settings(interaction.guild_id)
            deck = settings.deck_style
            try:
                rule_set = active_rules(settings)
            except InvalidRuleSet:
                rule_set = RuleSet.preset(settings.rule_preset)
        question = ValueQuestion(named_game(game), matadors, against, hand, schneider, schwarz, announced,
                                 ouvert, bid)
        await say(interaction, value_text(answer(question, rule_set), lang, deck))


class GuideCog(AttachingCog):
    def __init__(self, bot: SkatBot) -> None:
        super().__init__(bot, [HelpGroup()])

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(HelpButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HelpButton)
        await super().cog_unload()


async def setup(bot: SkatBot) -> None:
    await bot.add_cog(GuideCog(bot))
