"""/skat settings: a server's default rules, turn timers, deck style, language and where tables play
(Manage Server only).

Without options it shows the settings; with options it checks them all, saves them together and
confirms what changed. Changes apply to tables opened afterwards.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from skatbot.app import skat_bot
from skatbot.engine.rules import PRESETS
from skatbot.interactions.looks import looks_of
from skatbot.interactions.replies import say
from skatbot.ui.i18n import LANGUAGES
from skatbot.ui.server_settings import (
    OPTION_NAMES,
    SettingsRequest,
    active_rules,
    apply_request,
)
from skatbot.ui.server_text import changes_text, settings_text

from ._common import AttachingCog, ServerError, choice, describe, en, guild_id_of, server_language

if TYPE_CHECKING:
    from skatbot.app import SkatBot

log = logging.getLogger(__name__)

PRESET_CHOICES = [choice(f"preset.{name}", name) for name in PRESETS]
OPTION_CHOICES = [choice(f"option.{name}", name) for name in OPTION_NAMES]
DECK_CHOICES = [choice("choice.deck.french", "french"), choice("choice.deck.german", "german")]
LANGUAGE_CHOICES = [app_commands.Choice(name=language.name, value=language.code) for language in LANGUAGES]
"""Every language of the registry, each under its own name (no translation needed)."""
TABLES_CHOICES = [choice("choice.tables.thread", "thread"), choice("choice.tables.channel", "channel")]
PICTURES_CHOICES = [choice("choice.pictures.on", "on"), choice("choice.pictures.off", "off")]


def is_server_manager(interaction: discord.Interaction) -> bool:
    """Manage Server in this channel, as Discord resolved it for the member who asked."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


@app_commands.command(name="settings", description=en("cmd.skat.settings"))
@app_commands.describe(preset=describe("cmd.skat.settings.preset"), option=describe("cmd.skat.settings.option"),
                       value=describe("cmd.skat.settings.value"), turn=describe("cmd.skat.settings.turn"),
                       warning=describe("cmd.skat.settings.warning"), deck=describe("cmd.skat.settings.deck"),
                       language=describe("cmd.skat.settings.language"), tables=describe("cmd.skat.settings.tables"),
                       pictures=describe("cmd.skat.settings.pictures"),
                       organisers=describe("cmd.skat.settings.organisers"))
@app_commands.choices(preset=PRESET_CHOICES, option=OPTION_CHOICES, deck=DECK_CHOICES, language=LANGUAGE_CHOICES,
                      tables=TABLES_CHOICES, pictures=PICTURES_CHOICES)
async def settings_command(interaction: discord.Interaction, preset: str | None = None, option: str | None = None,
                           value: app_commands.Range[str, 1, 100] | None = None,
                           turn: app_commands.Range[int, 1, 86400] | None = None,
                           warning: app_commands.Range[int, 0, 86400] | None = None,
                           deck: str | None = None, language: str | None = None,
                           tables: str | None = None, pictures: str | None = None,
                           organisers: discord.Role | None = None) -> None:
    guild_id = guild_id_of(interaction)
    # @everyone (whose id is the server's) means no role: Manage Server only
    role = None if organisers is None else (0 if organisers.id == guild_id else organisers.id)
    request = SettingsRequest(preset, option, value, turn, warning, deck, language, tables, pictures, role)
    only_looking = all(given is None for given in (preset, option, value, turn, warning, deck, language, tables,
                                                   pictures, organisers))
    if not only_looking and not is_server_manager(interaction):  # any member may look; managers change
        raise ServerError("settings.error.not_admin")
    bot = skat_bot(interaction)
    current = await looks_of(interaction).settings(guild_id, fresh=True)
    updated, changes = apply_request(current, request)
    if changes:
        await bot.storage.settings.save(settings=updated, now=datetime.now(UTC))
        forget_cached_style(bot, guild_id)
        log.info("server %s settings changed by %s: %s", guild_id, interaction.user.id,
                 ", ".join(change.key for change in changes))
    lang = await server_language(interaction)
    text = settings_text(updated, active_rules(updated), lang)
    if changes:
        text = changes_text(changes, lang) + "\n\n" + text
    await say(interaction, text)


def forget_cached_style(bot: SkatBot, guild_id: int) -> None:
    """Each server's language and deck are cached; drop the entry so new tables see the change."""
    bot.services.looks.forget(guild_id)


class SettingsCog(AttachingCog):
    def __init__(self, bot: SkatBot) -> None:
        super().__init__(bot, [settings_command])


async def setup(bot: SkatBot) -> None:
    await bot.add_cog(SettingsCog(bot))
