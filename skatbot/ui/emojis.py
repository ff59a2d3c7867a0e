"""Card faces as the application's own emojis, for buttons and message text.

At start-up the bot lists its application emojis and uploads only the card faces that are missing (drawn by
skatbot.pictures: the German deck's 32 faces, and the French deck's in every language's letters, a face that
looks the same in two languages being one emoji: 52 in all), and deletes faces of an older drawing. A deck
shows emojis only when all of its faces exist; when Discord refuses an upload the cards stay text (logged
once). Text labels stay next to the faces in any case, for screen readers.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable
from typing import Any

import discord

from skatbot.engine import CARDS, Card
from skatbot.models import Deck
from skatbot.pictures import emoji_name, emoji_png
from skatbot.pictures.faces import EMOJI_VERSION, RankLetters
from skatbot.ui.languages import Lang

from .cards import FRENCH, GERMAN, card_label, rank_letters
from .i18n import CODES

log = logging.getLogger(__name__)

DECKS = (FRENCH, GERMAN)
FIRST_LOOK = 1.0
"""Seconds before the first new look for the faces another process uploads; each wait is twice the last, up to
`LOOK_AGAIN` (an upload at start-up takes seconds: its faces show soon, and a long one costs few lists)."""
LOOK_AGAIN = 15.0
"""Seconds between two looks for those faces at the most (a table shows them within a minute)."""
OURS = re.compile(r"sk(\d+)_[fg]_[CSHD][0-9A-Z]")
"""The names of card emojis of any drawing version."""


def deck_faces(deck: Deck) -> dict[str, tuple[Card, RankLetters]]:
    """Every emoji a deck needs, by name: the card and the letters it is drawn with (the French deck's court
    cards and aces once per distinct letter among the languages)."""
    return {emoji_name(card, deck, rank_letters(lang)): (card, rank_letters(lang)) for lang in CODES
            for card in CARDS}


class CardEmojis:
    """The card emojis the application has, per deck (empty until `ensure` ran, or when refused)."""

    def __init__(self) -> None:
        self._faces: dict[str, dict[str, discord.PartialEmoji]] = {}  # deck -> emoji name -> emoji
        self._shown: dict[tuple[Card, str, str], str] = {}  # (card, deck, lang) -> `face`, until the faces change
        self.refused: str | None = None  # why Discord refused an upload, once it did

    def emoji(self, card: Card, deck: Deck, lang: Lang) -> discord.PartialEmoji | None:
        """The face for a button or menu option, lettered in the reader's language, or None (text only)."""
        return self._faces.get(deck, {}).get(emoji_name(card, deck, rank_letters(lang)))

    def inline(self, card: Card, deck: Deck, lang: Lang) -> str:
        """The face as message markup (`<:sk1_f_CJ:123>`), or "" when the deck has no emojis."""
        emoji = self.emoji(card, deck, lang)
        return str(emoji) if emoji is not None else ""

    def face(self, card: Card, deck: Deck, lang: Lang) -> str:
        """A card in message text: its face, then its label in the reader's language (read by screen readers,
        and the fallback)."""
        key = (card, deck, lang)
        shown = self._shown.get(key)
        if shown is None:
            shown = self._shown[key] = self.inline(card, deck, lang) + card_label(card, deck, lang)
        return shown

    def faces(self, cards: Iterable[Card], deck: Deck, lang: Lang) -> str:
        return " ".join(self.face(card, deck, lang) for card in cards) or "–"

    def ready(self, deck: Deck) -> bool:
        return deck in self._faces

    def use(self, existing: Iterable[Any]) -> None:
        """Take the faces of every deck that is complete among `existing` (emojis with .name and .id)."""
        self._shown.clear()
        by_name = {e.name: e for e in existing}
        for deck in DECKS:
            found = {name: by_name.get(name) for name in deck_faces(deck)}
            if all(found.values()):
                self._faces[deck] = {name: discord.PartialEmoji(name=e.name, id=e.id) for name, e in found.items()
                                     if e is not None}
            else:
                self._faces.pop(deck, None)

    async def ensure(self, client: discord.Client, *, create: bool = True) -> None:
        """List the application's emojis, delete faces of older drawings, upload the missing ones (`create`:
        one process of a sharded bot does that; the others only use what exists)."""
        try:
            existing = list(await client.fetch_application_emojis())
        except discord.HTTPException as error:
            self._refuse(f"could not list the application emojis: {error}")
            return
        if not create:
            await self._wait_for_faces(client, existing)
            return
        stale = [e for e in existing if (m := OURS.fullmatch(e.name)) and int(m.group(1)) != EMOJI_VERSION]
        for emoji in stale:
            try:
                await emoji.delete()
            except discord.HTTPException as error:
                log.info("could not delete the old card emoji %s: %s", emoji.name, error)
        current = [e for e in existing if e not in stale]
        names = {e.name for e in current}
        for deck in DECKS:
            for name, (card, letters) in deck_faces(deck).items():
                if name in names:
                    continue
                image = await asyncio.to_thread(emoji_png, card, deck, letters)
                try:
                    current.append(await client.create_application_emoji(name=name, image=image))
                except discord.HTTPException as error:
                    self._refuse(f"could not upload the card emoji {name}: {error}")
                    self.use(current)
                    return
        self.use(current)
        log.info("card emojis ready: %s", ", ".join(deck for deck in DECKS if self.ready(deck)) or "none")

    async def _wait_for_faces(self, client: discord.Client, existing: list[Any]) -> None:
        """Another process (shard 0's) uploads the faces, maybe at this very moment: use what exists, and list
        the emojis again (after `FIRST_LOOK` seconds, then twice as long each time, at most `LOOK_AGAIN`) until
        every deck is complete (the bot cancels this task when it closes)."""
        wait = FIRST_LOOK
        while True:
            self.use(existing)
            in_use = [deck for deck in DECKS if self.ready(deck)]
            log.info("card emojis in use: %s", ", ".join(in_use) or "none")
            if len(in_use) == len(DECKS):
                return
            while True:
                await asyncio.sleep(wait)
                wait = min(2 * wait, LOOK_AGAIN)
                try:
                    listed = list(await client.fetch_application_emojis())
                except discord.HTTPException as error:
                    log.info("could not list the application emojis (will look again): %s", error)
                    continue
                if {e.name for e in listed} != {e.name for e in existing}:
                    existing = listed
                    break

    def _refuse(self, why: str) -> None:
        if self.refused is None:
            log.warning("%s; cards are shown as text", why)
        self.refused = why


CARD_EMOJIS = CardEmojis()
"""The process's card emojis: one application, one set (filled at start-up by the bot)."""
