"""How things are shown to whom: each server's style and each player's language, cached."""

from __future__ import annotations

from skatbot.storage import Storage
from skatbot.ui.presenter import Style


class Looks:
    """How things are shown: each server's language, deck and pictures (from /skat settings, cached) and the
    language each player's Discord client speaks (private messages are in it)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.styles: dict[int, Style] = {}
        self.user_langs: dict[int, str] = {}

    def style_for(self, guild_id: int) -> Style:
        return self.styles.get(guild_id, Style())

    async def load(self, guild_id: int | None) -> Style:
        """The server's style, read from its settings the first time."""
        if guild_id is None:
            return Style()
        if guild_id not in self.styles:
            settings = await self.storage.settings.get(server_id=guild_id)
            self.styles[guild_id] = Style(settings.language, settings.deck_style, settings.pictures)
        return self.styles[guild_id]

    def forget(self, guild_id: int) -> None:
        """The server's settings changed: read them again next time."""
        self.styles.pop(guild_id, None)

    def user_lang(self, user_id: int, fallback: str) -> str:
        return self.user_langs.get(user_id, fallback)
