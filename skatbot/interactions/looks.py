"""Each server's settings and each player's language, read once and kept: the one way the bot reads them."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

import discord

from skatbot.models import Player, ServerSettings, StoreBusy
from skatbot.storage import Storage
from skatbot.ui.languages import Lang, language_of
from skatbot.ui.presenter import Style
from skatbot.ui.refusals import ServerError

log = logging.getLogger(__name__)

SHARED_SETTINGS_AGE = 30.0
"""Seconds a server's settings are kept when other processes share the database (and may change them with
/skat settings); with a database of its own, a process keeps them until it changes them itself."""


class Looks:
    """How things are shown: each server's settings (from /skat settings: language, deck, pictures, rules,
    timers), cached until they change (for at most half a minute when other processes share the database), and the language each player's Discord client speaks (their direct
    messages are in it), kept with the player in the database so a restart does not forget it."""

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.monotonic) -> None:
        self.storage = storage
        self.clock = clock
        self._settings: dict[int, tuple[ServerSettings, float]] = {}
        self.styles: dict[int, Style] = {}
        self.user_langs: dict[int, Lang] = {}
        self._writes: set[asyncio.Task[None]] = set()

    async def settings(self, guild_id: int, *, fresh: bool = False) -> ServerSettings:
        """The server's settings, read from the database the first time (`fresh`: again now, as /skat settings
        does before it changes them)."""
        kept = self._settings.get(guild_id)
        if fresh or kept is None or (self.storage.shared and self.clock() - kept[1] > SHARED_SETTINGS_AGE):
            settings = await self.storage.settings.get(server_id=guild_id)
            kept = self._settings[guild_id] = (settings, self.clock())
            self.styles[guild_id] = Style(language_of(None, settings.language), settings.deck_style, settings.pictures)
        return kept[0]

    def style_for(self, guild_id: int) -> Style:
        return self.styles.get(guild_id, Style())

    async def load(self, guild_id: int | None) -> Style:
        """The server's style (language, deck, pictures), read from its settings the first time."""
        if guild_id is None:
            return Style()
        await self.settings(guild_id)
        return self.styles[guild_id]

    def forget(self, guild_id: int) -> None:
        """The server's settings changed: read them again next time."""
        self._settings.pop(guild_id, None)
        self.styles.pop(guild_id, None)

    def user_lang(self, user_id: int, fallback: Lang) -> Lang:
        return self.user_langs.get(user_id, fallback)

    def remember_language(self, user_id: int, name: str, lang: Lang) -> None:
        """The language a player's client speaks, seen on one of their interactions: kept here at once, and
        stored with the player when it changed (in the background: nothing waits for it)."""
        if self.user_langs.get(user_id) == lang:
            return
        self.user_langs[user_id] = lang
        write = asyncio.ensure_future(self._store_language(Player(user_id, name[:100] or "?"), lang))
        self._writes.add(write)
        write.add_done_callback(self._writes.discard)

    async def _store_language(self, player: Player, lang: Lang) -> None:
        try:
            await self.storage.players.set_language(player=player, language=lang, now=datetime.now(UTC))
        except (StoreBusy, ValueError) as error:  # asked again the next time the language is seen to change
            self.user_langs.pop(player.player_id, None)
            log.info("could not store the language of player %s: %s", player.player_id, error)

    async def load_languages(self, user_ids: list[int]) -> None:
        """The stored languages of these players (those at a table rebuilt after a restart), unless this
        process has seen them already."""
        wanted = [user_id for user_id in user_ids if user_id not in self.user_langs]
        if wanted:
            for user_id, lang in (await self.storage.players.languages(player_ids=wanted)).items():
                self.user_langs.setdefault(user_id, language_of(None, lang))

    async def settled(self) -> None:
        """Wait for the language writes under way (tests, and a clean stop)."""
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)


def looks_of(interaction: discord.Interaction) -> Looks:
    """The bot's one reader of server settings and player languages (built in its setup_hook)."""
    looks = getattr(getattr(interaction.client, "services", None), "looks", None)
    if not isinstance(looks, Looks):
        raise ServerError("error.starting")
    return looks
