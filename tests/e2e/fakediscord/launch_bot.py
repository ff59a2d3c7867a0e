"""Run an unmodified bot script against the fake Discord.

    FAKE_DISCORD_REST=http://127.0.0.1:PORT/api/v10 FAKE_DISCORD_GATEWAY=ws://127.0.0.1:PORT/gateway \\
        python -m tests.e2e.fakediscord.launch_bot bot.py [args...]

discord.py builds every REST URL from `discord.http.Route.BASE` (the interaction webhook adapter uses
the same Route class) and, for a non-sharded Client, connects to
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` directly (only AutoShardedClient asks
GET /gateway/bot, which the fake answers with its own URL). Patching both before the script runs
is all it takes; the gateway connection is also made without zlib (see _connect_uncompressed).
FAKE_DISCORD_GUILD_READY_TIMEOUT (default 0.2s, discord.py's is 2s) shortens the wait between the
last GUILD_CREATE and on_ready, unless the bot sets guild_ready_timeout itself.
"""

from __future__ import annotations

import faulthandler
import functools
import os
import runpy
import signal
import sys
from typing import Any


def patch_discord(rest_url: str, gateway_url: str, guild_ready_timeout: float) -> None:
    """Point discord.py at the fake; call before the bot creates its Client."""
    import discord
    import discord.gateway
    import discord.http
    import discord.state
    import yarl

    # Refuse to run if discord.py renamed what we patch: the bot would silently talk to discord.com.
    for owner, name in ((discord.http.Route, "BASE"), (discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY"),
                        (discord.gateway.DiscordWebSocket, "from_client")):
        if not hasattr(owner, name):
            raise RuntimeError(f"discord.py {discord.__version__} has no {owner.__name__}.{name}; "
                               "launch_bot cannot point it at the fake")
    discord.http.Route.BASE = rest_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    _connect_uncompressed(discord.gateway.DiscordWebSocket)
    original_init = discord.state.ConnectionState.__init__

    @functools.wraps(original_init)
    def init(self: Any, *args: Any, **options: Any) -> None:
        options.setdefault("guild_ready_timeout", guild_ready_timeout)
        original_init(self, *args, **options)

    discord.state.ConnectionState.__init__ = init  # type: ignore[method-assign]  # patched for every client


def _connect_uncompressed(websocket: Any) -> None:
    """Make Client.connect() ask for an uncompressed gateway (no `compress=zlib-stream` in the URL).

    Client.connect() never passes `compress`, so DiscordWebSocket.from_client() always asks for
    zlib-stream (zstd-stream when zstandard is installed); its own `compress=False` is the switch.
    """
    original = websocket.from_client.__func__

    async def from_client(cls: Any, /, client: Any, **kwargs: Any) -> Any:
        kwargs["compress"] = False
        return await original(cls, client, **kwargs)

    websocket.from_client = classmethod(from_client)


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        raise SystemExit("usage: python -m tests.e2e.fakediscord.launch_bot SCRIPT [ARGS...]")
    try:
        rest, gateway = os.environ["FAKE_DISCORD_REST"], os.environ["FAKE_DISCORD_GATEWAY"]
    except KeyError as missing:
        raise SystemExit(f"launch_bot needs {missing} in the environment") from None
    # `kill -USR1 <pid>` prints every thread's stack: how to see where a hung bot is stuck.
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    patch_discord(rest, gateway, float(os.environ.get("FAKE_DISCORD_GUILD_READY_TIMEOUT", "0.2")))
    script = argv[1]
    sys.argv = argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv)
