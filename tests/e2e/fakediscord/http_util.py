"""Request parsing and Discord-shaped errors shared by the REST handlers."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from .emoji_check import check_component_emojis
from .state import Attachment, Message, MessageVersion, number_components
from .validation import check_message, form_error, is_empty_message
from .world import World

UploadedFile = tuple[int, str, bytes, str]  # (index, filename, data, content type)
_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")
#: Where handlers leave the parsed body and file list for the REST log.
BODY = web.RequestKey("body", object)
FILES = web.RequestKey("files", list)
_READ = web.RequestKey("read", tuple)


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with Content-Type exactly `application/json`: discord.py compares the header verbatim."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


class ApiError(Exception):
    """Raised by a handler; becomes Discord's JSON error body with the given status and code."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def response(self) -> web.Response:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            body["errors"] = self.errors
        return json_response(body, status=self.status)


def invalid_form(tree: dict[str, Any]) -> ApiError:
    body = form_error(tree)
    return ApiError(400, body["code"], body["message"], body["errors"])


def unknown(kind: str) -> ApiError:
    """Discord's 404s: Unknown Channel 10003, Unknown Guild 10004, Unknown Message 10008, ..."""
    codes = {"Channel": 10003, "Guild": 10004, "Member": 10007, "Message": 10008, "Webhook": 10015,
             "User": 10013, "Interaction": 10062, "Application": 10002}
    return ApiError(404, codes[kind], "Unknown interaction" if kind == "Interaction" else f"Unknown {kind}")


async def read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON body, or multipart `payload_json` plus `files[n]`; stored on the request for the log. Read once:
    a fault that picks calls by their body has read it before the handler asks again."""
    if _READ in request:
        cached, uploaded = request[_READ]
        return cached, list(uploaded)
    files: list[UploadedFile] = []
    payload: Any = None
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            assert isinstance(part, BodyPartReader), "a nested multipart body: discord.py never sends one"
            name = part.name or ""
            raw = await part.read()
            match = _FILE_FIELD.match(name)
            if name == "payload_json":
                payload = json.loads(bytes(raw).decode("utf-8"))
            elif match or part.filename:
                index = int(match.group(1)) if match else len(files)
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files.append((index, part.filename or name, bytes(raw), ctype))
    elif request.can_read_body:
        text = await request.text()
        payload = json.loads(text) if text else None
    request[BODY] = payload
    request[FILES] = [(i, name, len(data)) for i, name, data, _ in files]
    request[_READ] = (payload, tuple(files))
    return payload, files


def bool_param(request: web.Request, name: str) -> bool:
    return request.query.get(name, "").lower() in ("1", "true")


def build_attachments(world: World, base_url: str, payload: dict[str, Any],
                      files: list[UploadedFile]) -> list[Attachment]:
    """Turn uploaded files into stored attachments, with descriptions/filenames from payload.attachments."""
    meta = {str(a.get("id")): a for a in payload.get("attachments") or []}
    out: list[Attachment] = []
    for index, filename, data, ctype in files:
        info = meta.get(str(index), {})
        att_id = world.ids.next()
        name = info.get("filename") or filename
        out.append(Attachment(att_id, name, data, ctype, f"{base_url}/attachments/{att_id}/{name}",
                              info.get("description")))
    return out


def new_version(world: World, base_url: str, payload: dict[str, Any], files: list[UploadedFile],
                *, extra_flags: int = 0) -> MessageVersion:
    """Validate a new message body (50035 / 50006) and build its first version."""
    tree = check_message(payload) or check_component_emojis(world, list(payload.get("components") or []))
    if tree:
        raise invalid_form(tree)
    if is_empty_message(payload, len(files)):
        raise ApiError(400, 50006, "Cannot send an empty message")
    return MessageVersion(
        content=payload.get("content") or "",
        embeds=list(payload.get("embeds") or []),
        components=number_components(list(payload.get("components") or [])),
        attachments=build_attachments(world, base_url, payload, files),
        flags=(int(payload.get("flags") or 0) & ((1 << 6) | (1 << 2) | (1 << 12) | (1 << 15))) | extra_flags,
    )


def check_edit(payload: dict[str, Any], message: Message, world: World | None = None) -> None:
    """Validate an edit; without `flags` in it, the message keeps its own (components v2 or not)."""
    effective = payload if payload.get("flags") is not None else {**payload, "flags": message.flags}
    tree = check_message(effective)
    if not tree and world is not None:
        tree = check_component_emojis(world, list(payload.get("components") or []))
    if tree:
        raise invalid_form(tree)


def snowflake(value: str) -> int:
    try:
        return int(value)
    except ValueError as exc:
        error = {"code": "NUMBER_TYPE_COERCE", "message": f"Value \"{value}\" is not snowflake."}
        raise invalid_form({"id": {"_errors": [error]}}) from exc
