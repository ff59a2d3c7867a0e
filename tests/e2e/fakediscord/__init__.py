"""A loopback stand-in for Discord (gateway websocket + REST) for end-to-end tests of the bot.

See tests/e2e/README.md. Typical use:

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Skat Club"); table = fake.add_channel(guild, "skat")
        alice = fake.add_user("alice")
        bot = BotProcess(fake, "bot.py"); await bot.start(); await fake.wait_until_ready()
        ix = await fake.slash(alice, table, "skat", subcommand="new")
        msg = await ix.wait_message()
"""

from .fake import FakeDiscord
from .process import BotProcess
from .records import Interaction, RestCall, Tap, Violation
from .state import Channel, Guild, Message, MessageVersion, Role, User

__all__ = [
    "BotProcess", "Channel", "FakeDiscord", "Guild", "Interaction", "Message", "MessageVersion", "RestCall",
    "Role", "Tap", "User", "Violation",
]
