"""What the server-feature cogs share: attaching their commands to the `/skat` group and the reader's
language. Replies and refusals go out through skatbot.interactions.replies, like every other answer.

discord.py allows one GroupCog per group name, and `/skat` belongs to cogs.skat; so these cogs are plain
Cogs that add their subcommands (and subcommand groups) to that group when loaded, and take them off
when unloaded. Discord allows 25 children per group, hence the groups `scores` and `help`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from skatbot.app import skat_bot
from skatbot.interactions.looks import looks_of
from skatbot.models import DealRecord
from skatbot.storage import NotFound
from skatbot.ui.i18n import language_of, template
from skatbot.ui.languages import Lang
from skatbot.ui.refusals import ServerError

if TYPE_CHECKING:
    from skatbot.app import SkatBot

SKAT_GROUP = "skat"


def en(key: str) -> str:
    """The English text of a command or option description (German comes through the translator)."""
    return template("en", key)


def describe(key: str) -> app_commands.locale_str:
    """An option description the translator can localize (discord.py translates only locale_str there)."""
    return app_commands.locale_str(template("en", key), key=key)


def choice(key: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=app_commands.locale_str(template("en", key), key=key), value=value)


async def server_language(interaction: discord.Interaction) -> Lang:
    """The reader's Discord locale if we speak it, else the server's language."""
    fallback = "en"
    if interaction.guild_id is not None:
        fallback = (await looks_of(interaction).settings(interaction.guild_id)).language
    return language_of(str(interaction.locale), fallback)


def guild_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise ServerError("server.error.guild_only")
    return interaction.guild_id


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


__all__ = ["AttachingCog", "ServerError", "choice", "describe", "en", "guild_id_of", "server_language"]


async def deal_of_this_server(interaction: discord.Interaction, deal_id: int) -> DealRecord:
    """A stored deal by its number, only if it was played on this server (else refused as unknown)."""
    try:
        stored = await skat_bot(interaction).storage.deals.get(deal_id=deal_id)
    except NotFound:
        raise ServerError("record.error.no_deal", deal=deal_id) from None
    if stored.server_id != guild_id_of(interaction):
        raise ServerError("record.error.no_deal", deal=deal_id)
    return stored
