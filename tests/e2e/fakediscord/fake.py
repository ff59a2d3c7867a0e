"""FakeDiscord: the test-facing handle on the loopback Discord (server, world, scripted users)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from aiohttp import web

from . import interactions as build
from .emojis import EmojiRoutes
from .gateway import Gateway
from .ratelimits import RateLimits
from .records import WAIT, Fault, Interaction, RestCall, Tap, Violation
from .rest import API, BotRoutes, make_middleware
from .rest_interactions import InteractionRoutes
from .state import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
)
from .world import World

T = TypeVar("T")


class FakeDiscord:
    """An aiohttp server on 127.0.0.1 speaking Discord's gateway and REST, plus helpers to drive it.

    Build the world (guilds, channels, users) before or after the bot connects, then script users
    with slash()/click()/select()/autocomplete() and wait on what the bot does with wait_for().
    """

    def __init__(self, *, ack_timeout: float = 3.0, token_ttl: float = 900.0, bot_name: str = "skatbot",
                 token: str = "fake-bot-token", privileged_intents: int = 0, shard_count: int = 1) -> None:
        """`privileged_intents`: the intent bits "enabled in the developer portal" (none by default);
        `shard_count`: the shards GET /gateway/bot recommends."""
        self.world = World(bot_name=bot_name, token=token)
        self.ack_timeout = ack_timeout
        self.gateway = Gateway(self.world, privileged_intents=privileged_intents, shard_count=shard_count)
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._timers: list[asyncio.TimerHandle] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bot_routes = BotRoutes(self.world, self.gateway, lambda: self.base_url)
        self._ix_routes = InteractionRoutes(self.world, lambda: self.base_url, ack_timeout, token_ttl)

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[make_middleware(self.world)], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._attachment)
        self._bot_routes.register(app)
        self._ix_routes.register(app)
        EmojiRoutes(self.world).register(app)
        # At shutdown: stop listening first, then close bot websockets (a bot would otherwise reconnect
        # and keep a handler alive), and do not wait long for anything still running.
        app.on_shutdown.append(self._close_gateway)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = int(self._runner.addresses[0][1])  # the free port the OS picked
        self.gateway.url = self.gateway_url
        return self

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _close_gateway(self, app: web.Application) -> None:
        await self.gateway.close_all()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def rest_url(self) -> str:
        """What discord.http.Route.BASE must become."""
        return f"{self.base_url}{API}"

    @property
    def gateway_url(self) -> str:
        """What discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY must become."""
        return f"ws://127.0.0.1:{self._port}/gateway"

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def bot(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def bot_env(self) -> dict[str, str]:
        """Environment variables for a bot process started through launch_bot."""
        return {"FAKE_DISCORD_REST": self.rest_url, "FAKE_DISCORD_GATEWAY": self.gateway_url,
                "DISCORD_TOKEN": self.token}

    async def _attachment(self, request: web.Request) -> web.Response:
        wanted = request.match_info["attachment_id"]
        for msg in self.world.messages.values():
            for version in msg.history:
                for att in version.attachments:
                    if str(att.id) == wanted:
                        return web.Response(body=att.data, content_type=att.content_type.split(";")[0])
        raise web.HTTPNotFound()

    # -- building the world --------------------------------------------------------------------

    def add_guild(self, name: str, *, owner: User | None = None, locale: str = "en-US",
                  shard: int | None = None) -> Guild:
        """A guild (`locale` is its preferred locale) with @everyone and the bot as a member; `shard`: an id
        that puts it on that shard of the recommended count (`(id >> 22) % shard_count`)."""
        guild = self.world.add_guild(name, owner, locale,
                                     shard=None if shard is None else (shard, self.gateway.shard_count))
        self._announce("GUILD_CREATE", lambda: self.world.guild_payload(guild, full=True), guild.id)
        return guild

    def add_channel(self, guild: Guild, name: str, *, bot_can_send: bool = True,
                    allow_threads: bool = True) -> Channel:
        """A text channel; the flags deny the bot Send Messages or Create Threads there."""
        denied = (0 if bot_can_send else SEND_MESSAGES) | \
            (0 if allow_threads else CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS)
        channel = self.world.add_channel(guild, name, bot_denied=denied)
        self._announce("CHANNEL_CREATE", lambda: self.world.channel_payload(channel), guild.id)
        return channel

    def set_bot_permissions(self, channel: Channel, *, bot_can_send: bool = True, allow_threads: bool = True) -> None:
        """A server manager changes the bot's overwrite in `channel` (the flags as add_channel's); Discord tells
        the bot with CHANNEL_UPDATE, and from now on refuses what the overwrite denies (403, code 50013)."""
        channel.bot_denied = (0 if bot_can_send else SEND_MESSAGES) | \
            (0 if allow_threads else CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS)
        self.world.changed()
        self._announce("CHANNEL_UPDATE", lambda: self.world.channel_payload(channel), channel.guild_id or 0)

    def add_user(self, name: str, *, dms_open: bool = True, guilds: list[Guild] | None = None,
                 locale: str = "en-US") -> User:
        """A human; joins `guilds` (default: every guild that exists now); `locale`: their language."""
        user = self.world.add_user(name, dms_open=dms_open, locale=locale)
        for guild in (self.world.guilds.values() if guilds is None else guilds):
            self.add_member(guild, user)
        return user

    def add_member(self, guild: Guild, user: User) -> None:
        guild.members.setdefault(user.id, Member(user))
        self.world.changed()

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        """A role with these permission bits (e.g. state.MANAGE_GUILD for server admins)."""
        role = Role(self.world.ids.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        self.world.changed()
        self._announce("GUILD_ROLE_CREATE", lambda: {"guild_id": str(guild.id), "role": role.payload()}, guild.id)
        return role

    def give_role(self, guild: Guild, user: User, role: Role) -> None:
        """The member's permissions in later interactions include the role's."""
        member = guild.members.setdefault(user.id, Member(user))
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
        self.world.changed()

    def set_dms_open(self, user: User, dms_open: bool) -> None:
        user.dms_open = dms_open
        self.world.changed()

    def dm_channel(self, user: User) -> Channel:
        return self.world.dm_channel(user)

    def channel(self, channel_id: int) -> Channel:
        return self.world.channels[channel_id]

    def threads(self, parent: Channel | None = None) -> list[Channel]:
        return [c for c in self.world.channels.values()
                if c.is_thread and (parent is None or c.parent_id == parent.id)]

    def _announce(self, event: str, payload: Callable[[], dict[str, Any]], guild_id: int) -> None:
        """Tell the shard of `guild_id`, if it has connected, about something new there (it gets it on
        RESUME if it is away)."""
        if not any(s.identified and s.serves(guild_id) for s in self.gateway.sessions):
            return
        task = asyncio.get_running_loop().create_task(
            self.gateway.dispatch(event, payload(), guild_id=guild_id, buffer_if_away=True))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- what happened -------------------------------------------------------------------------

    def message(self, message_id: int) -> Message:
        return self.world.messages[message_id]

    def messages(self, channel: Channel | None = None, *, visible_to: User | None = None,
                 include_deleted: bool = False) -> list[Message]:
        """Every message ever posted (oldest first), optionally in one channel / as one user sees it."""
        out = [m for m in self.world.messages.values()
               if (channel is None or m.channel_id == channel.id) and (include_deleted or not m.deleted)
               and (visible_to is None or m.is_visible_to(visible_to))]
        return sorted(out, key=lambda m: m.seq)

    def dms(self, user: User) -> list[Message]:
        """Messages the bot sent to `user` by DM."""
        return self.messages(self.dm_channel(user))

    def mark(self) -> int:
        """A point in the message stream; pass to wait_for_message(after=...) to see only newer ones."""
        return max((m.seq for m in self.world.messages.values()), default=0)

    @property
    def rest_log(self) -> list[RestCall]:
        return self.world.rest_log

    @property
    def unknown_routes(self) -> list[RestCall]:
        return self.world.unknown_routes

    @property
    def rejections(self) -> list[RestCall]:
        """REST calls answered with an error (4xx), e.g. 50007 or 50035."""
        return [c for c in self.world.rest_log if c.status >= 400]

    @property
    def violations(self) -> list[Violation]:
        return self.world.violations

    @property
    def interactions(self) -> list[Interaction]:
        return list(self.world.interactions.values())

    def commands(self, guild: Guild | None = None) -> dict[str, dict[str, Any]]:
        return dict(self.world.commands.get(guild.id if guild else None, {}))

    def inject_error(self, method: str, route: str, *, status: int = 500, code: int = 0,
                     message: str = "500: Internal Server Error", times: int = 1, path: str | None = None,
                     where: Callable[[Any], bool] | None = None) -> Fault:
        """Answer the next `times` calls of `method route` with this error instead of handling them.

        `route` is the template as logged in rest_log, e.g. "/api/v10/channels/{channel_id}/messages";
        `path` narrows it to calls to that one path, e.g. f"/api/v10/channels/{channel.id}/messages/{msg.id}";
        `where` to calls whose JSON body (a multipart call's `payload_json`) satisfies it.
        discord.py retries 5xx answers (sleeping 1 s, 3 s, ...); 4xx ones reach the bot at once.
        """
        fault = Fault(method.upper(), route, status, code, message, times, path, where)
        self.world.faults.append(fault)
        return fault

    def tap(self, method: str, route: str, action: Callable[[], None], *, where: Callable[[Any], bool] | None = None,
            times: int = 1) -> Tap:
        """Run `action` when the next `times` calls of `method route` (whose JSON body satisfies `where`) were
        handled, before the answer goes back to the bot: e.g. to take a lock the bot meets right after."""
        tap = Tap(method.upper(), route, action, where, times)
        self.world.taps.append(tap)
        return tap

    @property
    def token_ttl(self) -> float:
        """Seconds an interaction's token answers follow-ups and edits (15 minutes on Discord)."""
        return self._ix_routes.token_ttl

    @token_ttl.setter
    def token_ttl(self, seconds: float) -> None:
        self._ix_routes.token_ttl = seconds

    def enable_rate_limits(self, limits: dict[tuple[str, str], tuple[int, float]] | None = None,
                           channels: list[Channel] | None = None) -> RateLimits:
        """Answer like Discord under its per-route rate limits (default: five messages, edits and deletions
        per channel per 5 s), with X-RateLimit headers and 429 + retry_after when a bucket is empty.
        `channels`: limit only these (default: every channel, DMs included)."""
        self.world.rate_limits = RateLimits(limits, None if channels is None else {c.id for c in channels})
        return self.world.rate_limits

    @property
    def rest_latency(self) -> float:
        """Seconds each REST call waits before it is handled; set it to shake out ordering assumptions."""
        return self.world.rest_latency

    @rest_latency.setter
    def rest_latency(self, seconds: float) -> None:
        self.world.rest_latency = seconds

    def assert_clean(self, *, allow_rejections: bool = True) -> None:
        """Fail on unknown routes and broken interaction rules (and, if asked, on any 4xx)."""
        problems: list[str] = [f"unknown route {c.method} {c.path}" for c in self.unknown_routes]
        problems += [f"violation {v.kind}: {v.detail}" for v in self.violations]
        if not allow_rejections:
            problems += [f"rejected {c.method} {c.route} -> {c.status}" for c in self.rejections]
        assert not problems, "\n".join(problems)

    # -- waiting -------------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = WAIT,
                       what: str = "condition") -> T:
        """Re-check `predicate` on every change until it returns something truthy; return that (so a
        predicate that answers "not yet" with None gives its found value, not an optional one)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            # Also re-check now and then, for conditions no event announces (a process exiting).
            await self.world.signal.wait(min(remaining, 0.2))

    async def wait_for_message(self, channel: Channel | None = None,
                               where: Callable[[Message], bool] | None = None, *, after: int = 0,
                               visible_to: User | None = None, timeout: float = WAIT) -> Message:
        """The first message (after mark `after`) in `channel` matching `where`."""
        def find() -> Message | None:
            for msg in self.messages(channel, visible_to=visible_to):
                if msg.seq > after and (where is None or where(msg)):
                    return msg
            return None
        where_text = channel.name if channel else "any channel"
        return await self.wait_for(find, timeout, f"a message in {where_text}")

    async def wait_until_ready(self, timeout: float = 20.0) -> None:
        """Until a bot has identified and received its guilds."""
        await self.wait_for(lambda: self.gateway.live is not None and self.gateway.live.guilds_sent, timeout,
                            "the bot to connect to the gateway")

    async def wait_for_commands(self, *names: str, guild: Guild | None = None, timeout: float = 20.0) -> None:
        scope = guild.id if guild else None
        await self.wait_for(lambda: all(n in self.world.commands.get(scope, {}) for n in names), timeout,
                            f"commands {names} to be synced")

    async def reconnect_bot(self) -> None:
        """Send op 7 RECONNECT, as Discord does now and then: the bot should come back and RESUME."""
        if not await self.gateway.send_reconnect():
            raise RuntimeError("no bot is connected to the fake gateway")

    async def drop_bot_connection(self) -> None:
        """Close the bot's websocket (code 4000) like a network blip: the bot should come back and RESUME."""
        if not await self.gateway.drop():
            raise RuntimeError("no bot is connected to the fake gateway")

    # -- scripted users ------------------------------------------------------------------------

    async def _dispatch(self, kind: int, user: User, channel: Channel, data: dict[str, Any],
                        message: Message | None = None) -> Interaction:
        world = self.world
        ix_id = world.ids.next()
        token = f"interaction-token-{ix_id}"
        payload = build.base_payload(world, ix_id, token, kind, user, channel, data)
        if message is not None:
            payload["message"] = world.message_payload(message)
        loop = asyncio.get_running_loop()
        ix = Interaction(ix_id, token, kind, user, channel, payload, loop.time(),
                         source_message_id=message.id if message else None, _fake=self)
        world.interactions[ix_id] = ix
        world.interactions_by_token[token] = ix
        session = await self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id)
        if session is None:
            del world.interactions[ix_id], world.interactions_by_token[token]
            raise RuntimeError("no bot is connected to the fake gateway (for this server's shard)")
        ix.shard = session.shard[0]
        self._timers.append(loop.call_later(self.ack_timeout, self._check_acked, ix))
        world.changed()
        return ix

    def _check_acked(self, ix: Interaction) -> None:
        if not ix.acknowledged:
            self.world.violations.append(
                Violation("ack_timeout", f"interaction not acknowledged within {self.ack_timeout}s", ix.id))
            self.world.changed()

    async def slash(self, user: User, channel: Channel, command: str, *, subcommand: str | None = None,
                    group: str | None = None, options: Mapping[str, Any] | None = None) -> Interaction:
        """`user` runs /command [group] [subcommand] with `options`; returns the interaction record."""
        data = build.command_data(self.world, channel, command, group=group, subcommand=subcommand,
                                  options=options or {}, focused=None)
        return await self._dispatch(2, user, channel, data)

    async def autocomplete(self, user: User, channel: Channel, command: str, *, focused: str,
                           subcommand: str | None = None, group: str | None = None,
                           options: Mapping[str, Any] | None = None,
                           timeout: float = WAIT) -> list[dict[str, Any]]:
        """`user` types into option `focused` (its current text in `options`); returns the offered choices."""
        opts = dict(options or {})
        opts.setdefault(focused, "")
        data = build.command_data(self.world, channel, command, group=group, subcommand=subcommand,
                                  options=opts, focused=focused)
        ix = await self._dispatch(4, user, channel, data)
        await ix.wait_acked(timeout)
        return ix.choices or []

    async def click(self, user: User, message: Message, custom_id: str) -> Interaction:
        """`user` presses the button `custom_id` on `message`."""
        data = build.component_data(message, user, custom_id, None)
        return await self._dispatch(3, user, self.world.channels[message.channel_id], data, message)

    async def select(self, user: User, message: Message, custom_id: str, values: list[Any]) -> Interaction:
        """`user` picks `values` in the select menu `custom_id` on `message`.

        String selects take option values; user/role/channel selects take User/Role/Channel objects.
        """
        channel = self.world.channels[message.channel_id]
        resolved = build.resolve_entities(self.world, channel, values)
        data = build.component_data(message, user, custom_id, [_entity_id(v) for v in values])
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(3, user, channel, data, message)

    async def submit_modal(self, opened_by: Interaction, values: Mapping[str, str]) -> Interaction:
        """Fill in and submit the modal the bot showed in answer to `opened_by`."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError(f"interaction {opened_by.id} was not answered with a modal")
        data = build.modal_data(modal, values)
        source = self.world.messages.get(opened_by.source_message_id or 0)
        return await self._dispatch(5, opened_by.user, opened_by.channel, data, source)


def _entity_id(value: Any) -> str:
    return str(value.id) if isinstance(value, (User, Role, Channel)) else str(value)
