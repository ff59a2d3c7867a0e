"""Helpers for the real bot on the fake Discord: start it, open a table, find a hand, a control, the public texts.

The scripted players themselves are in skat_players."""

from __future__ import annotations

import functools
from typing import Any

from skatbot.pictures import emoji_png
from skatbot.ui.emojis import DECKS, deck_faces
from tests.controls import control_kind
from tests.e2e.conftest import StartBot
from tests.e2e.fakediscord import BotProcess, Channel, FakeDiscord, Message, User
from tests.e2e.fakediscord.emojis import AppEmoji

BOT = "bot.py"
KONTRA_WINDOW = "2"
"""Seconds a Kontra table's leader waits for Kontra (SKATBOT_KONTRA_WINDOW), where the wait is not what is tested:
Kontra is said before the first card all the same, and each deal is 6 s shorter than at the default 8."""


@functools.cache
def card_faces() -> tuple[tuple[str, bytes], ...]:
    """Every card face the bot keeps as an application emoji (name, PNG), drawn as the bot draws them, once per
    test process."""
    return tuple((name, emoji_png(card, deck, letters)) for deck in DECKS
                 for name, (card, letters) in deck_faces(deck).items())


def faces_uploaded(fake: FakeDiscord) -> None:
    """The application has the card faces already, as at every start of the bot but its first (a fresh
    application's first start uploads all 84, which takes a test's bot seconds: tests/e2e/test_skatbot_faces.py
    and test_skatbot_faces_shards.py start on a fresh one)."""
    if not fake.world.application_emojis:
        for name, image in card_faces():
            emoji = AppEmoji(fake.world.ids.next(), name, image)
            fake.world.application_emojis[emoji.id] = emoji


async def start_skatbot(fake: FakeDiscord, start_bot: StartBot, database: str, **env: str) -> BotProcess:
    """Start bot.py on the SQLite file `database` (AI pause 0) until it is connected and synced; the application
    has its card faces already (`faces_uploaded`)."""
    faces_uploaded(fake)
    return await start_skatbot_on_fresh_application(fake, start_bot, database, **env)


async def start_skatbot_on_fresh_application(fake: FakeDiscord, start_bot: StartBot, database: str,
                                             **env: str) -> BotProcess:
    """`start_skatbot` on the application as the fake has it (a new one: no card faces yet)."""
    proc = BotProcess(fake, BOT, env={"SKATBOT_DATABASE": database, "SKATBOT_AI_PAUSE": "0",
                                      "SKATBOT_LOG_LEVEL": "INFO", **env})
    start_bot.procs.append(proc)
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    return proc


def hand_message(fake: FakeDiscord, user: User) -> Message | None:
    """The newest live hand message in the user's DMs."""
    dms = [m for m in fake.dms(user) if not m.deleted and m.content.startswith("**Your hand**")]
    return dms[-1] if dms else None


def control_id(message: Message, kind: str) -> str:
    """The custom_id of the message's control of this kind (lobby: join, leave, addai, start), as drawn."""
    for component in message.walk_components():
        custom_id = str(component.get("custom_id", ""))
        if custom_id.startswith("sk:") and control_kind(component) == kind:
            return custom_id
    raise LookupError(f"message {message.id} has no {kind!r} control: {message.content[:80]!r}")


def public_texts(fake: FakeDiscord, channel: Channel) -> list[str]:
    return [v.content for m in fake.messages(channel) if m.visibility == "public" for v in m.history]


async def open_table(fake: FakeDiscord, user: User, channel: Channel, **options: Any) -> tuple[str, Channel]:
    """`user` runs /skat new in `channel`; returns the reply and where the table plays (its thread, if the
    bot opened one, else the channel itself)."""
    before = {thread.id for thread in fake.threads(channel)}
    reply = await (await fake.slash(user, channel, "skat", subcommand="new", options=options)).wait_message()
    fresh = [thread for thread in fake.threads(channel) if thread.id not in before]
    return reply.content, (fresh[0] if fresh else channel)
