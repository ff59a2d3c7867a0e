"""The gateway websocket (v10, JSON, uncompressed): HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats,
dispatch.

discord.py always asks for `compress=zlib-stream` (or zstd) in the URL, but its receiver only
decompresses *binary* frames; text frames are parsed as plain JSON. So the fake ignores the
compress parameter and sends text frames: no compression on either side.
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
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_RESUME = 0, 1, 2, 3, 6
OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 8, 9, 10, 11
#: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT: need enabling in the developer portal.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)


@dataclass
class Session:
    """One websocket connection; `identified` once READY went out."""

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


class Gateway:
    """Accepts bot connections and dispatches events to the newest identified session."""

    def __init__(self, world: World, *, privileged_intents: int = 0) -> None:
        self.world = world
        self.privileged_intents = privileged_intents
        self.sessions: list[Session] = []
        self.url = ""
        self._send_lock = asyncio.Lock()

    @property
    def live(self) -> Session | None:
        """The session events go to: the newest identified one still open."""
        for session in reversed(self.sessions):
            if session.identified and not session.closed and not session.ws.closed:
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
                await self._receive(session, json.loads(frame.data))
        except (ConnectionResetError, asyncio.CancelledError):
            _log.debug("gateway session %s dropped", session.number)
            raise
        finally:
            session.closed = True
            self.world.changed()
        return ws

    async def _receive(self, session: Session, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == OP_HEARTBEAT:
            session.heartbeats += 1
            await self._send(session, {"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            await self._identify(session, data or {})
        elif op == OP_RESUME:
            # Sessions are not resumable here: tell the client to identify afresh.
            await self._send(session, {"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
        elif op == OP_REQUEST_MEMBERS:
            await self._member_chunk(session, data or {})
        elif op == OP_PRESENCE:
            pass
        else:
            _log.debug("gateway ignoring op %s", op)

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
        world = self.world
        session.identify = data
        session.intents = int(data.get("intents", 0))
        session.session_id = f"fake-session-{session.number}"
        session.identified = True
        ready: dict[str, Any] = {
            "v": 10, "user": world.bot.payload(),
            "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
            "session_id": session.session_id, "resume_gateway_url": self.url, "private_channels": [],
            "relationships": [], "application": {"id": str(world.application_id), "flags": 0},
            "user_settings": {}, "geo_ordered_rtc_regions": [], "presences": [],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self.dispatch_to(session, "READY", ready)
        for guild in list(world.guilds.values()):
            await self.dispatch_to(session, "GUILD_CREATE", world.guild_payload(guild, full=True))
        session.guilds_sent = True
        world.changed()

    async def _member_chunk(self, session: Session, data: dict[str, Any]) -> None:
        """Answer REQUEST_GUILD_MEMBERS with one chunk (all members, or those whose name matches)."""
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or not session.identified:
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
        await self._send(session, {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data})

    async def dispatch(self, event: str, data: dict[str, Any]) -> bool:
        """Send an event to the live session; False when no bot is connected."""
        session = self.live
        if session is None or not session.guilds_sent:
            return False
        await self.dispatch_to(session, event, data)
        return True

    async def _send(self, session: Session, payload: dict[str, Any]) -> None:
        async with self._send_lock:
            if not session.ws.closed:
                await session.ws.send_str(json.dumps(payload))

    async def close_all(self, code: int = 1001) -> None:
        for session in self.sessions:
            if not session.ws.closed:
                await session.ws.close(code=code)
