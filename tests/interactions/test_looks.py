"""Server settings are read through one cache, and a player's language is kept with the player."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from skatbot.interactions.looks import SHARED_SETTINGS_AGE, Looks
from skatbot.models import Deck, ServerSettings
from skatbot.storage import SqliteStorage
from skatbot.ui.languages import Lang

NOW = datetime(2026, 12, 1, tzinfo=UTC)


class Counting:
    """The storage, counting how often a server's settings are read; `shared` as PostgreSQL says it."""

    def __init__(self, storage: SqliteStorage, shared: bool) -> None:
        self.storage = storage
        self.shared = shared
        self.reads = 0
        self.settings = self
        self.players = storage.players

    async def get(self, *, server_id: int) -> ServerSettings:
        self.reads += 1
        return await self.storage.settings.get(server_id=server_id)


async def test_settings_are_read_once_and_again_only_when_asked_or_shared_and_old(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "skat.sqlite3")
    try:
        await storage.settings.save(settings=ServerSettings(server_id=5, deck_style=Deck.GERMAN), now=NOW)
        alone, now = Counting(storage, shared=False), [0.0]
        looks = Looks(alone, clock=lambda: now[0])  # type: ignore[arg-type]  # the storage, counted
        assert (await looks.settings(5)).deck_style is Deck.GERMAN and (await looks.load(5)).deck is Deck.GERMAN
        now[0] += 10 * SHARED_SETTINGS_AGE
        await looks.settings(5)
        assert alone.reads == 1  # a database of its own: nobody else changes them
        await storage.settings.save(settings=replace(await storage.settings.get(server_id=5), language=Lang("de")), now=NOW)
        assert (await looks.settings(5, fresh=True)).language == "de" and alone.reads == 2
        looks.forget(5)
        assert looks.style_for(5).lang == "en" and (await looks.load(5)).lang == "de"

        shared, now[0] = Counting(storage, shared=True), 0.0
        other = Looks(shared, clock=lambda: now[0])  # type: ignore[arg-type]  # the storage, counted
        await other.settings(5)
        await other.settings(5)
        assert shared.reads == 1
        now[0] += SHARED_SETTINGS_AGE + 1  # another process may have changed them meanwhile
        await other.settings(5)
        assert shared.reads == 2
    finally:
        await storage.close()


async def test_a_players_language_is_stored_once_it_changes_and_read_back_by_a_new_process(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "skat.sqlite3")
    try:
        looks = Looks(storage)
        looks.remember_language(7, "karen", Lang("da"))
        looks.remember_language(7, "karen", Lang("da"))  # unchanged: no second write
        await looks.settled()
        assert await storage.players.languages(player_ids=[7]) == {7: "da"}
        restarted = Looks(storage)
        assert restarted.user_lang(7, Lang("de")) == "de"  # not known before it is read back
        await restarted.load_languages([7, 8])
        assert restarted.user_lang(7, Lang("de")) == "da" and restarted.user_lang(8, Lang("de")) == "de"
    finally:
        await storage.close()
