"""SkatBot: no privileged intents; setup_hook loads the listed extensions in order and publishes the
slash commands to the development server when one is set, globally otherwise."""

from __future__ import annotations

import importlib
import inspect
import textwrap
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from skatbot import app
from skatbot.app import SkatBot
from skatbot.config import Settings


class SyncRecorder:
    """Stands in for CommandTree.sync, which would call Discord."""

    def __init__(self) -> None:
        self.guilds: list[discord.abc.Snowflake | None] = []

    async def __call__(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        self.guilds.append(guild)
        return []


MakeBot = Callable[..., tuple[SkatBot, SyncRecorder]]


@pytest.fixture
async def make_bot(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[MakeBot]:
    made: list[SkatBot] = []

    def factory(settings: Settings, extensions: tuple[str, ...] = ()) -> tuple[SkatBot, SyncRecorder]:
        client = SkatBot(settings, extensions)
        recorder = SyncRecorder()
        monkeypatch.setattr(client.tree, "sync", recorder)
        made.append(client)
        return client, recorder

    yield factory
    for client in made:
        await client.close()


def write_extension(folder: Path, name: str) -> None:
    """An extension module whose setup records its own name on the bot."""
    (folder / f"{name}.py").write_text(
        textwrap.dedent(
            f"""
            async def setup(bot):
                bot.loaded_for_test = [*getattr(bot, "loaded_for_test", []), {name!r}]
            """
        )
    )


def test_no_privileged_intents() -> None:
    intents = SkatBot(Settings()).intents
    assert not intents.members
    assert not intents.presences
    assert not intents.message_content
    assert intents.guilds


def test_listed_extensions_are_cogs_with_setup() -> None:
    for name in app.EXTENSIONS:
        assert name.startswith("cogs."), name
        assert inspect.iscoroutinefunction(importlib.import_module(name).setup), name


async def test_setup_hook_loads_extensions_in_order_and_syncs_globally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_bot: MakeBot
) -> None:
    write_extension(tmp_path, "skatbot_test_ext_b")
    write_extension(tmp_path, "skatbot_test_ext_a")
    monkeypatch.syspath_prepend(str(tmp_path))
    client, recorder = make_bot(Settings(), ("skatbot_test_ext_b", "skatbot_test_ext_a"))

    await client.setup_hook()

    assert client.loaded_for_test == ["skatbot_test_ext_b", "skatbot_test_ext_a"]  # type: ignore[attr-defined]
    assert set(client.extensions) == {"skatbot_test_ext_b", "skatbot_test_ext_a"}
    assert recorder.guilds == [None]


async def test_setup_hook_publishes_to_dev_guild(make_bot: MakeBot) -> None:
    client, recorder = make_bot(Settings(dev_guild_id=1234))

    @client.tree.command(name="ping", description="test command")
    async def ping(interaction: discord.Interaction) -> None:
        raise AssertionError("never invoked")

    await client.setup_hook()

    [guild] = recorder.guilds
    assert guild is not None and guild.id == 1234
    assert [command.name for command in client.tree.get_commands(guild=discord.Object(id=1234))] == ["ping"]


async def test_missing_extension_fails_setup(make_bot: MakeBot) -> None:
    client, recorder = make_bot(Settings(), ("skatbot_no_such_extension",))

    with pytest.raises(discord.ext.commands.ExtensionNotFound):
        await client.setup_hook()
    assert recorder.guilds == []
