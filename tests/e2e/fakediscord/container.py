"""The fake Discord in a container, for the bot's own containers: scripts/docker_standin.sh verify runs it.

    python -m tests.e2e.fakediscord.container      (in the skatbot image, tests/ mounted at /app/tests)

It listens on 0.0.0.0:8080 and tells the bots it is http://$FAKE_HOST:8080 (default: fakediscord, the
container's name on their network); the bots reach it through launch_bot (FAKE_DISCORD_REST and
FAKE_DISCORD_GATEWAY). GET /gateway/bot recommends two shards, and there is a server on each. It then plays
an operator's day, printing one `FAKE` line per step for the script to wait for:
1. once shards 0 and 1 are connected (one process running both, or one process each) and the commands are
   published, alice opens a table on each server, seats two computer players and starts it;
2. once every shard has gone away and both are back (the bots were stopped and started again, on the same
   database), it waits for each table's "I was restarted" notice;
3. it stays up for FAKE_LINGER seconds (default 900), so the bots stay connected (healthy) meanwhile.
Every wait is bounded; a wait that runs out prints `FAKE FAILED` and exits 1.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

from aiohttp import web

from .emojis import EmojiRoutes
from .fake import FakeDiscord
from .rest import make_middleware
from .state import Channel, Message

PORT = 8080


class ContainerFake(FakeDiscord):
    """FakeDiscord on every address of its container, under the host name the bots know it by."""

    def __init__(self, host: str, shard_count: int) -> None:
        super().__init__(shard_count=shard_count)
        self.host = host

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[make_middleware(self.world)], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._attachment)
        self._bot_routes.register(app)
        self._ix_routes.register(app)
        EmojiRoutes(self.world).register(app)
        app.on_shutdown.append(self._close_gateway)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "0.0.0.0", PORT).start()  # noqa: S104  # the bots are other containers
        self._port = PORT
        self.gateway.url = self.gateway_url
        return self

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{PORT}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{PORT}/gateway"


def say(text: str) -> None:
    print(f"FAKE {time.strftime('%H:%M:%S')} {text}", flush=True)


def live_shards(fake: FakeDiscord) -> set[int]:
    """The shards with an open, identified connection that received their servers."""
    return {session.shard[0] for session in fake.gateway.sessions
            if session.identified and session.guilds_sent and not session.closed and not session.ws.closed}


def in_table_of(fake: FakeDiscord, channel: Channel, message: Message) -> bool:
    """The message is in `channel` or in a thread of it (where the bot may play the table)."""
    return message.channel_id == channel.id or fake.channel(message.channel_id).parent_id == channel.id


async def operate(fake: FakeDiscord) -> None:
    channels = {shard: fake.add_channel(fake.add_guild(f"Club {shard}", shard=shard), "skat") for shard in (0, 1)}
    alice = fake.add_user("alice")
    say(f"listening as {fake.base_url}")
    await fake.wait_for(lambda: live_shards(fake) == {0, 1}, 600, "shards 0 and 1")
    await fake.wait_for_commands("skat", timeout=120)
    say("shards 0 and 1 connected; commands published: " + ", ".join(sorted(fake.world.commands.get(None, {}))))
    for shard, channel in channels.items():
        for command in ("new", "add-ai", "add-ai", "start"):
            answer = await (await fake.slash(alice, channel, "skat", subcommand=command)).wait_message(timeout=60)
            say(f"/skat {command} on shard {shard}'s server: {answer.content!r}")
    say("tables started")
    await fake.wait_for(lambda: not live_shards(fake), 900, "every shard to go away")
    say("every shard gone")
    mark = fake.mark()
    await fake.wait_for(lambda: live_shards(fake) == {0, 1}, 900, "shards 0 and 1 back")
    say("shards 0 and 1 back")
    for shard, channel in channels.items():
        def notice_of(message: Message, channel: Channel = channel) -> bool:
            return "restarted" in message.content and in_table_of(fake, channel, message)
        notice = await fake.wait_for_message(None, notice_of, after=mark, timeout=120)
        say(f"after the restart, shard {shard}'s server: {notice.content!r}")
    say("resumed")


async def main() -> int:
    fake = ContainerFake(os.environ.get("FAKE_HOST", "fakediscord"), shard_count=2)
    await fake.start()
    try:
        await operate(fake)
    except TimeoutError as error:
        say(f"FAILED: {error}")
        return 1
    await asyncio.sleep(float(os.environ.get("FAKE_LINGER", "900")))
    await fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
