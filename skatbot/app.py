"""The discord.py client: a small Bot whose setup_hook loads an explicit list of extensions."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, cast

import aiohttp
import discord
from discord.ext import commands

from skatbot.config import DATABASE_URL_VAR, DATABASE_VAR, METRICS_PORT_VAR, Settings
from skatbot.health import HealthServer, count_interaction, instrument_discord, rate_limit_trace
from skatbot.interactions.desk import TableDesk
from skatbot.interactions.looks import Looks
from skatbot.interactions.pending import PendingReplies
from skatbot.interactions.replies import answer_stray, install
from skatbot.metrics import METRICS
from skatbot.models import counted
from skatbot.publishing import publish_if_changed, runs_shard_zero
from skatbot.storage import SchemaTooNew, Storage, StorageError, open_storage
from skatbot.storage.opening import describe
from skatbot.storage.pending import PendingMoves
from skatbot.storage.sqlite import holder as sqlite_holder
from skatbot.tables import TableTiming
from skatbot.tables.manager import TableManager
from skatbot.ui.controls import DYNAMIC_ITEMS
from skatbot.ui.emojis import CARD_EMOJIS
from skatbot.ui.pictures import draw_in
from skatbot.ui.presenter import DiscordPresenter
from skatbot.ui.translator import CatalogTranslator
from skatbot.wiring import StorageTables

log = logging.getLogger(__name__)

# The extensions the bot loads at start-up, in order ("cogs.tables", ...). Explicit, so that what runs
# is what is listed here and nothing is picked up by accident.
EXTENSIONS: tuple[str, ...] = ("cogs.skat", "cogs.scores", "cogs.guide", "cogs.settings", "cogs.tournament",
                              "cogs.ratings", "cogs.replay", "cogs.challenge")


CLOSING = "closing cleanly"
"""Logged when a clean close begins. It may take a while (a rate-limited channel's last messages): a second
Ctrl-C would cut it short, and a supervisor that sees this line knows to wait."""

WORKER_NICENESS = 5
"""How much lower the AI workers and the picture process are scheduled than the bot itself: when the cores are
busy, a click is answered before an AI thinks on or a picture is drawn (both are waited for anyway)."""


# The process names (Linux: /proc/PID/comm, what ps -e, top and pgrep show) of the AI workers and of the picture
# process, so an operator (or a test) tells them from the bot and from each other: their command lines are all
# multiprocessing's spawn entry point.
AI_WORKER_NAME = "skatbot-ai"
PICTURE_WORKER_NAME = "skatbot-pics"


def name_process(name: str) -> None:
    """Give this process `name` where the system allows it (Linux, up to 15 bytes); elsewhere nothing changes."""
    with contextlib.suppress(OSError), open("/proc/self/comm", "w", encoding="ascii") as comm:
        comm.write(name[:15])


def watch_parent(parent_pid: int, name: str = "", every: float = 1.0) -> None:
    """In each worker process: take the pool's process name (`name_process`), step back behind the bot for the
    cores (`WORKER_NICENESS`), and exit when the bot process is gone (a crash or SIGKILL leaves no one to stop
    us)."""
    if name:
        name_process(name)
    with contextlib.suppress(OSError):  # not allowed here: the same priority as the bot, as before
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class RespawningPool(Executor):
    """A process pool that replaces itself when broken (a worker was killed, e.g. by the OOM killer), so
    later AI decisions (or pictures) run in fresh workers; a failed one is decided (drawn) in the bot meanwhile."""

    def __init__(self, make: Callable[[], ProcessPoolExecutor], name: str = "AI worker",
                 timed: Callable[[str, float], None] | None = None) -> None:
        self._make = make
        self.name = name
        self._pool = make()
        self._lock = threading.Lock()
        self._timed = timed  # told each task's name and its seconds from submission to answer (the metrics)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._lock:
            try:
                future = self._pool.submit(fn, *args, **kwargs)
            except BrokenProcessPool:
                log.warning("the %s pool broke; starting a new one", self.name)
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._make()
                future = self._pool.submit(fn, *args, **kwargs)
        if self._timed is not None:
            timed, task, started = self._timed, getattr(fn, "__name__", "task"), time.perf_counter()
            future.add_done_callback(lambda _: timed(task, time.perf_counter() - started))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def worker_pool(workers: int, name: str, process_name: str,
                timed: Callable[[str, float], None] | None = None) -> RespawningPool:
    """`workers` spawned processes named `process_name`, behind the bot for the cores and gone with it, replaced
    when broken."""
    return RespawningPool(lambda: ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=watch_parent,
        initargs=(os.getpid(), process_name)), name=name, timed=timed)


def time_ai_decision(task: str, seconds: float) -> None:
    METRICS.ai_decision_seconds.labels(task=task).observe(seconds)


@dataclass(frozen=True, slots=True)
class Services:
    """What the cogs share, built once in `setup_hook`: the tables' store and catalog on storage, how things
    are shown, the presenter, the running tables, moves shown pending, and the desk the table controls call."""

    store: StorageTables
    looks: Looks
    presenter: DiscordPresenter
    tables: TableManager
    pending: PendingReplies
    controls: TableDesk


def skat_bot(interaction: discord.Interaction) -> SkatBot:
    """The bot an interaction arrived at: discord.py types `interaction.client` as a plain Client, and the
    cogs only ever run inside a SkatBot."""
    return cast("SkatBot", interaction.client)


SWITCH_SECONDS = 0.001
"""How long the event loop's thread may keep the interpreter while a database thread (aiosqlite's, or the
PostgreSQL one) waits to go on with an answer: Python's default, 5 ms, was paid once per statement, and a
move's write has up to seven (at 100 tables, PostgreSQL's acknowledgements p99 161 -> 95 ms)."""


def settle_garbage_collector() -> None:
    """What start-up made (modules, catalogs, the command tree, the card faces) lives as long as the process: it
    is moved out of the cyclic collector's sight, so that the collector's full passes, which stop the event loop
    and every acknowledgement with it, scan only what the tables make (at 100 tables such a pass took up to 365 ms
    with everything in sight)."""
    gc.collect()
    gc.freeze()


class StartupError(Exception):
    """Something the operator set up keeps the bot from starting; the message (two or three lines) names the
    setting and the fix. bot.py prints it and exits with code 2."""


def database_failure(settings: Settings, error: Exception) -> StartupError:
    """The operator's message for a database that cannot be opened, naming the setting that chose it."""
    url, path = settings.database_url, settings.database_path
    if isinstance(error, sqlite_holder.FileInUse):
        return StartupError(
            f"skatbot: {error} ({DATABASE_VAR}); a SQLite file serves one bot process.\n"
            f"Stop that one first, or give this one its own file; several processes share a PostgreSQL database "
            f"({DATABASE_URL_VAR}, see the README's Shards).")
    if isinstance(error, SchemaTooNew):
        setting = DATABASE_URL_VAR if url else DATABASE_VAR
        return StartupError(f"skatbot: the database in {setting} ({describe(database_url=url, database_path=path)}) "
                            f"is from a newer skatbot:\n{error}")
    if url and isinstance(error, ValueError):  # asyncpg could not read the URL (a port that is no number, ...)
        return StartupError(
            f"skatbot: {DATABASE_URL_VAR} ({describe(database_url=url, database_path=path)}) is not a PostgreSQL URL "
            f"asyncpg can read: {error}\nWrite it as postgresql://USER:PASSWORD@HOST:5432/DATABASE, or leave it empty "
            "to use the SQLite file.")
    if url:
        reason = error.__cause__ or error
        return StartupError(
            f"skatbot: cannot open the PostgreSQL database in {DATABASE_URL_VAR} "
            f"({describe(database_url=url, database_path=path)}): {reason}\n"
            "Check that PostgreSQL runs there and that the user, password and database in the URL exist (see the "
            f"README: createuser, createdb), or leave {DATABASE_URL_VAR} empty to use the SQLite file.")
    return StartupError(
        f"skatbot: cannot open the SQLite database in {DATABASE_VAR} ({path}): {error}\n"
        "Give a path in a folder the bot may write to (in the Docker image: under /data, the volume).")


class SkatBot(commands.AutoShardedBot):
    """The bot. Slash commands only, so the default intents suffice (no privileged intents).

    Sharded: SKATBOT_SHARD_COUNT and SKATBOT_SHARD_IDS choose the shards this process runs; unset, discord.py
    asks Discord how many shards it needs and runs them all here."""

    def __init__(self, settings: Settings, extensions: Iterable[str] = EXTENSIONS) -> None:
        shards: dict[str, Any] = {} if settings.shard_ids is None else {"shard_ids": list(settings.shard_ids)}
        # With metrics on: the waits for Discord's rate limits, through the client's public HTTP trace hook.
        traced: dict[str, Any] = {} if settings.metrics_port is None else {"http_trace": rate_limit_trace()}
        # No voice here: discord.py's warnings that PyNaCl and davey are missing are noise at every start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            shard_count=settings.shard_count,
            **shards,
            **traced,
        )
        self.settings = settings
        self.extension_names: tuple[str, ...] = tuple(extensions)
        self.storage: Storage
        self.ai_executor: Executor | None = None
        self.picture_executor: Executor | None = None
        self.table_timing = TableTiming(ai_pause=settings.ai_pause_seconds,
                                        kontra_window=settings.kontra_window_seconds)
        self._logged_in = False
        self.component_items: list[type[discord.ui.DynamicItem[Any]]] = []  # every extension's, for strays
        self.card_emojis_task: asyncio.Task[None] | None = None
        self.services: Services
        self.health_server: HealthServer | None = None
        self.closing = self.closed_cleanly = False  # close() began, and it ended (a second Ctrl-C cuts it short)

    def build_services(self) -> Services:
        """The tables and their presenter on top of storage and the AI workers (both set up before)."""
        store = StorageTables(self.storage)
        looks = Looks(self.storage)
        # On PostgreSQL other processes may serve the same tables: the presenter reads back what they showed,
        # and edits at once (a coalesced edit landing late could overwrite another process's newer one).
        shared = self.storage.shared
        presenter = DiscordPresenter(self, style_for=looks.style_for, user_lang=looks.user_lang,
                                     memory=self.storage.presentation, shared=shared,
                                     edit_interval=0.0 if shared else 1.0,
                                     log_of=lambda table_id: store.load_table(table_id=table_id))
        tables = TableManager(catalog=store, store=store, presenter=presenter, executor=self.ai_executor,
                              timing=self.table_timing)
        pending = PendingReplies(self, self.storage, PendingMoves.beside(self.settings.database_path,
                                                                         self.settings.shard_ids), store)
        controls = TableDesk(storage=self.storage, looks=looks, presenter=presenter, tables=tables, pending=pending)
        self.services = Services(store, looks, presenter, tables, pending, controls)
        self.add_dynamic_items(*DYNAMIC_ITEMS)  # the table controls: their callbacks call services.controls
        install(self.tree)  # every slash command's refusals are answered by reply_error
        return self.services

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register components discord.py rebuilds from their custom_id; kept, so the one listener for stray
        components knows every extension's shapes."""
        super().add_dynamic_items(*items)
        self.component_items.extend(item for item in items if item not in self.component_items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        self.component_items = [item for item in self.component_items if item not in items]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The one listener for components no item answers (see `answer_stray`)."""
        services: Services | None = getattr(self, "services", None)
        await answer_stray(interaction, self.component_items, services.controls if services else None)

    async def setup_hook(self) -> None:
        """Open the database, build the services, load the extensions, then publish the slash commands.

        With SKATBOT_DEV_GUILD set the commands go to that server only, where changes show at once;
        otherwise they are published globally, which Discord may take a while to show everywhere.
        """
        sys.setswitchinterval(SWITCH_SECONDS)
        await self.open_database()
        # AI decisions run in worker processes: a strong player's search never blocks the event loop.
        self.ai_executor = worker_pool(2, "AI worker", AI_WORKER_NAME, timed=time_ai_decision)
        # Pictures in a process of their own: drawing takes neither the loop's time nor its interpreter lock.
        self.picture_executor = worker_pool(1, "picture", PICTURE_WORKER_NAME)
        draw_in(self.picture_executor)
        self.build_services()
        # Command descriptions in German for German Discord clients (names stay English).
        await self.tree.set_translator(CatalogTranslator())
        for name in self.extension_names:
            await self.load_extension(name)
            log.info("loaded extension %s", name)
        # Card faces as application emojis: shard 0's process uploads the missing ones, every process uses
        # them once they exist; cards are text until then.
        self.card_emojis_task = asyncio.create_task(
            CARD_EMOJIS.ensure(self, create=runs_shard_zero(self.settings.shard_ids)), name="card-emojis")
        await self.publish_commands()
        await self.serve_metrics()
        settle_garbage_collector()

    async def serve_metrics(self) -> None:
        """With SKATBOT_METRICS_PORT: /metrics and /healthz on the bot's loop (skatbot.health). Once: at login,
        before Discord is asked anything, so a port in use stops the start with nothing published (/healthz
        says 503 until the gateway is ready); setup_hook serves them when a test drives it alone."""
        port = self.settings.metrics_port
        if port is None or self.health_server is not None:
            return
        instrument_discord()
        self.add_listener(self.count_interaction, "on_interaction")
        server = HealthServer(self)
        try:
            await server.start(self.settings.metrics_host, port)
        except OSError as error:
            raise StartupError(
                f"skatbot: cannot serve metrics on {self.settings.metrics_host}:{port} ({METRICS_PORT_VAR}): {error}\n"
                f"Choose a free port in {METRICS_PORT_VAR} (another process may use this one), or leave it empty.") from error
        self.health_server = server

    async def count_interaction(self, interaction: discord.Interaction) -> None:
        count_interaction(interaction)

    @property
    def metrics_storage(self) -> Storage | None:
        """The database /healthz asks (None before it is open)."""
        return getattr(self, "storage", None)

    @property
    def open_tables(self) -> int:
        """Tables this process holds in memory, for /metrics."""
        services = getattr(self, "services", None)
        return 0 if services is None else len(services.tables.tables)

    async def open_database(self) -> None:
        """Open (and migrate) the database once: at login, before Discord is asked anything, so that a database
        out of reach is said at once (StartupError); setup_hook opens it when a test drives it alone."""
        if getattr(self, "storage", None) is not None:
            return
        url, path = self.settings.database_url, self.settings.database_path
        try:
            if url is None:
                sqlite_holder.hold(path)  # one bot per SQLite file
            self.storage = await open_storage(database_url=url, database_path=path)
        except (StorageError, OSError, sqlite3.Error, ValueError) as error:
            if url is None and not isinstance(error, sqlite_holder.FileInUse):
                sqlite_holder.let_go(path)
            raise database_failure(self.settings, error) from error
        log.info("database %s is ready", describe(database_url=url, database_path=path))

    async def publish_commands(self) -> None:
        """Shard 0's process publishes the commands, and only when they changed (see skatbot.publishing)."""
        if not runs_shard_zero(self.settings.shard_ids):
            log.info("shard 0 runs in another process; it publishes the application commands")
            return
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            self.tree.copy_global_to(guild=discord.Object(id=guild_id))
        published = await publish_if_changed(self.tree, self.storage.meta, guild_id)
        where = "globally" if guild_id is None else f"to development server {guild_id}"
        if published is None:
            log.info("the application commands are published %s already and unchanged", where)
        else:
            log.info("published %s %s", counted(published, "application command"), where)

    async def on_ready(self) -> None:
        """Say who we are once connected, so the operator sees the login worked."""
        user = self.user
        log.info("logged in as %s (id %s) in %s", user, user.id if user else "?", counted(len(self.guilds), "server"))

    async def login(self, token: str) -> None:
        """The database and the metrics port first, then Discord: each failure an operator can mend is a
        StartupError, raised before anything on Discord changed."""
        self._logged_in = True
        await self.open_database()
        await self.serve_metrics()
        try:
            await super().login(token)
        except (aiohttp.ClientConnectionError, discord.DiscordServerError) as error:
            raise StartupError(
                f"skatbot: cannot reach Discord ({error}).\nCheck this machine's network connection, DNS and "
                "firewall (the bot needs outgoing HTTPS to discord.com), then start it again.") from error

    async def unload_extensions(self) -> None:
        """Unload the extensions in the reverse of their load order: one that attaches to another's group
        (cogs.replay to /skat scores, the feature cogs to /skat) goes before the group's owner. discord.py's own
        close unloads in load order, which would leave each of them looking for a group already gone."""
        for name in reversed(tuple(self.extensions)):
            try:
                await self.unload_extension(name)
            except commands.ExtensionError:
                log.exception("could not unload extension %s", name)

    async def close(self) -> None:
        """Stop the tables' tasks, then the AI workers, the players' language writes under way and the database
        (each step durable before the next).

        discord.py's sharded close needs the event queue login() sets up first; a bot that never logged in
        (a test drove setup_hook itself) gets it here, so its cogs are still unloaded and their tasks stopped."""
        if getattr(self, "services", None) is None:  # a start that failed (bot.py says why): nothing ran to close
            log.debug("closing before the services were built")
        else:
            log.info("%s: the tables show what they queued, then the workers and the database stop", CLOSING)
        self.closing = True
        if self.card_emojis_task is not None:
            self.card_emojis_task.cancel()
        if self.health_server is not None:
            await self.health_server.stop()
        if not self._logged_in:
            await self._async_setup_hook()
        await self.unload_extensions()
        await super().close()
        if self.ai_executor is not None:
            self.ai_executor.shutdown(wait=False, cancel_futures=True)
        if self.picture_executor is not None:
            draw_in(None)
            self.picture_executor.shutdown(wait=False, cancel_futures=True)
        services: Services | None = getattr(self, "services", None)
        if services is not None:  # a player's language seen just before the close is stored with them
            await services.looks.settled()
        storage = getattr(self, "storage", None)
        if storage is not None:
            await storage.close()
        if self.settings.database_url is None:
            sqlite_holder.let_go(self.settings.database_path)
        self.closed_cleanly = True
