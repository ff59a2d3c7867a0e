"""The gateway websocket (v10, JSON, uncompressed): HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats,
dispatch, RESUME with replay, op 7 RECONNECT, member chunks, shards.

Shards as Discord routes them: a session that identified with `shard: [id, count]` gets the servers with
`(server_id >> 22) % count == id` and their events and interactions; direct messages' interactions go to
shard 0. A session that identified without `shard` is the only shard and gets everything.

Unpatched, discord.py asks for `compress=zlib-stream` (or zstd) in the URL, but its receiver only
decompresses *binary* frames; text frames are parsed as plain JSON. So the fake ignores the
compress parameter and always sends text frames (launch_bot also turns the request off).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .world import World

_log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41250
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_RESUME, OP_RECONNECT = 0, 1, 2, 3, 6, 7
OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 8, 9, 10, 11
#: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT: need enabling in the developer portal.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)


@dataclass
class Session:
    """A gateway session: identified once READY went out; a RESUME moves it onto a new websocket."""

    number: int
    ws: web.WebSocketResponse
    query: dict[str, str]
    session_id: str = ""
    identified: bool = False
    guilds_sent: bool = False
    seq: int = 0
    intents: int = 0
    identify: dict[str, Any] = field(default_factory=dict)
    heartbeats: int = 0
    closed: bool = False
    resumes: int = 0
    #: Every dispatch sent in this session, replayed after `seq` on RESUME.
    sent: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def shard(self) -> tuple[int, int]:
        """(shard id, shard count) as identified; (0, 1) for a bot that does not shard."""
        shard = self.identify.get("shard") or [0, 1]
        return int(shard[0]), int(shard[1])

    def serves(self, guild_id: int | None) -> bool:
        """Whether Discord sends this server's events here (None: a direct message, shard 0's)."""
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a server's events go to: Discord's formula."""
    return (guild_id >> 22) % shard_count


class Gateway:
    """Accepts bot connections and dispatches events to the newest identified session."""

    def __init__(self, world: World, *, privileged_intents: int = 0, shard_count: int = 1) -> None:
        """`shard_count`: what GET /gateway/bot recommends."""
        self.world = world
        self.privileged_intents = privileged_intents
        self.shard_count = shard_count
        self.sessions: list[Session] = []
        self.url = ""
        self._send_lock = asyncio.Lock()

    @property
    def live(self) -> Session | None:
        """The newest identified session still open (the one events go to when the bot does not shard)."""
        for session in reversed(self.sessions):
            if session.identified and not session.closed and not session.ws.closed:
                return session
        return None

    def live_for(self, guild_id: int | None) -> Session | None:
        """The session a server's events go to (None: direct messages): the newest open one of its shard."""
        for session in reversed(self.sessions):
            if session.identified and not session.closed and not session.ws.closed and session.serves(guild_id):
                return session
        return None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        session = Session(len(self.sessions) + 1, ws, dict(request.query))
        self.sessions.append(session)
        self.world.changed()
        try:
            await self._send(session, {"op": OP_HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS},
                                       "s": None, "t": None})
            async for frame in ws:
                if frame.type is not WSMsgType.TEXT:
                    if frame.type is WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                    continue
                session = await self._receive(session, json.loads(frame.data))
        except (ConnectionResetError, asyncio.CancelledError):
            _log.debug("gateway session %s dropped", session.number)
            raise
        finally:
            if session.ws is ws:  # not if the session has since been resumed on another connection
                session.closed = True
            self.world.changed()
        return ws

    async def _receive(self, session: Session, msg: dict[str, Any]) -> Session:
        """Handle one client payload; returns the session this connection now belongs to."""
        op, data = msg.get("op"), msg.get("d")
        if op == OP_HEARTBEAT:
            session.heartbeats += 1
            await self._send(session, {"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            await self._identify(session, data or {})
        elif op == OP_RESUME:
            return await self._resume(session, data or {})
        elif op == OP_REQUEST_MEMBERS:
            await self._member_chunk(session, data or {})
        elif op == OP_PRESENCE:
            pass
        else:
            _log.debug("gateway ignoring op %s", op)
        return session

    async def _resume(self, connection: Session, data: dict[str, Any]) -> Session:
        """Move a known session onto this connection and replay what it missed; else op 9 (identify)."""
        wanted = data.get("session_id")
        target = next((s for s in self.sessions if s.identified and s.session_id == wanted), None)
        if target is None or data.get("token") != self.world.token or target is connection:
            await self._send(connection, {"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            return connection
        self.sessions.remove(connection)
        old_ws, target.ws, target.query = target.ws, connection.ws, connection.query
        target.closed = False
        target.resumes += 1
        if not old_ws.closed:
            await old_ws.close(code=4000)
        last_seen = int(data.get("seq") or 0)
        for event in [e for e in target.sent if e["s"] > last_seen]:
            await self._send(target, event)
        await self.dispatch_to(target, "RESUMED", {})
        self.world.changed()
        return target

    async def send_reconnect(self) -> bool:
        """Op 7 to the live session: Discord asking the client to reconnect and resume."""
        session = self.live
        if session is None:
            return False
        await self._send(session, {"op": OP_RECONNECT, "d": None, "s": None, "t": None})
        return True

    async def _identify(self, session: Session, data: dict[str, Any]) -> None:
        if data.get("token") != self.world.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        if session.identified:
            await session.ws.close(code=4005, message=b"Already authenticated.")
            return
        if int(data.get("intents", 0)) & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await session.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard", [0, 1])
        if (not isinstance(shard, list) or len(shard) != 2 or not all(isinstance(n, int) for n in shard)
                or not 0 <= shard[0] < shard[1]):
            await session.ws.close(code=4010, message=b"Invalid shard.")
            return
        world = self.world
        session.identify = data
        session.intents = int(data.get("intents", 0))
        session.session_id = f"fake-session-{session.number}"
        session.identified = True
        guilds = [guild for guild in list(world.guilds.values()) if session.serves(guild.id)]
        ready: dict[str, Any] = {
            "v": 10, "user": world.bot.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id, "resume_gateway_url": self.url, "private_channels": [],
            "relationships": [], "application": {"id": str(world.application_id), "flags": 0},
            "user_settings": {}, "geo_ordered_rtc_regions": [], "presences": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self.dispatch_to(session, "READY", ready)
        for guild in guilds:
            await self.dispatch_to(session, "GUILD_CREATE", world.guild_payload(guild, full=True))
        session.guilds_sent = True
        world.changed()

    async def _member_chunk(self, session: Session, data: dict[str, Any]) -> None:
        """Answer REQUEST_GUILD_MEMBERS with one chunk (all members, or those whose name matches)."""
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or not session.identified or not session.serves(guild.id):
            return
        query = str(data.get("query") or "").lower()
        wanted = {str(u) for u in data.get("user_ids") or []}
        members = [m.user for m in guild.members.values()
                   if (not wanted or str(m.user.id) in wanted) and m.user.name.lower().startswith(query)]
        limit = int(data.get("limit") or 0)
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id), "chunk_index": 0, "chunk_count": 1,
            "members": [self.world.member_payload(guild, u) for u in (members[:limit] if limit else members)],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self.dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(payload)
        await self._send(session, payload)

    async def dispatch(self, event: str, data: dict[str, Any], *, guild_id: int | None = None,
                       buffer_if_away: bool = False) -> Session | None:
        """Send an event to the live session of the shard that serves `guild_id` (None: direct messages,
        shard 0); the session, or None when that shard is not connected.

        With `buffer_if_away`, an event for a shard that is away (its websocket dropped) is kept in its
        latest session to be replayed on RESUME, as Discord does.
        """
        session = self.live_for(guild_id)
        if session is not None and session.guilds_sent:
            await self.dispatch_to(session, event, data)
            return session
        away = next((s for s in reversed(self.sessions) if s.identified and s.serves(guild_id)), None)
        if buffer_if_away and away is not None:
            away.seq += 1
            away.sent.append({"op": OP_DISPATCH, "t": event, "s": away.seq, "d": data})
            return away
        return None

    async def _send(self, session: Session, payload: dict[str, Any]) -> None:
        async with self._send_lock:
            if not session.ws.closed:
                await session.ws.send_str(json.dumps(payload))

    async def drop(self, code: int = 4000) -> bool:
        """Close the live session's websocket as a network blip would; the session stays resumable."""
        session = self.live
        if session is None:
            return False
        await session.ws.close(code=code)
        return True

    async def close_all(self, code: int = 1001) -> None:
        for session in self.sessions:
            if not session.ws.closed:
                await session.ws.close(code=code)
