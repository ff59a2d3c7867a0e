"""The fake Discord's world: users, roles, guilds, channels and messages with their edit history.

Plain records plus the payload builders that turn them into the JSON shapes discord.py parses
(snowflakes as strings, ISO timestamps). Ids carry the real clock (discord.py reads times from them).
"""

from __future__ import annotations

import copy
import datetime as dt
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

# Permission bits the fake checks.
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_GUILD = 1 << 5
MANAGE_CHANNELS = 1 << 4
MANAGE_THREADS = 1 << 34
ADMINISTRATOR = 1 << 3
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
USE_APPLICATION_COMMANDS = 1 << 31

#: What @everyone may do in a fresh fake guild: an ordinary community server.
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
    | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS | USE_APPLICATION_COMMANDS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES


def iso(moment: dt.datetime) -> str:
    """Discord's timestamp format."""
    return moment.isoformat()


class Snowflakes:
    """Unique, increasing snowflake ids whose timestamp part is the real clock.

    discord.py derives `created_at` from ids (interaction expiry, cooldowns), so they must carry the
    current time; the low 22 bits hold a counter, which keeps ids unique and strictly increasing.
    """

    def __init__(self) -> None:
        self._n = 0
        self._last_ms = 0

    def next(self) -> int:
        self._n += 1
        ms = max(int(time.time() * 1000), self._last_ms)
        if ms == self._last_ms and self._n % 4096 == 0:
            ms += 1
        self._last_ms = ms
        return ((ms - DISCORD_EPOCH_MS) << 22) | (self._n % 4096)

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose server would be on `shard_id` ((id >> 22) % count): its timestamp moves on by
        up to count - 1 milliseconds, and later ids follow it, so ids stay unique and increasing."""
        snowflake = self.next()
        ahead = (shard_id - (snowflake >> 22)) % shard_count
        self._last_ms += ahead
        return snowflake + (ahead << 22)

    @staticmethod
    def time_of(snowflake: int) -> dt.datetime:
        ms = (snowflake >> 22) + DISCORD_EPOCH_MS
        return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


@dataclass
class User:
    """A Discord account; `dms_open=False` makes DMs from the bot fail with 50007."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    #: The Discord client's language, sent as `locale` in this user's interactions.
    locale: str = "en-US"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id), "username": self.name, "global_name": self.name, "discriminator": "0",
            "avatar": None, "public_flags": 0, "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "permissions": str(self.permissions),
            "position": self.position,
            "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0,
        }


@dataclass
class Member:
    user: User
    role_ids: list[int] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=lambda: dt.datetime(2025, 1, 1, tzinfo=dt.UTC))


@dataclass
class Channel:
    """A guild text channel, a thread, or a DM channel (`recipient_id` set)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    #: Permission bits denied to the bot in this channel (a member overwrite), to test fallbacks.
    bot_denied: int = 0
    thread_member_ids: list[int] = field(default_factory=list)
    #: A thread's state: archived threads leave the active list; sending a message reopens them.
    archived: bool = False
    auto_archive_duration: int = 1440

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions: @everyone plus the member's roles (owner and admins get all)."""
        if user_id == self.owner_id:
            return (1 << 53) - 1
        member = self.members.get(user_id)
        bits = self.everyone.permissions
        if member is not None:
            for role_id in member.role_ids:
                bits |= self.roles[role_id].permissions
        if bits & ADMINISTRATOR:
            return (1 << 53) - 1
        return bits


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id), "filename": self.filename, "size": len(self.data), "url": self.url,
            "proxy_url": self.url, "content_type": self.content_type,
        }
        if self.description is not None:
            out["description"] = self.description
        return out


def number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of `components` with Discord's numeric `id` filled in, depth first, skipping ids in use."""
    copies = copy.deepcopy(components)
    nodes: list[dict[str, Any]] = []
    stack = list(reversed(copies))
    while stack:
        node = stack.pop()
        nodes.append(node)
        children = list(node.get("components", []))
        for key in ("accessory", "component"):
            if key in node:
                children.append(node[key])
        stack.extend(reversed(children))
    used = {n["id"] for n in nodes if isinstance(n.get("id"), int)}
    next_id = 1
    for node in nodes:
        if not isinstance(node.get("id"), int):
            while next_id in used:
                next_id += 1
            node["id"] = next_id
            used.add(next_id)
    return copies


@dataclass(frozen=True)
class MessageVersion:
    """One state of a message; `Message.history` holds them oldest first."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int


@dataclass
class Message:
    """Every message ever posted, with its edit history and who may see it.

    visibility is "public", "ephemeral" (only `viewer_id` sees it) or "dm" (a DM to `viewer_id`).
    """

    id: int
    seq: int
    channel_id: int
    guild_id: int | None
    author: User
    type: int
    visibility: str
    viewer_id: int | None
    history: list[MessageVersion]
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    deleted: bool = False
    edited_at: dt.datetime | None = None
    #: In a private thread: the thread's member list (shared, so members added later see it too).
    restricted_to: list[int] | None = None

    def __repr__(self) -> str:
        text = self.content if len(self.content) <= 60 else self.content[:57] + "..."
        return (f"<Message {self.id} in {self.channel_id} {self.visibility}"
                f"{'' if self.viewer_id is None else ' to ' + str(self.viewer_id)} {text!r}"
                f" versions={len(self.history)}{' deleted' if self.deleted else ''}>")

    @property
    def current(self) -> MessageVersion:
        return self.history[-1]

    @property
    def content(self) -> str:
        return self.current.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.current.embeds

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.current.components

    @property
    def attachments(self) -> list[Attachment]:
        return self.current.attachments

    @property
    def flags(self) -> int:
        return self.current.flags

    @property
    def ephemeral(self) -> bool:
        return self.visibility == "ephemeral"

    @property
    def loading(self) -> bool:
        """True while this is a deferred response's "thinking..." placeholder."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """What a reader sees: content, every embed's title, author, description, fields and footer, and
        the text displays of a components v2 message."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), (embed.get("author") or {}).get("name", ""),
                      embed.get("description", "")]
            for fld in embed.get("fields", []):
                parts += [fld.get("name", ""), fld.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        parts += [c.get("content", "") for c in self.walk_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def is_visible_to(self, user: User) -> bool:
        if self.deleted:
            return False
        if self.restricted_to is not None and user.id not in self.restricted_to:
            return False
        return self.visibility == "public" or self.viewer_id == user.id

    def walk_components(self) -> Iterator[dict[str, Any]]:
        """Every component, depth first (action rows, buttons, selects, v2 containers)."""
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            yield comp
            children = list(comp.get("components", []))
            if "accessory" in comp:
                children.append(comp["accessory"])
            if "component" in comp:
                children.append(comp["component"])
            stack.extend(reversed(children))

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def button_labels(self) -> list[str]:
        return [str(c.get("label", "")) for c in self.buttons()]

    def payload(self, channel: Channel) -> dict[str, Any]:
        v = self.current
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": self.type, "content": v.content,
            "author": self.author.payload(), "embeds": v.embeds, "components": v.components,
            "attachments": [a.payload() for a in v.attachments], "flags": v.flags,
            "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
            "timestamp": iso(Snowflakes.time_of(self.id)),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if channel.is_thread:
            data["position"] = 0
        return data
