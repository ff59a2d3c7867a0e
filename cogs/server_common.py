"""What the server-feature cogs share: attaching their commands to the `/skat` group, the reader's
language, replies, and one error handler that turns known failures into friendly messages.

discord.py allows one GroupCog per group name, and `/skat` belongs to cogs.skat; so these cogs are plain
Cogs that add their subcommands (and subcommand groups) to that group when loaded, and take them off
when unloaded. Discord allows 25 children per group, hence the groups `scores` and `help`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from skatbot.storage import NotFound
from skatbot.ui.calculator import ValueInputError
from skatbot.ui.i18n import language_of, t, template, tn
from skatbot.ui.leaderboard import PageOutOfRange
from skatbot.ui.server_settings import SettingsInputError

if TYPE_CHECKING:
    from skatbot.app import SkatBot

log = logging.getLogger(__name__)

SKAT_GROUP = "skat"


class ServerError(Exception):
    """A refusal worth telling the user: a catalog key and its values."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def en(key: str) -> str:
    """The English text of a command or option description (German comes through the translator)."""
    return template("en", key)


def describe(key: str) -> app_commands.locale_str:
    """An option description the translator can localize (discord.py translates only locale_str there)."""
    return app_commands.locale_str(template("en", key), key=key)


def choice(key: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=app_commands.locale_str(template("en", key), key=key), value=value)


async def server_language(interaction: discord.Interaction) -> str:
    """The reader's Discord locale if we speak it, else the server's language."""
    fallback = "en"
    if interaction.guild_id is not None:
        bot: SkatBot = interaction.client  # type: ignore[assignment]
        fallback = (await bot.storage.settings.get(server_id=interaction.guild_id)).language
    return language_of(str(interaction.locale), fallback)


def guild_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise ServerError("server.error.guild_only")
    return interaction.guild_id


def fit(text: str, limit: int = 2000) -> str:
    """Text cut to Discord's message limit (long names or many rule lines must not make a reply fail)."""
    return text if len(text) <= limit else text[:limit - 2] + " …"


async def say(interaction: discord.Interaction, text: str, *, ephemeral: bool = True, **extra: Any) -> None:
    """Answer the interaction (or follow up if it was deferred); text is cut to Discord's 2000."""
    text = fit(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, **extra)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **extra)


def error_text(error: BaseException, lang: str) -> str | None:
    """The message for a known failure, None for an unexpected one."""
    if isinstance(error, (ServerError, ValueInputError, SettingsInputError)):
        return t(lang, error.key, **error.values)
    if isinstance(error, PageOutOfRange):
        return tn(lang, "lb.error.page", error.pages, page=error.page)
    if isinstance(error, NotFound):
        return t(lang, "server.error.not_found")
    return None


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    original = getattr(error, "original", error)
    try:
        lang = await server_language(interaction)
    except Exception:  # the database itself failing: still answer, in the reader's language
        lang = language_of(str(interaction.locale))
    text = error_text(original, lang)
    if text is None:
        log.error("server command failed for user %s in channel %s", interaction.user.id, interaction.channel_id,
                  exc_info=original)
        text = t(lang, "server.error.unexpected")
    await say(interaction, "⚠️ " + text)


class AttachedGroup(app_commands.Group):
    """A subcommand group of /skat whose failures are answered by `reply_error`."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await reply_error(interaction, error)


class AttachingCog(commands.Cog):
    """A Cog whose `children` are added to the /skat group on load and removed on unload."""

    def __init__(self, bot: SkatBot, children: list[app_commands.Command[Any, ..., Any] | app_commands.Group]) -> None:
        self.bot = bot
        self.children = children

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command(SKAT_GROUP)
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("load cogs.skat (the /skat group) before the server-feature cogs")
        for child in self.children:
            group.add_command(child)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command(SKAT_GROUP)
        if isinstance(group, app_commands.Group):
            for child in self.children:
                group.remove_command(child.name)
