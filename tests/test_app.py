"""SkatBot: no privileged intents; sharded as configured; setup_hook loads the listed extensions in order and
publishes the slash commands (to the development server when one is set, globally otherwise) from shard 0's
process, and only when they changed since the last publication."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import inspect
import logging
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from skatbot import app
from skatbot.app import SkatBot
from skatbot.config import Settings
from skatbot.models import Lang
from skatbot.storage import SqliteStorage
from tests.e2e.fakediscord import BotProcess


class SyncRecorder:
    """Stands in for CommandTree.sync, which would call Discord."""

    def __init__(self) -> None:
        self.guilds: list[discord.abc.Snowflake | None] = []

    async def __call__(self, *, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        self.guilds.append(guild)
        return []


MakeBot = Callable[..., Awaitable[tuple[SkatBot, SyncRecorder]]]


@pytest.fixture
async def make_bot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AsyncIterator[MakeBot]:
    """Bots on one database in tmp_path (a second bot is the same server started again)."""
    made: list[SkatBot] = []

    async def factory(settings: Settings, extensions: tuple[str, ...] = ()) -> tuple[SkatBot, SyncRecorder]:
        client = SkatBot(dataclasses.replace(settings, database_path=tmp_path / "bot.sqlite3"), extensions)
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
    client, recorder = await make_bot(Settings(), ("skatbot_test_ext_b", "skatbot_test_ext_a"))

    await client.setup_hook()

    # the test extensions' setup leaves this list on the bot
    assert client.loaded_for_test == ["skatbot_test_ext_b", "skatbot_test_ext_a"]  # type: ignore[attr-defined]
    assert set(client.extensions) == {"skatbot_test_ext_b", "skatbot_test_ext_a"}
    assert recorder.guilds == [None]


async def test_close_unloads_the_real_extensions_last_loaded_first(
    make_bot: MakeBot, caplog: pytest.LogCaptureFixture
) -> None:
    client, _ = await make_bot(Settings(), app.EXTENSIONS)
    await client.setup_hook()
    assert list(client.extensions) == list(app.EXTENSIONS)
    caplog.set_level(logging.INFO, logger=app.__name__)

    await client.close()

    # the line the e2e harness waits on rather than cutting a clean close short with a second Ctrl-C
    assert app.CLOSING == BotProcess.CLOSING and app.CLOSING in caplog.text

    # cogs.replay attaches to /skat scores: unloaded after cogs.scores, it would find the group gone and fail
    assert not client.extensions and not client.cogs
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")], caplog.text


async def test_a_language_seen_just_before_the_close_is_stored(make_bot: MakeBot, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's DM language is stored in the background when first seen; a close right after waits for
    that write, so after the restart their hand is in their language (not the server's)."""
    client, _ = await make_bot(Settings(), app.EXTENSIONS)
    await client.setup_hook()
    players = client.storage.players
    store = players.set_language

    async def slow(**values: Any) -> None:  # a busy disk: the write outlasts the close's other steps
        await asyncio.sleep(0.5)
        await store(**values)
    monkeypatch.setattr(players, "set_language", slow)
    client.services.looks.remember_language(7, "karen", Lang("de"))
    await client.close()
    storage = await SqliteStorage.open(tmp_path / "bot.sqlite3")
    try:
        assert await storage.players.languages(player_ids=[7]) == {7: "de"}
    finally:
        await storage.close()


async def test_setup_hook_publishes_to_dev_guild(make_bot: MakeBot) -> None:
    client, recorder = await make_bot(Settings(dev_guild_id=1234))

    @client.tree.command(name="ping", description="test command")
    async def ping(interaction: discord.Interaction) -> None:
        raise AssertionError("never invoked")

    await client.setup_hook()

    [guild] = recorder.guilds
    assert guild is not None and guild.id == 1234
    assert [command.name for command in client.tree.get_commands(guild=discord.Object(id=1234))] == ["ping"]


async def test_missing_extension_fails_setup(make_bot: MakeBot) -> None:
    client, recorder = await make_bot(Settings(), ("skatbot_no_such_extension",))

    with pytest.raises(discord.ext.commands.ExtensionNotFound):
        await client.setup_hook()
    assert recorder.guilds == []


def add_command(client: SkatBot, name: str, description: str = "test command") -> None:
    @client.tree.command(name=name, description=description)
    async def command(interaction: discord.Interaction) -> None:
        raise AssertionError("never invoked")


async def test_a_second_start_publishes_nothing_and_a_changed_set_publishes_once(make_bot: MakeBot) -> None:
    first, first_sync = await make_bot(Settings())
    add_command(first, "ping")
    await first.setup_hook()
    await first.close()
    again, again_sync = await make_bot(Settings())
    add_command(again, "ping")
    await again.setup_hook()
    await again.close()
    changed, changed_sync = await make_bot(Settings())
    add_command(changed, "ping", "a new description")
    await changed.setup_hook()
    await changed.close()
    after, after_sync = await make_bot(Settings())
    add_command(after, "ping", "a new description")
    await after.setup_hook()

    assert (first_sync.guilds, again_sync.guilds, changed_sync.guilds, after_sync.guilds) == ([None], [], [None], [])


async def test_the_log_says_how_many_commands_were_published_in_the_right_number(
    make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """"published 1 application command", not "1 application commands": an operator reads it at every start."""
    lines = []
    for names in (("ping",), ("ping", "pong")):  # the second set changed, so it is published again
        client, _ = await make_bot(Settings())
        for name in names:
            add_command(client, name)

        async def sync(*, guild: discord.abc.Snowflake | None = None, tree: Any = client.tree) -> list[Any]:
            return list(tree.get_commands())  # what Discord answers: the commands it now has

        monkeypatch.setattr(client.tree, "sync", sync)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger=app.__name__):
            await client.setup_hook()
        await client.close()
        lines += [r.getMessage() for r in caplog.records if r.getMessage().startswith("published")]
    assert lines == ["published 1 application command globally", "published 2 application commands globally"]


async def test_the_dev_server_and_the_global_set_are_published_apart(make_bot: MakeBot) -> None:
    """Publishing to the development server does not count as publishing globally, and back."""
    for settings, expected in ((Settings(dev_guild_id=1234), 1234), (Settings(), None), (Settings(), "none"),
                               (Settings(dev_guild_id=1234), "none")):
        client, recorder = await make_bot(settings)
        add_command(client, "ping")
        await client.setup_hook()
        await client.close()
        if expected == "none":
            assert recorder.guilds == []
        else:
            [guild] = recorder.guilds
            assert (guild.id if guild is not None else None) == expected


async def test_a_failed_publication_is_tried_again_at_the_next_start(
        make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch) -> None:
    failing, _ = await make_bot(Settings())
    add_command(failing, "ping")

    async def refused(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        raise discord.DiscordServerError(type("Response", (), {"status": 503, "reason": "down"})(), "down")

    monkeypatch.setattr(failing.tree, "sync", refused)
    with pytest.raises(discord.DiscordServerError):
        await failing.setup_hook()
    await failing.close()
    again, recorder = await make_bot(Settings())
    add_command(again, "ping")
    await again.setup_hook()
    assert recorder.guilds == [None]


async def test_only_the_process_running_shard_zero_publishes(make_bot: MakeBot) -> None:
    other, other_sync = await make_bot(Settings(shard_count=2, shard_ids=(1,)))
    add_command(other, "ping")
    await other.setup_hook()
    await other.close()
    zero, zero_sync = await make_bot(Settings(shard_count=2, shard_ids=(0,)))
    add_command(zero, "ping")
    await zero.setup_hook()
    assert (other_sync.guilds, zero_sync.guilds) == ([], [None])


def test_the_bot_runs_the_configured_shards() -> None:
    bot = SkatBot(Settings.from_env({"SKATBOT_SHARD_COUNT": "4", "SKATBOT_SHARD_IDS": "1-2",
                                     "SKATBOT_DATABASE_URL": "postgresql://skatbot@localhost/skatbot"}))
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 2])
    unset = SkatBot(Settings())
    # discord.py asks Discord at login (its hints say int, but it is None until then)
    assert unset.shard_ids is None and unset.shard_count is None


def test_the_tables_wait_as_configured() -> None:
    """The AI's pause and the Kontra window reach every table the bot opens."""
    timing = SkatBot(Settings.from_env({"SKATBOT_AI_PAUSE": "0.5", "SKATBOT_KONTRA_WINDOW": "3"})).table_timing
    assert (timing.ai_pause, timing.kontra_window) == (0.5, 3.0)
    default = SkatBot(Settings()).table_timing
    assert (default.ai_pause, default.kontra_window) == (1.0, 8.0)


async def test_another_application_on_the_same_database_publishes_its_own_commands(make_bot: MakeBot) -> None:
    published = []
    for application_id in (111, 222, 111):
        client, recorder = await make_bot(Settings())
        client._connection.application_id = application_id  # what login() learns from Discord
        add_command(client, "ping")
        await client.setup_hook()
        await client.close()
        published.append(len(recorder.guilds))
    assert published == [1, 1, 0]


BOT_MODULES = "import sys, skatbot.app, cogs.skat, cogs.scores, cogs.guide, cogs.settings, cogs._analysis\n"
"""The bot process's own modules, imported by a fresh interpreter."""

SOLVER_LOADED = ("print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')\n"
                 "             or m in ('skatbot.ai.solver', 'skatbot.ai.analysis', 'skatbot.ai.strong',\n"
                 "                      'skatbot.ai.hints')))\n")
"""Prints which of the AI workers' heavy modules (the solver, numba, what imports them) are loaded."""


def test_the_bot_process_loads_without_the_solver() -> None:
    """The solver and numba load in the AI workers only: the bot process imports in 62 MB instead of 131 MB
    (measured at its start). An analysis, or its refusal, comes back in the verdict's plain classes."""
    done = subprocess.run([sys.executable, "-c", BOT_MODULES + SOLVER_LOADED], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_hint_unpickles_in_the_bot_process_without_the_solver() -> None:
    """A hint comes back from an AI worker pickled as the pool pickles a result (`ForkingPickler`) and is
    unpickled in the bot process: its classes live in plain `hint_values`, so that loads no solver either."""
    root = Path(__file__).resolve().parents[1]
    worker = ("import sys\n"
              "from multiprocessing.reduction import ForkingPickler\n"
              "from skatbot.engine import Deal\n"
              "from skatbot.engine.views import seat_view\n"
              "from skatbot.tables.ai_bridge import hint_for\n"
              "deal = Deal.new(7)\n"
              "answer = hint_for(7, seat_view(deal, deal.current_seat))\n"
              "sys.stdout.buffer.write(bytes(ForkingPickler.dumps(answer)))\n")
    made = subprocess.run([sys.executable, "-c", worker], capture_output=True, timeout=120, cwd=root)
    assert made.returncode == 0, made.stderr.decode()
    bot = (BOT_MODULES + "import pickle\n"
           "hint = pickle.loads(sys.stdin.buffer.read())\n"
           "print(type(hint).__name__, type(hint.basis).__name__, type(hint.basis.reason).__name__)\n"
           + SOLVER_LOADED)
    done = subprocess.run([sys.executable, "-c", bot], input=made.stdout, capture_output=True, timeout=60,
                          cwd=root)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split("\n")[:2] == ["Hint Basis Reason", "[]"]


def test_cogs_holds_extensions_only() -> None:
    """House rule: every module in cogs/ without a leading underscore is an extension the bot loads (it has
    its `setup`); helpers live in a package (skatbot.interactions, skatbot.ui) or carry a `_` prefix."""
    folder = Path(__file__).resolve().parents[1] / "cogs"
    modules = {f"cogs.{path.stem}" for path in folder.glob("*.py") if not path.stem.startswith("_")}
    assert modules == set(app.EXTENSIONS)
    for name in modules:
        assert inspect.iscoroutinefunction(getattr(importlib.import_module(name), "setup", None)), name
