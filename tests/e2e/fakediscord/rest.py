"""REST routes for the bot token: gateway discovery, users, application commands, channels, DMs, threads,
guilds.

Every call is logged; a route the fake does not know answers 404 and lands in `unknown_routes`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .gateway import Gateway
from .http_util import (
    BODY,
    ApiError,
    build_attachments,
    check_edit,
    invalid_form,
    json_response,
    new_version,
    read_body,
    snowflake,
    unknown,
)
from .records import RestCall
from .state import (
    CREATE_EVENTS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    MANAGE_CHANNELS,
    MANAGE_EVENTS,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    Channel,
    Guild,
    Message,
    User,
)
from .validation import check_commands
from .world import World

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_PUBLIC_PREFIXES = (f"{API}/interactions/", f"{API}/webhooks/", "/attachments/")


def make_middleware(world: World) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Auth check, Discord-shaped errors, the REST log, and 404 for unknown routes."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        arrived = asyncio.get_running_loop().time()
        route = request.match_info.route.resource.canonical if request.match_info.route.resource else "?"
        try:
            if not request.path.startswith(_PUBLIC_PREFIXES) and \
                    request.headers.get("Authorization") != f"Bot {world.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            if world.rest_latency:
                await asyncio.sleep(world.rest_latency)
            key = (request.method, route)
            faults = [f for f in world.faults if f.times > 0 and (f.method, f.route) == key
                      and f.path in (None, request.path)]
            if any(f.where is not None for f in faults):
                body, _ = await read_body(request)
                faults = [f for f in faults if f.where is None or f.where(body)]
            if faults:
                fault = faults[0]
                fault.times -= 1
                await read_body(request)
                raise ApiError(fault.status, fault.code, fault.message)
            response: web.StreamResponse
            limited, headers = (None, {}) if world.rate_limits is None else world.rate_limits.check(
                request, route, asyncio.get_running_loop().time())
            if limited is not None:
                await read_body(request)
                response = limited
            else:
                response = await handler(request)
                response.headers.update(headers)
            if response.status < 400:
                for tap in [t for t in world.taps if t.times > 0 and (t.method, t.route) == key]:
                    if tap.where is None or tap.where(request.get(BODY)):
                        tap.times -= 1
                        tap.action()
        except ApiError as err:
            response = err.response()
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            response = json_response({"code": 0, "message": "404: Not Found"}, status=404)
            call = RestCall(request.method, request.path, "<unknown>", 404, dict(request.query), None,
                            arrived)
            world.unknown_routes.append(call)
            world.rest_log.append(call)
            world.changed()
            return response
        world.rest_log.append(RestCall(request.method, request.path, route, response.status,
                                       dict(request.query), request.get(BODY), arrived))
        world.changed()
        return response

    return middleware


class BotRoutes:
    """Handlers for routes authenticated with the bot token."""

    def __init__(self, world: World, gateway: Gateway, base_url: Callable[[], str]) -> None:
        self.world = world
        self.gateway = gateway
        self.base_url = base_url

    def register(self, app: web.Application) -> None:
        r = app.router
        r.add_get(f"{API}/gateway", self.get_gateway)
        r.add_get(f"{API}/gateway/bot", self.get_gateway_bot)
        r.add_get(f"{API}/users/@me", self.get_me)
        r.add_post(f"{API}/users/@me/channels", self.create_dm)
        r.add_get(f"{API}/users/{{user_id}}", self.get_user)
        r.add_get(f"{API}/oauth2/applications/@me", self.get_application)
        r.add_get(f"{API}/applications/@me", self.get_application)
        r.add_get(f"{API}/applications/{{app_id}}/commands", self.get_commands)
        r.add_put(f"{API}/applications/{{app_id}}/commands", self.put_commands)
        r.add_get(f"{API}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.get_commands)
        r.add_put(f"{API}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.put_commands)
        r.add_get(f"{API}/channels/{{channel_id}}", self.get_channel)
        r.add_patch(f"{API}/channels/{{channel_id}}", self.edit_channel)
        r.add_get(f"{API}/channels/{{channel_id}}/messages", self.list_messages)
        r.add_post(f"{API}/channels/{{channel_id}}/messages", self.create_message)
        r.add_get(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", self.get_message)
        r.add_patch(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", self.edit_message)
        r.add_delete(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", self.delete_message)
        r.add_post(f"{API}/channels/{{channel_id}}/threads", self.create_thread)
        r.add_post(f"{API}/channels/{{channel_id}}/messages/{{message_id}}/threads", self.create_thread)
        r.add_put(f"{API}/channels/{{channel_id}}/thread-members/{{user_id}}", self.add_thread_member)
        r.add_post(f"{API}/channels/{{channel_id}}/typing", self.typing)
        r.add_get(f"{API}/guilds/{{guild_id}}", self.get_guild)
        r.add_get(f"{API}/guilds/{{guild_id}}/channels", self.get_guild_channels)
        r.add_get(f"{API}/guilds/{{guild_id}}/roles", self.get_roles)
        r.add_get(f"{API}/guilds/{{guild_id}}/members", self.list_members)
        r.add_get(f"{API}/guilds/{{guild_id}}/members/{{user_id}}", self.get_member)
        r.add_get(f"{API}/guilds/{{guild_id}}/scheduled-events", self.list_scheduled_events)
        r.add_post(f"{API}/guilds/{{guild_id}}/scheduled-events", self.create_scheduled_event)
        r.add_patch(f"{API}/guilds/{{guild_id}}/scheduled-events/{{event_id}}", self.edit_scheduled_event)

    # -- lookups -------------------------------------------------------------------------------

    def _channel(self, request: web.Request) -> Channel:
        channel = self.world.channels.get(snowflake(request.match_info["channel_id"]))
        if channel is None:
            raise unknown("Channel")
        return channel

    def _guild(self, request: web.Request) -> Guild:
        guild = self.world.guilds.get(snowflake(request.match_info["guild_id"]))
        if guild is None:
            raise unknown("Guild")
        return guild

    def _message(self, request: web.Request, channel: Channel) -> Message:
        msg = self.world.messages.get(snowflake(request.match_info["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise unknown("Message")
        return msg

    def _user(self, user_id: Any) -> User:
        user = self.world.users.get(snowflake(str(user_id)))
        if user is None:
            raise unknown("User")
        return user

    def _check_app(self, request: web.Request) -> None:
        if snowflake(request.match_info["app_id"]) != self.world.application_id:
            raise ApiError(403, 50001, "Missing Access")

    # -- gateway, users, application -----------------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway.url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway.url, "shards": self.gateway.shard_count, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response({**self.world.bot.payload(), "verified": True, "mfa_enabled": False,
                                  "locale": "en-US", "email": None})

    async def get_user(self, request: web.Request) -> web.Response:
        return json_response(self._user(request.match_info["user_id"]).payload())

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(self.world.application_payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = self._user((body or {}).get("recipient_id", "0"))
        return json_response(self.world.channel_payload(self.world.dm_channel(user)))

    # -- application commands ------------------------------------------------------------------

    def _scope(self, request: web.Request) -> Any:
        """None for global commands, else the guild id (403 Missing Access for a guild the bot is not in)."""
        self._check_app(request)
        if "guild_id" not in request.match_info:
            return None
        guild = self.world.guilds.get(snowflake(request.match_info["guild_id"]))
        if guild is None:
            raise ApiError(403, 50001, "Missing Access")
        return guild.id

    async def get_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        return json_response(list(self.world.commands.get(scope, {}).values()))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await read_body(request)
        if not isinstance(body, list):
            raise invalid_form({"_errors": [{"code": "BASE_TYPE_ARRAY", "message": "Must be an array."}]})
        tree = check_commands(body)
        if tree:
            raise invalid_form(tree)
        old = self.world.commands.get(scope, {})
        table: dict[str, dict[str, Any]] = {}
        for spec in body:
            kept = old.get(spec["name"])
            command = {
                "type": 1, "options": [], "default_member_permissions": None, "nsfw": False,
                "name_localizations": None, "description_localizations": None, "contexts": None,
                "integration_types": [0], "dm_permission": True, **spec,
                "id": kept["id"] if kept else str(self.world.ids.next()),
                "application_id": str(self.world.application_id), "version": str(self.world.ids.next()),
            }
            if scope is not None:
                command["guild_id"] = str(scope)
            table[spec["name"]] = command
        self.world.commands[scope] = table
        return json_response(list(table.values()))

    # -- channels and messages -----------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self.world.channel_payload(self._channel(request)))

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        msgs = [m for m in self.world.channel_messages(channel) if not m.deleted and not m.ephemeral]
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
            msgs = sorted(msgs, key=lambda m: m.id)[:limit]
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        return json_response([self.world.message_payload(m) for m in msgs])

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload, files = await read_body(request)
        payload = payload or {}
        if channel.type == DM:
            recipient = self.world.users[channel.recipient_id or 0]
            shares_guild = any(recipient.id in g.members for g in self.world.guilds.values())
            if not recipient.dms_open or not shares_guild:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        elif not self.world.bot_can_send(channel):
            raise ApiError(403, 50013, "Missing Permissions")
        version = new_version(self.world, self.base_url(), payload, files)
        if channel.archived:  # as on Discord: a message in an archived (unlocked) thread reopens it
            channel.archived = False
            await self.gateway.dispatch("THREAD_UPDATE", self.world.channel_payload(channel), guild_id=channel.guild_id)
        if version.flags & (1 << 6):
            error = {"code": "MESSAGE_FLAGS_INVALID", "message": "Ephemeral messages need an interaction"}
            raise invalid_form({"flags": {"_errors": [error]}})
        nonce = payload.get("nonce") if payload.get("enforce_nonce") else None
        now = asyncio.get_running_loop().time()
        if nonce is not None:  # as on Discord: a repeat within a few minutes gets the message it made
            known = self.world.nonces.get(str(nonce))
            if known is not None and now - known[1] <= self.world.nonce_window:
                earlier = self.world.messages.get(known[0])
                if earlier is not None and not earlier.deleted:
                    return json_response(self.world.message_payload(earlier))
        msg = self.world.post_message(channel, version, type_=19 if payload.get("message_reference") else 0)
        if nonce is not None:
            self.world.nonces[str(nonce)] = (msg.id, now)
        return json_response(self.world.message_payload(msg))

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(self.world.message_payload(self._message(request, channel)))

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(request, channel)
        payload, files = await read_body(request)
        payload = payload or {}
        if msg.author.id != self.world.bot.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if channel.archived:
            raise ApiError(400, 50083, "Thread is archived")
        check_edit(payload, msg, self.world)
        self.world.edit_message(msg, payload, build_attachments(self.world, self.base_url(), payload, files))
        return json_response(self.world.message_payload(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        msg = self._message(request, channel)
        msg.deleted = True
        self.world.changed()
        return web.Response(status=204)

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    # -- threads -------------------------------------------------------------------------------

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body, _ = await read_body(request)
        body = body or {}
        from_message = "message_id" in request.match_info
        if from_message:
            self._message(request, parent)
            if snowflake(request.match_info["message_id"]) in self.world.channels:  # as on Discord: one per message
                raise ApiError(400, 160004, "A thread has already been created for this message")
        if parent.type == DM or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        kind = PUBLIC_THREAD if from_message else int(body.get("type", PRIVATE_THREAD))
        needed = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        if not self.world.bot_permissions(parent) & needed:
            raise ApiError(403, 50013, "Missing Permissions")
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise invalid_form({"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                                      "message": "Must be between 1 and 100 in length."}]}})
        duration = body.get("auto_archive_duration") or 1440
        if duration not in (60, 1440, 4320, 10080):
            raise invalid_form({"auto_archive_duration": {"_errors": [
                {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {60, 1440, 4320, 10080}."}]}})
        thread_id = snowflake(request.match_info["message_id"]) if from_message else self.world.ids.next()
        thread = Channel(thread_id, kind, name=name, guild_id=parent.guild_id, parent_id=parent.id,
                         owner_id=self.world.bot.id, thread_member_ids=[self.world.bot.id],
                         auto_archive_duration=duration)
        self.world.channels[thread.id] = thread
        self.world.changed()
        payload = self.world.channel_payload(thread)
        await self.gateway.dispatch("THREAD_CREATE", {**payload, "newly_created": True}, guild_id=thread.guild_id)
        return json_response(payload, status=201)

    async def edit_channel(self, request: web.Request) -> web.Response:
        """PATCH /channels/{id}: a thread's name, archived and auto_archive_duration (its creator may change
        those; anything else needs Manage Threads), or a channel's name (Manage Channels)."""
        channel = self._channel(request)
        body, _ = await read_body(request)
        body = body or {}
        if channel.type == DM:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        permissions = self.world.bot_permissions(channel)
        if channel.is_thread:
            owner_may = {"name", "archived", "auto_archive_duration"}
            is_owner = channel.owner_id == self.world.bot.id
            if not permissions & MANAGE_THREADS and not (is_owner and set(body) <= owner_may):
                raise ApiError(403, 50013, "Missing Permissions")
            if channel.archived and body.get("archived") is not False:
                raise ApiError(400, 50083, "Thread is archived")
            duration = body.get("auto_archive_duration", channel.auto_archive_duration)
            if duration not in (60, 1440, 4320, 10080):
                raise invalid_form({"auto_archive_duration": {"_errors": [
                    {"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {60, 1440, 4320, 10080}."}]}})
            channel.auto_archive_duration = duration
            if "archived" in body:
                channel.archived = bool(body["archived"])
        elif not permissions & MANAGE_CHANNELS:
            raise ApiError(403, 50013, "Missing Permissions")
        if "name" in body:
            name = body.get("name") or ""
            if not 1 <= len(name) <= 100:
                raise invalid_form({"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                                          "message": "Must be between 1 and 100 in length."}]}})
            channel.name = name
        self.world.changed()
        payload = self.world.channel_payload(channel)
        await self.gateway.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload,
                                    guild_id=channel.guild_id)
        return json_response(payload)

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread = self._channel(request)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        user = self.world.bot if raw == "@me" else self._user(raw)
        if user.id not in thread.thread_member_ids:
            thread.thread_member_ids.append(user.id)
            self.world.changed()
        return web.Response(status=204)

    # -- guilds --------------------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        return json_response(self.world.guild_payload(self._guild(request), full=False))

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([self.world.channel_payload(self.world.channels[c]) for c in guild.channel_ids])

    async def get_roles(self, request: web.Request) -> web.Response:
        return json_response([r.payload() for r in self._guild(request).roles.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        """Listing members needs the privileged GUILD_MEMBERS intent enabled for the application."""
        guild = self._guild(request)
        if not self.gateway.privileged_intents & (1 << 1):
            raise ApiError(403, 50001, "Missing Access")
        limit = int(request.query.get("limit", "1"))
        members = [self.world.member_payload(guild, m.user) for m in guild.members.values()]
        return json_response(members[:limit])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        user = self._user(request.match_info["user_id"])
        if user.id not in guild.members:
            raise unknown("Member")
        return json_response(self.world.member_payload(guild, user))

    # -- guild scheduled events (https://discord.com/developers/docs/resources/guild-scheduled-event) ------

    async def list_scheduled_events(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([e for e in self.world.scheduled_events.values() if e["guild_id"] == str(guild.id)])

    async def create_scheduled_event(self, request: web.Request) -> web.Response:
        """POST /guilds/{id}/scheduled-events as Discord documents it: Manage Events (or Create Events); name
        1-100; privacy_level 2 (GUILD_ONLY); entity_type 1 (stage), 2 (voice) or 3 (external); an external
        event has no channel_id, a location of 1-100 in entity_metadata and a scheduled_end_time after the
        start; a description of at most 1000; the start in the future."""
        guild = self._guild(request)
        if not guild.permissions_of(self.world.bot.id) & (MANAGE_EVENTS | CREATE_EVENTS):
            raise ApiError(403, 50013, "Missing Permissions")
        body, _ = await read_body(request)
        body = body or {}
        errors: dict[str, Any] = {}

        def bad(field: str, code: str, message: str) -> None:
            errors[field] = {"_errors": [{"code": code, "message": message}]}

        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            bad("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if body.get("privacy_level") != 2:
            bad("privacy_level", "BASE_TYPE_CHOICES", "Value must be one of {2}.")
        kind = body.get("entity_type")
        if kind not in (1, 2, 3):
            bad("entity_type", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")
        description = body.get("description")
        if description is not None and len(description) > 1000:
            bad("description", "BASE_TYPE_BAD_LENGTH", "Must be 1000 or fewer in length.")
        start = _parse_time(body.get("scheduled_start_time"))
        end = _parse_time(body.get("scheduled_end_time"))
        if start is None:
            bad("scheduled_start_time", "DATE_TIME_TYPE_PARSE", "Could not parse the date and time.")
        elif start <= self.world.now():
            bad("scheduled_start_time", "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST", "Cannot schedule event in the past.")
        if kind == 3:
            location = (body.get("entity_metadata") or {}).get("location") or ""
            if body.get("channel_id") is not None:
                bad("channel_id", "BASE_TYPE_MAX_LENGTH", "An external event has no channel.")
            if not 1 <= len(location) <= 100:
                bad("entity_metadata", "BASE_TYPE_BAD_LENGTH", "location must be between 1 and 100 in length.")
            if end is None or (start is not None and end <= start):
                bad("scheduled_end_time", "BASE_TYPE_REQUIRED", "An external event needs an end after its start.")
        if errors:
            raise invalid_form(errors)
        event_id = self.world.ids.next()
        event = {"id": str(event_id), "guild_id": str(guild.id), "channel_id": body.get("channel_id"),
                 "creator_id": str(self.world.bot.id), "name": name, "description": description,
                 "scheduled_start_time": body["scheduled_start_time"],
                 "scheduled_end_time": body.get("scheduled_end_time"), "privacy_level": 2, "status": 1,
                 "entity_type": kind, "entity_id": None, "entity_metadata": body.get("entity_metadata"),
                 "creator": self.world.bot.payload(), "user_count": 0, "image": None}
        self.world.scheduled_events[event_id] = event
        self.world.changed()
        await self.gateway.dispatch("GUILD_SCHEDULED_EVENT_CREATE", event, guild_id=guild.id)
        return json_response(event)

    async def edit_scheduled_event(self, request: web.Request) -> web.Response:
        """PATCH /guilds/{id}/scheduled-events/{event}: Manage Events; its status only as Discord lets it change
        (scheduled to active or canceled, active to completed), else 400."""
        guild = self._guild(request)
        if not guild.permissions_of(self.world.bot.id) & (MANAGE_EVENTS | CREATE_EVENTS):
            raise ApiError(403, 50013, "Missing Permissions")
        body, _ = await read_body(request)
        event = _edit_event(self.world, guild.id, int(request.match_info["event_id"]), body or {})
        self.world.changed()
        await self.gateway.dispatch("GUILD_SCHEDULED_EVENT_UPDATE", event, guild_id=guild.id)
        return json_response(event)


EVENT_STATUS_CHANGES = {(1, 2), (1, 4), (2, 3)}
"""A guild scheduled event's status as Discord lets it change: SCHEDULED (1) to ACTIVE (2) or CANCELED (4),
ACTIVE to COMPLETED (3); nothing else."""


def _edit_event(world: World, guild_id: int, event_id: int, body: dict[str, Any]) -> dict[str, Any]:
    event = world.scheduled_events.get(event_id)
    if event is None or event["guild_id"] != str(guild_id):
        raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
    status = body.get("status")
    if status is not None and (event["status"], status) not in EVENT_STATUS_CHANGES:
        raise invalid_form({"status": {"_errors": [{"code": "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                                                    "message": "Invalid status transition."}]}})
    for key in ("name", "description", "status", "scheduled_start_time", "scheduled_end_time", "entity_metadata"):
        if key in body:
            event[key] = body[key]
    return event


def _parse_time(value: object) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
