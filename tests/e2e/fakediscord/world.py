"""Everything the fake Discord knows, and the JSON views of it that REST and the gateway hand out."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from .records import ChangeSignal, Fault, Interaction, RestCall, Tap, Violation
from .state import (
    ATTACH_FILES,
    BOT_PERMISSIONS,
    DM,
    EMBED_LINKS,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    PRIVATE_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    MessageVersion,
    Role,
    Snowflakes,
    User,
    iso,
    number_components,
)

#: Commands as synced, keyed by guild id (None for global), then by command name.
CommandTable = dict[int | None, dict[str, dict[str, Any]]]

if TYPE_CHECKING:
    from .ratelimits import RateLimits


class World:
    """Registries plus the payload builders; mutated only through the REST layer and the test API."""

    def __init__(self, *, bot_name: str = "skatbot", token: str = "fake-bot-token") -> None:
        self.ids = Snowflakes()
        self.signal = ChangeSignal()
        self.token = token
        self.application_id = self.ids.next()
        self.bot = User(self.application_id, bot_name, bot=True)
        self.owner = User(self.ids.next(), "app-owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.commands: CommandTable = {}
        self.application_emojis: dict[int, Any] = {}  # id -> emojis.AppEmoji
        self.scheduled_events: dict[int, dict[str, Any]] = {}  # id -> the guild scheduled event's payload
        self.rest_log: list[RestCall] = []
        self.unknown_routes: list[RestCall] = []
        self.violations: list[Violation] = []
        self.faults: list[Fault] = []
        self.taps: list[Tap] = []
        #: Messages created with `enforce_nonce`: nonce -> (message id, loop time); see `nonce_window`.
        self.nonces: dict[str, tuple[int, float]] = {}
        #: Seconds a nonce is remembered ("the past few minutes" on Discord).
        self.nonce_window = 120.0
        #: Seconds every REST call waits before it is handled (a slower network).
        self.rest_latency = 0.0
        #: Discord's per-route rate limits (`FakeDiscord.enable_rate_limits`); None: unlimited.
        self.rate_limits: RateLimits | None = None
        self._seq = 0

    def changed(self) -> None:
        self.signal.notify()

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC)

    # -- building the world -------------------------------------------------------------------

    def add_user(self, name: str, *, dms_open: bool = True, locale: str = "en-US") -> User:
        user = User(self.ids.next(), name, dms_open=dms_open, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, owner: User | None = None, locale: str = "en-US",
                  shard: tuple[int, int] | None = None) -> Guild:
        """`shard` (id, count): an id whose server falls on that shard."""
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = Guild(gid, name, owner_id=(owner or self.owner).id, locale=locale)
        guild.roles[gid] = Role(gid, "@everyone", EVERYONE_PERMISSIONS)
        bot_role = Role(self.ids.next(), self.bot.name, BOT_PERMISSIONS, position=1)
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = Member(self.bot, [bot_role.id])
        guild.members[guild.owner_id] = Member(self.users[guild.owner_id])
        self.guilds[gid] = guild
        return guild

    def add_channel(self, guild: Guild, name: str, *, bot_denied: int = 0) -> Channel:
        channel = Channel(self.ids.next(), GUILD_TEXT, name=name, guild_id=guild.id,
                          position=len(guild.channel_ids), bot_denied=bot_denied)
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with `user`, created on first use like POST /users/@me/channels."""
        for channel in self.channels.values():
            if channel.type == DM and channel.recipient_id == user.id:
                return channel
        channel = Channel(self.ids.next(), DM, recipient_id=user.id)
        self.channels[channel.id] = channel
        return channel

    # -- permissions ---------------------------------------------------------------------------

    def bot_permissions(self, channel: Channel) -> int:
        """The bot's permissions in `channel`: its roles minus the channel's (a thread: parent's) denials."""
        if channel.guild_id is None:
            return VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
        guild = self.guilds[channel.guild_id]
        base = channel if not channel.is_thread else self.channels[channel.parent_id or 0]
        return guild.permissions_of(self.bot.id) & ~base.bot_denied

    def bot_can_send(self, channel: Channel) -> bool:
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        return bool(self.bot_permissions(channel) & needed)

    # -- messages ------------------------------------------------------------------------------

    def post_message(self, channel: Channel, version: MessageVersion, *, author: User | None = None,
                     type_: int = 0, viewer: User | None = None,
                     interaction: Interaction | None = None) -> Message:
        """Store a new message; ephemeral when its flags say so (then `viewer` must be given)."""
        self._seq += 1
        viewer_id: int | None
        if version.flags & EPHEMERAL:
            assert viewer is not None, "an ephemeral message needs the interaction's user"
            visibility, viewer_id = "ephemeral", viewer.id
        elif channel.type == DM:
            visibility, viewer_id = "dm", channel.recipient_id
        else:
            visibility, viewer_id = "public", None
        msg = Message(
            id=self.ids.next(), seq=self._seq, channel_id=channel.id, guild_id=channel.guild_id,
            author=author or self.bot, type=type_, visibility=visibility, viewer_id=viewer_id,
            history=[version],
        )
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.interaction_id = interaction.id
            msg.interaction_metadata = {
                "id": str(interaction.id), "type": interaction.kind, "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.payload["authorizing_integration_owners"],
            }
        if channel.type == PRIVATE_THREAD:
            msg.restricted_to = channel.thread_member_ids
        self.messages[msg.id] = msg
        self.changed()
        return msg

    def edit_message(self, msg: Message, patch: dict[str, Any], new_files: list[Attachment], *,
                     clear_flags: int = 0) -> None:
        """Apply a PATCH body: only the keys present change; `attachments` lists the ones to keep."""
        cur = msg.current
        attachments = cur.attachments
        if "attachments" in patch and patch["attachments"] is not None:
            keep = {str(a.get("id")) for a in patch["attachments"]}
            attachments = [a for a in cur.attachments if str(a.id) in keep]
        flags = cur.flags
        if patch.get("flags") is not None:
            # Only suppress-embeds (1<<2) and the v2 flag may change on edit; ephemeral/loading stay.
            flags = (cur.flags & ~(1 << 2)) | (int(patch["flags"]) & ((1 << 2) | (1 << 15)))
        msg.history.append(MessageVersion(
            content=cur.content if "content" not in patch else (patch["content"] or ""),
            embeds=cur.embeds if "embeds" not in patch else list(patch["embeds"] or []),
            components=cur.components if "components" not in patch else number_components(
                list(patch["components"] or [])),
            attachments=attachments + new_files,
            flags=flags & ~clear_flags,
        ))
        msg.edited_at = self.now()
        self.changed()

    def channel_messages(self, channel: Channel) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel.id]

    # -- payloads ------------------------------------------------------------------------------

    def member_payload(self, guild: Guild, user: User, *, with_permissions: bool = False) -> dict[str, Any]:
        member = guild.members.get(user.id) or Member(user)
        data: dict[str, Any] = {
            "user": user.payload(), "roles": [str(r) for r in member.role_ids], "nick": None, "avatar": None,
            "joined_at": iso(member.joined_at), "deaf": False, "mute": False, "flags": 0, "pending": False,
            "premium_since": None, "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(guild.permissions_of(user.id))
        return data

    def channel_payload(self, channel: Channel) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(channel.id), "type": channel.type, "flags": 0}
        if channel.type == DM:
            data.update(recipients=[self.users[channel.recipient_id or 0].payload()], last_message_id=None)
            return data
        data.update(name=channel.name, guild_id=str(channel.guild_id), position=channel.position, nsfw=False,
                    rate_limit_per_user=0, last_message_id=None)
        if channel.is_thread:
            data.update(parent_id=str(channel.parent_id), owner_id=str(channel.owner_id), message_count=0,
                        member_count=len(channel.thread_member_ids), total_message_sent=0,
                        thread_metadata={"archived": channel.archived,
                                         "auto_archive_duration": channel.auto_archive_duration, "locked": False,
                                         "archive_timestamp": iso(Snowflakes.time_of(channel.id)),
                                         "create_timestamp": iso(Snowflakes.time_of(channel.id))})
        else:
            data.update(topic=None, parent_id=None, permission_overwrites=self._overwrites(channel))
        return data

    def _overwrites(self, channel: Channel) -> list[dict[str, Any]]:
        if not channel.bot_denied:
            return []
        return [{"id": str(self.bot.id), "type": 1, "allow": "0", "deny": str(channel.bot_denied)}]

    def guild_payload(self, guild: Guild, *, full: bool) -> dict[str, Any]:
        """GET /guilds/{id} shape, or (full) GUILD_CREATE with channels, threads and members."""
        data: dict[str, Any] = {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None, "discovery_splash": None,
            "owner_id": str(guild.owner_id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "features": [], "mfa_level": 0, "system_channel_id": None, "system_channel_flags": 0,
            "rules_channel_id": None, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0, "preferred_locale": guild.locale,
            "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
            "roles": [r.payload() for r in guild.roles.values()], "emojis": [], "stickers": [],
        }
        if full:
            channels = [self.channels[c] for c in guild.channel_ids]
            # Only active threads, as on Discord: an archived one is fetched by id (GET /channels/{id}).
            threads = [c for c in self.channels.values() if c.guild_id == guild.id and c.is_thread and not c.archived]
            data.update(
                unavailable=False, large=False, member_count=len(guild.members),
                joined_at=iso(guild.members[self.bot.id].joined_at),
                channels=[self.channel_payload(c) for c in channels if not c.is_thread],
                threads=[self.channel_payload(t) for t in threads],
                members=[self.member_payload(guild, m.user) for m in guild.members.values()],
                presences=[], voice_states=[], stage_instances=[], guild_scheduled_events=[],
                soundboard_sounds=[],
            )
        return data

    def message_payload(self, msg: Message) -> dict[str, Any]:
        return msg.payload(self.channels[msg.channel_id])

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id), "name": self.bot.name, "icon": None, "description": "",
            "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False, "bot": self.bot.payload(),
            "owner": self.owner.payload(), "team": None, "verify_key": "0" * 64, "flags": 0, "summary": "",
            "interactions_endpoint_url": None, "install_params": {"scopes": ["bot", "applications.commands"],
                                                                  "permissions": str(BOT_PERMISSIONS)},
        }

    def find_command(self, guild_id: int | None, name: str) -> tuple[int | None, dict[str, Any] | None]:
        """A command as the client would see it: the guild's own first, then the global one."""
        if guild_id is not None and name in self.commands.get(guild_id, {}):
            return guild_id, self.commands[guild_id][name]
        return None, self.commands.get(None, {}).get(name)
