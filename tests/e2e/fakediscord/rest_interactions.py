"""Interaction callbacks and the interaction webhook (follow-ups, @original), with Discord's rules:

- the initial response must arrive within `ack_timeout` seconds (3 on Discord), else 10062;
- only one initial response (a second gets 40060);
- the callback type must fit the interaction (autocomplete only answers with choices, ...);
- follow-ups need an acknowledged interaction, and the token lives 15 minutes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .http_util import (
    ApiError,
    UploadedFile,
    bool_param,
    build_attachments,
    check_edit,
    invalid_form,
    json_response,
    new_version,
    read_body,
    snowflake,
    unknown,
)
from .records import Interaction, Violation
from .state import EPHEMERAL, LOADING, Message, MessageVersion
from .validation import check_choices, is_empty_message
from .world import World

API = "/api/v10"
#: Which initial responses each interaction kind accepts (2 command, 3 component, 4 autocomplete, 5 modal).
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


class InteractionRoutes:
    def __init__(self, world: World, base_url: Callable[[], str], ack_timeout: float,
                 token_ttl: float) -> None:
        self.world = world
        self.base_url = base_url
        self.ack_timeout = ack_timeout
        self.token_ttl = token_ttl

    def register(self, app: web.Application) -> None:
        r = app.router
        r.add_post(f"{API}/interactions/{{interaction_id}}/{{token}}/callback", self.callback)
        r.add_post(f"{API}/webhooks/{{app_id}}/{{token}}", self.followup)
        r.add_get(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}", self.get_message)
        r.add_patch(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}", self.edit_message)
        r.add_delete(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}", self.delete_message)

    def _violate(self, kind: str, detail: str, ix: Interaction) -> None:
        self.world.violations.append(Violation(kind, detail, ix.id))
        self.world.changed()

    # -- the initial response ------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        payload, files = await read_body(request)
        ix = self.world.interactions.get(snowflake(request.match_info["interaction_id"]))
        if ix is None or ix.token != request.match_info["token"]:
            raise unknown("Interaction")
        elapsed = asyncio.get_running_loop().time() - ix.created_at
        if ix.acknowledged:
            self._violate("double_ack", f"second initial response (type {(payload or {}).get('type')})", ix)
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if elapsed > self.ack_timeout:
            self._violate("late_callback", f"initial response after {elapsed:.2f}s", ix)
            raise unknown("Interaction")
        payload = payload or {}
        kind = int(payload.get("type", 0))
        data: dict[str, Any] = payload.get("data") or {}
        needs_message = kind in (6, 7) and ix.source_message_id is None
        if kind not in ALLOWED_CALLBACKS.get(ix.kind, set()) or needs_message:
            raise invalid_form({"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                                      "message": f"Callback type {kind} is invalid here"}]}})
        message = self._apply(ix, kind, data, files)
        ix.callback_type = kind
        ix.callback_data = data
        ix.acked_at = elapsed
        self.world.changed()
        if not bool_param(request, "with_response"):
            return web.Response(status=204)
        info: dict[str, Any] = {"id": str(ix.id), "type": ix.kind}
        body: dict[str, Any] = {"interaction": info}
        if message is not None:
            info.update(response_message_id=str(message.id), response_message_loading=message.loading,
                        response_message_ephemeral=message.ephemeral)
            if kind in (4, 7):
                body["resource"] = {"type": kind, "message": self.world.message_payload(message)}
        return json_response(body)

    def _apply(self, ix: Interaction, kind: int, data: dict[str, Any], files: list[UploadedFile]) -> Message | None:
        """Carry out one callback type; returns the message it created or edited."""
        if kind == 4:
            version = new_version(self.world, self.base_url(), data, files)
            msg = self._post(ix, version)
            ix.original_id = msg.id
            ix.ephemeral = msg.ephemeral
            return msg
        if kind == 5:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            msg = self._post(ix, MessageVersion("", [], [], [], flags))
            ix.original_id = msg.id
            ix.ephemeral = msg.ephemeral
            return msg
        if kind in (6, 7):
            source = self.world.messages[ix.source_message_id or 0]
            if source.deleted:
                raise unknown("Message")
            ix.versions_at_ack = len(source.history)
            if kind == 7:
                check_edit(data, source, self.world)
                new_files = build_attachments(self.world, self.base_url(), data, files)
                self.world.edit_message(source, data, new_files)
            return source
        if kind == 8:
            tree = check_choices(list(data.get("choices") or []))
            if tree:
                raise invalid_form(tree)
            return None
        title, custom_id = data.get("title") or "", data.get("custom_id") or ""
        rows = len(data.get("components") or [])
        if not 1 <= len(title) <= 45 or not 1 <= len(custom_id) <= 100 or not 1 <= rows <= 5:
            error = {"code": "MODAL_INVALID", "message": "Modal needs a title, custom_id and 1-5 components"}
            raise invalid_form({"data": {"_errors": [error]}})
        return None

    def _post(self, ix: Interaction, version: MessageVersion) -> Message:
        type_ = 20 if ix.kind == 2 else 0
        return self.world.post_message(ix.channel, version, type_=type_, viewer=ix.user, interaction=ix)

    # -- the webhook: follow-ups and @original --------------------------------------------------

    def _by_token(self, request: web.Request) -> Interaction:
        if snowflake(request.match_info["app_id"]) != self.world.application_id:
            raise unknown("Webhook")
        token = request.match_info["token"]
        ix = self.world.interactions_by_token.get(token)
        if ix is None or not ix.acknowledged:
            raise unknown("Webhook")
        if asyncio.get_running_loop().time() - ix.created_at > self.token_ttl:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return ix

    def _target(self, ix: Interaction, raw_id: str) -> Message:
        if raw_id == "@original":
            msg = ix.original
        else:
            wanted = snowflake(raw_id)
            ids = set(ix.followup_ids) | {i for i in (ix.original_id, ix.source_message_id) if i is not None}
            msg = self.world.messages.get(wanted) if wanted in ids else None
            if msg is not None and msg.ephemeral and msg.id == ix.source_message_id and msg.id != ix.original_id \
                    and ix.callback_type not in (6, 7):
                # an ephemeral message is edited only with the token of the interaction that made it (or one
                # whose response was an update of it): a click answered otherwise cannot reach it by its id
                msg = None
        if msg is None or msg.deleted:
            raise unknown("Message")
        return msg

    async def followup(self, request: web.Request) -> web.Response:
        payload, files = await read_body(request)
        payload = payload or {}
        ix = self._by_token(request)
        original = ix.original if ix.callback_type == 5 else None
        if original is not None and original.loading:
            # Discord turns the first follow-up after a "thinking" defer into the original response.
            check_edit(payload, original, self.world)
            if is_empty_message(payload, len(files)):
                raise ApiError(400, 50006, "Cannot send an empty message")
            self._edit(original, payload, files)
            return json_response(self.world.message_payload(original))
        msg = self._post(ix, new_version(self.world, self.base_url(), payload, files))
        ix.followup_ids.append(msg.id)
        self.world.changed()
        return json_response(self.world.message_payload(msg))

    async def get_message(self, request: web.Request) -> web.Response:
        ix = self._by_token(request)
        return json_response(self.world.message_payload(self._target(ix, request.match_info["message_id"])))

    async def edit_message(self, request: web.Request) -> web.Response:
        payload, files = await read_body(request)
        ix = self._by_token(request)
        msg = self._target(ix, request.match_info["message_id"])
        payload = payload or {}
        check_edit(payload, msg, self.world)
        self._edit(msg, payload, files)
        return json_response(self.world.message_payload(msg))

    def _edit(self, msg: Message, payload: dict[str, Any], files: list[UploadedFile]) -> None:
        self.world.edit_message(msg, payload, build_attachments(self.world, self.base_url(), payload, files),
                                clear_flags=LOADING)

    async def delete_message(self, request: web.Request) -> web.Response:
        ix = self._by_token(request)
        msg = self._target(ix, request.match_info["message_id"])
        msg.deleted = True
        self.world.changed()
        return web.Response(status=204)
