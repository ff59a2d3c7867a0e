"""A tiny discord.py bot that exercises every feature of the fake Discord; run it through launch_bot.

It is not skatbot: it exists to prove the harness (tests/e2e/test_fakediscord.py) before the real
bot has commands. Everything it learns about failures it reports back through Discord itself, so the
tests can observe it the way a user would.
"""

from __future__ import annotations

import asyncio
import io
import os

import discord
from discord import app_commands
from discord.ext import commands

BIDS = [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60]


class CounterView(discord.ui.View):
    """A persistent view: its button keeps working after the bot restarts."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Count", style=discord.ButtonStyle.primary, custom_id="sample:count")
    async def count(self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]) -> None:
        assert interaction.message is not None
        current = int(interaction.message.content.rsplit(" ", 1)[-1])
        await interaction.response.edit_message(content=f"count {current + 1}", view=self)


class HandView(discord.ui.View):
    """Sent by DM: the click arrives from a DM channel (with `user`, not `member`)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Play CJ", style=discord.ButtonStyle.secondary, custom_id="sample:play:CJ")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button[HandView]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"played CJ ({interaction.user.name})", view=None)


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="sample:pick", min_values=1, max_values=2, options=[
        discord.SelectOption(label="Clubs", value="C"), discord.SelectOption(label="Spades", value="S"),
        discord.SelectOption(label="Hearts", value="H"), discord.SelectOption(label="Diamonds", value="D")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[PickView]) -> None:
        await interaction.response.send_message(f"picked {','.join(select.values)}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="sample:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


skat = app_commands.Group(name="skat", description="Sample commands")


@skat.command(description="Answers only you")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong", ephemeral=True)


@skat.command(description="Describes what discord.py made of this interaction")
async def whoami(interaction: discord.Interaction) -> None:
    user, channel = interaction.user, interaction.channel
    facts = [
        f"user={type(user).__name__}:{user.name}",
        f"guild={interaction.guild.name if interaction.guild else None}",
        f"channel={type(channel).__name__}:{getattr(channel, 'name', None)}",
        f"manage_guild={interaction.permissions.manage_guild}",
        f"bot_can_send={interaction.app_permissions.send_messages}",
        f"locale={interaction.locale.value}",
        f"expired={interaction.is_expired()}",
        f"me_in_guild={interaction.guild is not None and interaction.guild.me is not None}",
    ]
    await interaction.response.send_message(" ".join(facts), ephemeral=True)


@skat.command(description="Says it publicly")
async def echo(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(text)


@skat.command(description="A button that counts")
async def counter(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("count 0", view=CounterView())


@skat.command(description="A select menu")
async def pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick suits", view=PickView())


@skat.command(description="Bid a value")
async def bid(interaction: discord.Interaction, value: int) -> None:
    await interaction.response.send_message(f"you bid {value}", ephemeral=True)


@bid.autocomplete("value")
async def bid_values(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    return [app_commands.Choice(name=str(v), value=v) for v in BIDS if str(v).startswith(current)][:25]


@skat.command(description="Sends you a DM")
async def hand(interaction: discord.Interaction) -> None:
    try:
        await interaction.user.send("your hand: CJ SJ HA", view=HandView())
    except discord.Forbidden as exc:
        await interaction.response.send_message(f"cannot DM you ({exc.code})", ephemeral=True)
        return
    await interaction.response.send_message("sent you a DM", ephemeral=True)


@skat.command(description="Answers after a delay")
async def slow(interaction: discord.Interaction, seconds: float) -> None:
    await asyncio.sleep(seconds)
    try:
        await interaction.response.send_message("finally")
    except discord.NotFound as exc:
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable), "the command is used in a text channel"
        await channel.send(f"too late ({exc.code})")


@skat.command(description="Answers twice at once")
async def double(interaction: discord.Interaction) -> None:
    results = await asyncio.gather(interaction.response.send_message("one"),
                                   interaction.response.send_message("two"), return_exceptions=True)
    codes = [getattr(r, "code", "ok") if isinstance(r, Exception) else "ok" for r in results]
    await interaction.followup.send(f"results {sorted(map(str, codes))}")


@skat.command(description="Thinks, then follows up")
async def think(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("thought")
    await interaction.followup.send("a secret", ephemeral=True)
    await interaction.edit_original_response(content="thought harder")


@skat.command(description="Sends a file")
async def file(interaction: discord.Interaction) -> None:
    jacks = discord.File(io.BytesIO(b"CJ SJ HJ DJ"), "jacks.txt")
    await interaction.response.send_message("a file", file=jacks)


@skat.command(description="Opens a table thread")
async def table(interaction: discord.Interaction) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    try:
        message = await channel.send("table")
        thread = await message.create_thread(name="skat table")
        await thread.send("welcome to the table")
        private = await channel.create_thread(name="backroom", type=discord.ChannelType.private_thread)
        await private.add_user(interaction.user)
        await private.send("psst")
    except discord.Forbidden as exc:
        await interaction.response.send_message(f"no table here ({exc.code})", ephemeral=True)
        return
    await interaction.response.send_message(f"opened {thread.mention}", ephemeral=True)


@skat.command(description="Too long to send")
async def long(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.send_message("x" * 2001)
    except discord.HTTPException as exc:
        await interaction.response.send_message(f"refused ({exc.code})")


@skat.command(description="Asks for your name")
async def name(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@skat.command(description="Posts, edits and deletes in the channel")
async def post(interaction: discord.Interaction) -> None:
    assert isinstance(interaction.channel, discord.abc.Messageable)
    await interaction.response.defer(ephemeral=True, thinking=True)
    first = await interaction.channel.send("draft", file=discord.File(io.BytesIO(b"x"), "a.txt"))
    await first.edit(content="final")
    doomed = await interaction.channel.send("doomed")
    await doomed.delete()
    fetched = await interaction.channel.fetch_message(first.id)
    history = [m.content async for m in interaction.channel.history(limit=10)]
    await interaction.followup.send(f"fetched {fetched.content}; history {history}")


async def setup(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """Shared by both bot classes: commands, the persistent view, the sync."""
    bot.tree.add_command(skat)
    bot.add_view(CounterView())
    await bot.tree.sync()


class SampleBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        await setup(self)

    async def on_ready(self) -> None:
        print(f"READY as {self.user} in {len(self.guilds)} guild(s)", flush=True)


class ShardedSampleBot(commands.AutoShardedBot):
    """SAMPLE_SHARDED=1: asks GET /gateway/bot for the URL and identifies with a shard."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        await setup(self)


if __name__ == "__main__":
    bot_class = ShardedSampleBot if os.environ.get("SAMPLE_SHARDED") == "1" else SampleBot
    bot_class().run(os.environ["DISCORD_TOKEN"])
