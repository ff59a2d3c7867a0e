"""A minimal hand-written gateway + REST client, for testing the fake Discord at the wire."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.e2e.fakediscord import FakeDiscord

SKAT_COMMAND = {
    "name": "skat", "description": "Skat", "options": [
        {"type": 1, "name": "bid", "description": "Bid", "options": [
            {"type": 4, "name": "value", "description": "Value", "required": True, "autocomplete": True}]},
        {"type": 1, "name": "play", "description": "Play", "options": [
            {"type": 3, "name": "card", "description": "Card", "required": True},
            {"type": 3, "name": "style", "description": "Style",
             "choices": [{"name": "French", "value": "fr"}, {"name": "German", "value": "de"}]}]},
        {"type": 2, "name": "admin", "description": "Admin", "options": [
            {"type": 1, "name": "kick", "description": "Kick", "options": [
                {"type": 6, "name": "player", "description": "Player", "required": True}]}]},
    ],
}


class RawBot:
    """A minimal gateway + REST client speaking the protocol by hand."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.http = http
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.hello: dict[str, Any] = {}
        self.ready: dict[str, Any] = {}
        self.guilds: list[dict[str, Any]] = []

    async def connect(self, token: str | None = None, shard: list[int] | None = None) -> None:
        """IDENTIFY (as shard [id, count] when given) and read READY and the guilds it announces."""
        url = f"{self.fake.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        self.ws = await self.http.ws_connect(url)
        self.hello = await self.ws.receive_json(timeout=30)
        await self.ws.send_json({"op": 2, "d": {"token": token or self.fake.token, "intents": 1,
                                                "properties": {"os": "linux"},
                                                **({} if shard is None else {"shard": shard})}})
        ready = await self.ws.receive_json(timeout=30)
        self.ready = ready["d"]
        for _ in self.ready["guilds"]:
            self.guilds.append((await self.ws.receive_json(timeout=30))["d"])

    async def event(self, name: str) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            msg = await self.ws.receive_json(timeout=30)
            if msg.get("t") == name:
                data: dict[str, Any] = msg["d"]
                return data

    async def rest(self, method: str, path: str, body: Any = None, *, auth: bool = True) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        async with self.http.request(method, self.fake.rest_url + path, json=body, headers=headers) as resp:
            assert resp.status == 204 or resp.headers["Content-Type"] == "application/json"
            return resp.status, (await resp.json() if resp.status != 204 else None)

    async def sync(self, *, guild_id: int | None = None, commands: list[dict[str, Any]] | None = None) -> None:
        scope = f"/guilds/{guild_id}" if guild_id else ""
        path = f"/applications/{self.fake.application_id}{scope}/commands"
        status, _ = await self.rest("PUT", path, commands if commands is not None else [SKAT_COMMAND])
        assert status == 200

    async def callback(self, ix: dict[str, Any], kind: int,
                       data: dict[str, Any] | None = None) -> tuple[int, Any]:
        body = {"type": kind, **({"data": data} if data is not None else {})}
        path = f"/interactions/{ix['id']}/{ix['token']}/callback?with_response=true"
        return await self.rest("POST", path, body, auth=False)
