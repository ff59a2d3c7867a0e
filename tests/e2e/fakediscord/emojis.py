"""Application emojis: GET/POST /applications/{app_id}/emojis, GET/PATCH/DELETE .../emojis/{emoji_id}.

Discord's rules: a name of 2 to 32 letters, digits or underscores, unique within the application; a PNG,
JPEG, GIF or WebP image of at most 256 KiB given as a data URI; at most 2000 emojis per application.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .http_util import ApiError, invalid_form, json_response, read_body, snowflake
from .world import World

API = "/api/v10"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
_DATA_URI = re.compile(r"data:image/(png|jpeg|gif|webp);base64,(.+)", re.DOTALL)


@dataclass
class AppEmoji:
    id: int
    name: str
    image: bytes
    animated: bool = False

    def payload(self, world: World) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "roles": [], "require_colons": True, "managed": False,
                "animated": self.animated, "available": True, "user": world.bot.payload()}


class EmojiRoutes:
    """The application emoji routes, kept in `world.application_emojis` (id -> AppEmoji)."""

    def __init__(self, world: World) -> None:
        self.world = world

    def register(self, app: web.Application) -> None:
        r = app.router
        r.add_get(f"{API}/applications/{{app_id}}/emojis", self.list_emojis)
        r.add_post(f"{API}/applications/{{app_id}}/emojis", self.create_emoji)
        r.add_get(f"{API}/applications/{{app_id}}/emojis/{{emoji_id}}", self.get_emoji)
        r.add_patch(f"{API}/applications/{{app_id}}/emojis/{{emoji_id}}", self.edit_emoji)
        r.add_delete(f"{API}/applications/{{app_id}}/emojis/{{emoji_id}}", self.delete_emoji)

    @property
    def emojis(self) -> dict[int, AppEmoji]:
        return self.world.application_emojis

    def _check_app(self, request: web.Request) -> None:
        if snowflake(request.match_info["app_id"]) != self.world.application_id:
            raise ApiError(403, 50001, "Missing Access")

    def _emoji(self, request: web.Request) -> AppEmoji:
        self._check_app(request)
        emoji = self.emojis.get(snowflake(request.match_info["emoji_id"]))
        if emoji is None:
            raise ApiError(404, 10014, "Unknown Emoji")
        return emoji

    def _check_name(self, name: Any, errors: dict[str, Any], own_id: int | None = None) -> None:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            errors["name"] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH" if isinstance(name, str) else
                                           "BASE_TYPE_REQUIRED", "message": "Must be between 2 and 32 in length "
                                           "and contain only letters, numbers and underscores."}]}
        elif any(e.name == name and e.id != own_id for e in self.emojis.values()):
            errors["name"] = {"_errors": [{"code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                                           "message": "Application emoji names must be unique."}]}

    async def list_emojis(self, request: web.Request) -> web.Response:
        self._check_app(request)
        return json_response({"items": [e.payload(self.world) for e in self.emojis.values()]})

    async def get_emoji(self, request: web.Request) -> web.Response:
        return json_response(self._emoji(request).payload(self.world))

    async def create_emoji(self, request: web.Request) -> web.Response:
        self._check_app(request)
        body, _ = await read_body(request)
        body = body if isinstance(body, dict) else {}
        errors: dict[str, Any] = {}
        self._check_name(body.get("name"), errors)
        match = _DATA_URI.fullmatch(str(body.get("image", "")))
        image = b""
        if match is None:
            errors["image"] = {"_errors": [{"code": "IMAGE_INVALID", "message": "Invalid image data"}]}
        else:
            try:
                image = base64.b64decode(match.group(2), validate=True)
            except ValueError:
                errors["image"] = {"_errors": [{"code": "IMAGE_INVALID", "message": "Invalid image data"}]}
            if len(image) > MAX_IMAGE_BYTES:
                errors["image"] = {"_errors": [{"code": "BINARY_TYPE_MAX_SIZE",
                                                "message": f"File cannot be larger than {MAX_IMAGE_BYTES} bytes."}]}
        if errors:
            raise invalid_form(errors)
        if len(self.emojis) >= MAX_EMOJIS:
            raise ApiError(400, 30008, f"Maximum number of emojis reached ({MAX_EMOJIS})")
        assert match is not None  # no match is an error above
        emoji = AppEmoji(self.world.ids.next(), body["name"], image, animated=match.group(1) == "gif")
        self.emojis[emoji.id] = emoji
        return json_response(emoji.payload(self.world), status=201)

    async def edit_emoji(self, request: web.Request) -> web.Response:
        emoji = self._emoji(request)
        body, _ = await read_body(request)
        errors: dict[str, Any] = {}
        name = (body or {}).get("name", emoji.name)
        self._check_name(name, errors, own_id=emoji.id)
        if errors:
            raise invalid_form(errors)
        emoji.name = name
        return json_response(emoji.payload(self.world))

    async def delete_emoji(self, request: web.Request) -> web.Response:
        emoji = self._emoji(request)
        del self.emojis[emoji.id]
        return web.Response(status=204)

