"""Fakes for testing the cogs without the bot process, in the manner of python-discord's bot tests.

`FakeInteraction` stands in for `discord.Interaction`: its `response`, `followup` and
`edit_original_response` record every answer (`Reply`) and check it against Discord's limits the way
Discord does (an answer Discord would refuse raises `discord.HTTPException` 50035, so a cog that
overruns a limit fails here as it would there). `FakeSurface` stands in for the channels and DMs the
presenter writes to. `cog_bot` builds the real `SkatBot` with the real extensions on a temporary SQLite
file (no gateway, no HTTP), and `invoke`/`autocomplete`/`click` drive commands and controls through
discord.py's own paths, including the command tree's error handler.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands
from discord.utils import MISSING

from skatbot.app import EXTENSIONS, SkatBot
from skatbot.config import Settings
from skatbot.storage import SqliteStorage, Storage
from tests.e2e.fakediscord.validation import check_choices, check_message, form_error
from tests.tables.kit import InlineExecutor

_ids = itertools.count(1_000_000)

GUILD_ID = 10
CHANNEL_ID = 20


class _BadRequest:
    """The `response` discord.HTTPException wants: a status and a reason."""

    status = 400
    reason = "Bad Request"


class _Forbidden:
    status = 403
    reason = "Forbidden"


def _refuse_if_invalid(payload: dict[str, Any]) -> None:
    tree = check_message(payload)
    if tree:
        raise discord.HTTPException(_BadRequest(), form_error(tree))


def _payload(content: Any, view: Any, embed: Any = None) -> dict[str, Any]:
    payload: dict[str, Any] = {}
    if content is not None and content is not MISSING:
        payload["content"] = str(content)
    if view is not None and view is not MISSING:
        payload["components"] = view.to_components()
    if embed is not None and embed is not MISSING:
        payload["embeds"] = [embed.to_dict()]
    return payload


@dataclass
class Reply:
    """One answer to an interaction, as the user would see it."""

    how: str  # "message" (the response), "followup", "edit" (of the clicked message), "edit_original"
    content: str | None = None
    ephemeral: bool = False
    view: discord.ui.View | None = None
    file: discord.File | None = None

    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for row in (self.view.to_components() if self.view else [])
                for c in row["components"] if "custom_id" in c]


class FakeResponse:
    """`interaction.response`: answers once, like Discord's interaction callback."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction
        self.deferred: bool | None = None  # None: not deferred; else whether the deferral was ephemeral
        self.choices: list[app_commands.Choice[Any]] | None = None
        self.type: discord.InteractionResponseType | None = None  # how it was answered, as discord.py keeps it
        self._done = False

    def is_done(self) -> bool:
        return self._done

    def _answer(self) -> None:
        if self._done:
            raise discord.InteractionResponded(self._interaction)  # type: ignore[arg-type]  # a FakeInteraction, duck-typed
        self._done = True

    async def send_message(self, content: Any = None, *, ephemeral: bool = False,
                           view: discord.ui.View = MISSING, file: discord.File = MISSING,
                           embed: discord.Embed = MISSING, **_: Any) -> None:
        _refuse_if_invalid(_payload(content, view, embed))
        self._answer()
        self.type = discord.InteractionResponseType.channel_message
        self._interaction.replies.append(Reply("message", None if content is None else str(content), ephemeral,
                                               view or None, file or None))

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self._answer()
        self.deferred = ephemeral
        component = self._interaction.type is discord.InteractionType.component and not thinking
        self.type = (discord.InteractionResponseType.deferred_message_update if component
                     else discord.InteractionResponseType.deferred_channel_message)

    async def edit_message(self, *, content: Any = MISSING, view: Any = MISSING, **_: Any) -> None:
        _refuse_if_invalid(_payload(content, view))
        self._answer()
        self.type = discord.InteractionResponseType.message_update
        self._interaction.replies.append(Reply("edit", None if content is MISSING else content,
                                               view=None if view is MISSING else view))

    async def autocomplete(self, choices: list[app_commands.Choice[Any]]) -> None:
        tree = check_choices([choice.to_dict() for choice in choices])
        if tree:
            raise discord.HTTPException(_BadRequest(), form_error(tree))
        self._answer()
        self.type = discord.InteractionResponseType.autocomplete_result
        self.choices = list(choices)


class FakeFollowup:
    """`interaction.followup`: messages after the response (only once it was given)."""

    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction

    async def send(self, content: Any = None, *, ephemeral: bool = False, view: discord.ui.View = MISSING,
                   file: discord.File = MISSING, embed: discord.Embed = MISSING, **_: Any) -> None:
        if not self._interaction.response.is_done():
            raise discord.NotFound(_BadRequest(), {"code": 10015, "message": "Unknown Webhook"})
        _refuse_if_invalid(_payload(content, view, embed))
        self._interaction.replies.append(Reply("followup", None if content is None else str(content), ephemeral,
                                               view or None, file or None))


@dataclass
class FakeUser:
    id: int
    display_name: str = "alice"
    bot: bool = False

    @property
    def name(self) -> str:
        return self.display_name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeMessage:
    """A message the presenter sent (or the one a control was clicked on)."""

    id: int
    channel_id: int
    content: str | None = None
    view: discord.ui.View | None = None
    ephemeral: bool = False
    edits: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False

    @property
    def flags(self) -> discord.MessageFlags:
        return discord.MessageFlags(ephemeral=self.ephemeral)

    @property
    def components(self) -> list[discord.ActionRow]:
        if self.view is None:
            return []
        return [discord.ActionRow(row) for row in self.view.to_components()]  # type: ignore[arg-type]  # component dicts, as from a payload

    async def edit(self, **changes: Any) -> FakeMessage:
        _refuse_if_invalid(_payload(changes.get("content"), changes.get("view")))
        self.edits.append(changes)
        if "content" in changes:
            self.content = changes["content"]
        if "view" in changes:
            self.view = changes["view"]
        return self

    async def delete(self) -> None:
        self.deleted = True


class FakeChannel:
    """A channel or DM the bot writes to; every message is kept."""

    def __init__(self, channel_id: int, *, dm_of: int | None = None, closed: bool = False) -> None:
        self.id = channel_id
        self.dm_of = dm_of
        self.closed = closed
        self.messages: dict[int, FakeMessage] = {}

    async def send(self, content: Any = None, *, view: discord.ui.View | None = None, **_: Any) -> FakeMessage:
        if self.closed:
            raise discord.Forbidden(_Forbidden(), {"code": 50007, "message": "Cannot send messages to this user"})
        _refuse_if_invalid(_payload(content, view))
        message = FakeMessage(next(_ids), self.id, None if content is None else str(content), view)
        self.messages[message.id] = message
        return message

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return self.messages.setdefault(message_id, FakeMessage(message_id, self.id))

    async def history(self, *, limit: int = 100, after: Any = None) -> AsyncIterator[FakeMessage]:
        """Messages not deleted, oldest first after `after` (as discord.py pages them), else newest first."""
        kept = sorted((m for m in self.messages.values() if not m.deleted), key=lambda m: m.id)
        if after is not None:
            kept = [m for m in kept if m.id > after.id][:limit]
        else:
            kept = list(reversed(kept))[:limit]
        for message in kept:
            yield message

    def texts(self) -> list[str]:
        return [m.content or "" for m in self.messages.values() if not m.deleted]


class FakeSurface:
    """The channels and DMs of the fake world, handed to the presenter in place of discord.py's cache."""

    user: Any = None  # the bot's own user (only a thread's owner is compared with it)

    def __init__(self) -> None:
        self.channels: dict[int, FakeChannel] = {}
        self.dms: dict[int, FakeChannel] = {}
        self.closed_dms: set[int] = set()  # users whose DMs refuse the bot (Discord's 50007)

    def channel(self, channel_id: int) -> FakeChannel:
        return self.channels.setdefault(channel_id, FakeChannel(channel_id))

    def dm(self, user_id: int) -> FakeChannel:
        return self.dms.setdefault(user_id, FakeChannel(user_id + 1, dm_of=user_id, closed=user_id in self.closed_dms))

    def get_channel(self, channel_id: int) -> FakeChannel:
        return self.channel(channel_id)

    async def fetch_channel(self, channel_id: int) -> FakeChannel:
        return self.channel(channel_id)

    def get_partial_messageable(self, channel_id: int, **_: Any) -> FakeChannel:
        return self.channel(channel_id)

    def get_user(self, user_id: int) -> SimpleNamespace:
        return SimpleNamespace(id=user_id, dm_channel=self.dm(user_id))

    async def fetch_user(self, user_id: int) -> SimpleNamespace:
        return self.get_user(user_id)


def all_permissions() -> discord.Permissions:
    return discord.Permissions(view_channel=True, send_messages=True, read_message_history=True,
                               create_public_threads=True, send_messages_in_threads=True)


APPLICATION_ID = 4242


class FakeInteraction:
    """A slash command or a click by `user`, in a server channel (or a DM with `guild_id=None`)."""

    def __init__(self, client: Any, user: FakeUser, *, guild_id: int | None = GUILD_ID,
                 channel_id: int = CHANNEL_ID, locale: str = "en-US", manage_guild: bool = False,
                 app_permissions: discord.Permissions | None = None, message: FakeMessage | None = None,
                 data: dict[str, Any] | None = None) -> None:
        self.id = next(_ids)
        self.application_id = APPLICATION_ID
        self.token = f"token-{self.id}"
        self.client = client
        self.user = user
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.channel = client.surface.channel(channel_id) if hasattr(client, "surface") else None
        self.locale = discord.Locale(locale)
        self.permissions = discord.Permissions(manage_guild=manage_guild and guild_id is not None)
        self.app_permissions = app_permissions if app_permissions is not None else all_permissions()
        self.message = message
        self.type = (discord.InteractionType.component if message is not None
                     else discord.InteractionType.application_command)
        self.data: dict[str, Any] = data or {}
        self.created_at = datetime.now(UTC)  # as Discord's id says when it was made
        self.extras: dict[str, Any] = {}
        self.command: Any = None
        self.command_failed = False
        self.replies: list[Reply] = []
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)

    @property
    def guild(self) -> SimpleNamespace | None:
        return None if self.guild_id is None else SimpleNamespace(id=self.guild_id)

    async def edit_original_response(self, *, content: Any = MISSING, view: Any = MISSING,
                                     attachments: Any = MISSING, **_: Any) -> None:
        if not self.response.is_done():
            raise discord.NotFound(_BadRequest(), {"code": 10015, "message": "Unknown Webhook"})
        _refuse_if_invalid(_payload(content, view))
        if content is MISSING and view is MISSING and attachments is not MISSING and self.replies:
            self.replies[-1].file = attachments[0] if attachments else None  # the same message, a new picture
            return
        self.replies.append(Reply("edit_original", None if content is MISSING else content,
                                  view=None if view is MISSING else view))

    # --- what tests ask ---------------------------------------------------------------------------

    @property
    def answer(self) -> Reply:
        """The one visible answer (a test of a command expects exactly one)."""
        assert len(self.replies) == 1, self.replies
        return self.replies[0]

    @property
    def text(self) -> str:
        return self.answer.content or ""


class CogBot:
    """The real bot and its extensions over a temporary database, with the fake surface and inline AIs."""

    def __init__(self, bot: SkatBot, surface: FakeSurface) -> None:
        self.bot = bot
        self.surface = surface
        self.users = itertools.count(100)

    def user(self, name: str = "alice") -> FakeUser:
        return FakeUser(next(self.users), name)

    def interaction(self, user: FakeUser, **kwargs: Any) -> FakeInteraction:
        return FakeInteraction(self.bot, user, **kwargs)

    @property
    def skat(self) -> Any:
        return self.bot.get_cog("SkatCog")

    async def settle(self) -> None:
        """Let every table finish what it started (AI turns run inline)."""
        for table in list(self.skat.manager.tables.values()):
            await table.settle()

    async def run(self, path: str, user: FakeUser, /, interaction: FakeInteraction | None = None,
                  **options: Any) -> FakeInteraction:
        """Run `/path options` as `user` (or in a prepared interaction) the way the command tree does."""
        interaction = interaction or self.interaction(user)
        command = find_command(self.bot.tree, path)
        interaction.command = command
        interaction.data = {"name": path, "options": [{"name": k, "value": v} for k, v in options.items()]}
        namespace = SimpleNamespace(**options)
        try:
            await command._invoke_with_namespace(interaction, namespace)  # type: ignore[arg-type]  # fakes, duck-typed
        except app_commands.AppCommandError as error:
            interaction.command_failed = True
            await command._invoke_error_handlers(interaction, error)  # type: ignore[arg-type]  # a FakeInteraction, duck-typed
            await self.bot.tree.on_error(interaction, error)  # type: ignore[arg-type]  # a FakeInteraction, duck-typed
        await self.settle()
        return interaction

    async def complete(self, path: str, user: FakeUser, focused: str, current: str,
                       **options: Any) -> list[app_commands.Choice[Any]]:
        """The autocomplete choices Discord would show while `user` types `current` into `focused`."""
        interaction = self.interaction(user)
        command = find_command(self.bot.tree, path)
        namespace = SimpleNamespace(**{focused: current, **options})
        await command._invoke_autocomplete(interaction, focused, namespace)  # type: ignore[arg-type]  # duck-typed, as in run()
        return interaction.response.choices or []

    async def click(self, user: FakeUser, message: FakeMessage, custom_id: str, values: tuple[str, ...] = (),
                    *, component_type: int = 2, **kwargs: Any) -> FakeInteraction:
        """A click on `custom_id` (or a choice of `values` in a menu) on `message`, as discord.py dispatches
        it: to the dynamic item the id matches (when the message carries it) and to the listeners."""
        data = {"custom_id": custom_id, "component_type": component_type, "values": list(values)}
        snapshot = replace(message)  # the message as the click saw it (the interaction's payload carries it)
        interaction = self.interaction(user, message=snapshot, data=data, **kwargs)
        store = self.bot._connection._view_store
        for pattern, item in list(store._dynamic_items.items()):
            match = pattern.fullmatch(custom_id)
            if match is not None:
                await store.schedule_dynamic_item_call(component_type, item, interaction,  # type: ignore[arg-type]  # a FakeInteraction
                                                       custom_id, match)
        await self.bot.on_interaction(interaction)  # type: ignore[arg-type]  # a FakeInteraction
        for listener in self.bot.extra_events.get("on_interaction", []):
            await listener(interaction)
        await self.settle()
        return interaction

    async def close(self) -> None:
        for name in reversed(self.bot.extension_names):
            await self.bot.unload_extension(name)
        await self.bot.storage.close()


def find_command(tree: app_commands.CommandTree[Any], path: str) -> app_commands.Command[Any, ..., Any]:
    """`"skat scores stats"` -> that command object."""
    first, *rest = path.split()
    found: Any = tree.get_command(first)
    for name in rest:
        found = found.get_command(name)
    assert isinstance(found, app_commands.Command), path
    return found


async def cog_bot(tmp_path: Path, storage: Storage | None = None) -> CogBot:
    """The bot with every extension loaded, on a fresh SQLite file (or on `storage`, which it closes), without
    connecting anywhere."""
    bot = SkatBot(Settings(database_path=tmp_path / "skat.sqlite3", ai_pause_seconds=0.0),
                  extensions=EXTENSIONS)
    bot.storage = storage or await SqliteStorage.open(tmp_path / "skat.sqlite3")
    bot.ai_executor = InlineExecutor()
    surface = FakeSurface()
    # The presenter writes through the client's channel and user lookups: point them at the fake world.
    bot.get_channel = surface.get_channel  # type: ignore[method-assign, assignment]  # the fake world's lookups
    bot.fetch_channel = surface.fetch_channel  # type: ignore[method-assign, assignment]  # the fake world's lookups
    bot.get_partial_messageable = surface.get_partial_messageable  # type: ignore[method-assign, assignment]  # the fake world's lookups
    bot.get_user = surface.get_user  # type: ignore[method-assign, assignment]  # the fake world's lookups
    bot.fetch_user = surface.fetch_user  # type: ignore[method-assign, assignment]  # the fake world's lookups
    bot.surface = surface  # type: ignore[attr-defined]  # for tests that read what was written
    bot.build_services()
    for name in EXTENSIONS:
        await bot.load_extension(name)
    return CogBot(bot, surface)
