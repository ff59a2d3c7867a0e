"""The discord.py client: a small Bot whose setup_hook loads an explicit list of extensions."""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord
from discord.ext import commands

from skatbot.config import Settings

log = logging.getLogger(__name__)

# The extensions the bot loads at start-up, in order ("cogs.tables", ...). Explicit, so that what runs
# is what is listed here and nothing is picked up by accident.
EXTENSIONS: tuple[str, ...] = ()


class SkatBot(commands.Bot):
    """The bot. Slash commands only, so the default intents suffice (no privileged intents)."""

    def __init__(self, settings: Settings, extensions: Iterable[str] = EXTENSIONS) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
        )
        self.settings = settings
        self.extension_names: tuple[str, ...] = tuple(extensions)

    async def setup_hook(self) -> None:
        """Load the extensions, then publish the slash commands.

        With SKATBOT_DEV_GUILD set the commands go to that server only, where changes show at once;
        otherwise they are published globally, which Discord may take a while to show everywhere.
        """
        for name in self.extension_names:
            await self.load_extension(name)
            log.info("loaded extension %s", name)
        guild_id = self.settings.dev_guild_id
        if guild_id is None:
            synced = await self.tree.sync()
            log.info("published %d global application commands", len(synced))
        else:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("published %d application commands to development server %d", len(synced), guild_id)

    async def on_ready(self) -> None:
        """Say who we are once connected, so the operator sees the login worked."""
        user = self.user
        log.info("logged in as %s (id %s) in %d servers", user, user.id if user else "?", len(self.guilds))
