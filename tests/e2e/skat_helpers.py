"""Scripted players for the real bot on the fake Discord: they read their DMs and press what is legal."""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

from tests.e2e.conftest import StartBot
from tests.e2e.fakediscord import BotProcess, Channel, FakeDiscord, Message, User

BOT = "bot.py"


async def start_skatbot(fake: FakeDiscord, start_bot: StartBot, database: str, **env: str) -> BotProcess:
    proc = BotProcess(fake, BOT, env={"SKATBOT_DATABASE": database, "SKATBOT_AI_PAUSE": "0",
                                      "SKATBOT_LOG_LEVEL": "INFO", **env})
    start_bot.procs.append(proc)
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    return proc


def hand_message(fake: FakeDiscord, user: User) -> Optional[Message]:
    """The newest live hand message in the user's DMs."""
    dms = [m for m in fake.dms(user) if not m.deleted and m.content.startswith("**Your hand**")]
    return dms[-1] if dms else None


def control_id(message: Message, kind: str) -> str:
    """The custom_id of the message's control of this kind (lobby: join, leave, addai, start), as drawn."""
    for component in message.walk_components():
        custom_id = str(component.get("custom_id", ""))
        if custom_id.startswith("sk:") and custom_id.split(":")[3] == kind:
            return custom_id
    raise LookupError(f"message {message.id} has no {kind!r} control: {message.content[:80]!r}")


def enabled_controls(message: Message) -> List[Dict[str, Any]]:
    if message.deleted:
        return []
    return [c for c in message.walk_components() if c.get("type") in (2, 3) and not c.get("disabled")]


async def play_until(fake: FakeDiscord, channel: Channel, users: List[User], done: Any, rng: random.Random,
                     limit: int = 400, wait: float = 30.0) -> None:
    """Each user presses what is legal on their newest hand message until `done()` holds."""
    for _ in range(limit):
        if done():
            return

        def ready() -> Any:
            if done():
                return "done"
            for user in users:
                message = hand_message(fake, user)
                if message is not None and game_controls(message):
                    return (user, message)
            return None

        found = await fake.wait_for(ready, wait, "a player's turn or the end")
        if found == "done":
            return
        user, message = found
        await press_something(fake, user, message, rng)
    raise AssertionError("the game did not finish")


def game_controls(message: Message) -> List[Dict[str, Any]]:
    """Enabled controls that move the game on (not claim, concede, Kontra or Re)."""
    return [c for c in enabled_controls(message)
            if c.get("custom_id", "").split(":")[3] not in ("claim", "concede", "kontra", "re", "hint")]


async def press_something(fake: FakeDiscord, user: User, message: Message, rng: random.Random) -> bool:
    """Press one enabled game control on a hand message (a seeded choice); False if there is none."""
    controls = game_controls(message)
    if not controls:
        return False
    control = rng.choice(controls)
    if control["type"] == 2:
        await (await fake.click(user, message, control["custom_id"])).wait_acked()
    else:
        options = [o["value"] for o in control["options"]]
        count = control.get("min_values", 1)
        await (await fake.select(user, message, control["custom_id"], rng.sample(options, count))).wait_acked()
    return True


def public_texts(fake: FakeDiscord, channel: Channel) -> List[str]:
    return [v.content for m in fake.messages(channel) if m.visibility == "public" for v in m.history]


async def open_table(fake: FakeDiscord, user: User, channel: Channel, **options: Any) -> tuple[str, Channel]:
    """`user` runs /skat new in `channel`; returns the reply and where the table plays (its thread, if the
    bot opened one, else the channel itself)."""
    before = {thread.id for thread in fake.threads(channel)}
    reply = await (await fake.slash(user, channel, "skat", subcommand="new", options=options)).wait_message()
    fresh = [thread for thread in fake.threads(channel) if thread.id not in before]
    return reply.content, (fresh[0] if fresh else channel)
