"""INTERACTION_CREATE payloads as Discord builds them: slash commands (with subcommands), autocomplete,
button clicks, select menus and modal submits.

Option values are checked against the command definitions the bot synced, the way the Discord client
would refuse a bad invocation; a wrong test call raises ValueError/LookupError instead of sending junk.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .state import Channel, Message, Role, User
from .world import World

# Option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 6, 7, 8, 9, 10
SELECT_TYPES = (3, 5, 6, 7, 8)


def base_payload(world: World, ix_id: int, token: str, kind: int, user: User, channel: Channel,
                 data: dict[str, Any]) -> dict[str, Any]:
    """The fields every interaction carries; guild interactions get `member`, DM ones get `user`."""
    payload: dict[str, Any] = {
        "id": str(ix_id), "application_id": str(world.application_id), "type": kind, "token": token,
        "version": 1,
        "data": data, "channel_id": str(channel.id), "channel": world.channel_payload(channel),
        "app_permissions": str(world.bot_permissions(channel)), "locale": user.locale, "entitlements": [],
        "attachment_size_limit": 26214400,
    }
    if channel.guild_id is not None:
        guild = world.guilds[channel.guild_id]
        payload.update(
            guild_id=str(guild.id), guild_locale=guild.locale, context=0,
            guild={"id": str(guild.id), "locale": guild.locale, "features": []},
            member=world.member_payload(guild, user, with_permissions=True),
            authorizing_integration_owners={"0": str(guild.id)},
        )
    else:
        payload.update(user=user.payload(), context=1, authorizing_integration_owners={"0": str(user.id)})
    return payload


def command_data(world: World, channel: Channel, name: str, *, group: str | None, subcommand: str | None,
                 options: Mapping[str, Any], focused: str | None) -> dict[str, Any]:
    """The `data` of a type 2 (with `focused`: type 4) interaction for /name [group] [subcommand] options."""
    scope, command = world.find_command(channel.guild_id, name)
    if command is None:
        known = sorted(set(world.commands.get(None, {})) | set(world.commands.get(channel.guild_id, {})))
        raise LookupError(f"/{name} is not registered (known: {known}); did the bot sync its command tree?")
    schema: list[dict[str, Any]] = command.get("options") or []
    path: list[tuple[int, str]] = []
    if group is not None:
        schema = _child(schema, group, SUB_COMMAND_GROUP, name).get("options") or []
        path.append((SUB_COMMAND_GROUP, group))
    if subcommand is not None:
        schema = _child(schema, subcommand, SUB_COMMAND, name).get("options") or []
        path.append((SUB_COMMAND, subcommand))
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        raise ValueError(f"/{name} needs a subcommand: {[o['name'] for o in schema]}")
    resolved: dict[str, dict[str, Any]] = {}
    leaf = [_option(world, channel, spec, options, focused, resolved)
            for spec in schema if spec["name"] in options]
    unknown = set(options) - {spec["name"] for spec in schema}
    if unknown:
        raise ValueError(f"/{name} has no option(s) {sorted(unknown)}; it has {[s['name'] for s in schema]}")
    missing = [s["name"] for s in schema if s.get("required") and s["name"] not in options]
    if missing and focused is None:
        raise ValueError(f"/{name} is missing required option(s) {missing}")
    nested: list[dict[str, Any]] = leaf
    for kind, part in reversed(path):
        nested = [{"type": kind, "name": part, "options": nested}]
    data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1, "options": nested}
    if scope is not None:
        data["guild_id"] = str(scope)
    if resolved:
        data["resolved"] = resolved
    return data


def _child(schema: list[dict[str, Any]], name: str, kind: int, command: str) -> dict[str, Any]:
    for option in schema:
        if option["name"] == name and option.get("type") == kind:
            return option
    raise LookupError(f"/{command} has no {'group' if kind == 2 else 'subcommand'} {name!r}; "
                      f"it has {[o['name'] for o in schema]}")


def _option(world: World, channel: Channel, spec: dict[str, Any], options: Mapping[str, Any],
            focused: str | None, resolved: dict[str, dict[str, Any]]) -> dict[str, Any]:
    name, kind, raw = spec["name"], spec["type"], options[spec["name"]]
    if name == focused:
        if not spec.get("autocomplete"):
            raise ValueError(f"option {name!r} has no autocomplete")
        return {"name": name, "type": kind, "value": str(raw), "focused": True}
    value: Any
    if kind == STRING:
        value = str(raw)
        _bounds(name, len(value), spec.get("min_length"), spec.get("max_length"), "length")
    elif kind == INTEGER:
        value = int(raw)
        _bounds(name, value, spec.get("min_value"), spec.get("max_value"), "value")
    elif kind == NUMBER:
        value = float(raw)
        _bounds(name, value, spec.get("min_value"), spec.get("max_value"), "value")
    elif kind == BOOLEAN:
        value = bool(raw)
    elif (kind in (USER, MENTIONABLE) and isinstance(raw, User)) \
            or (kind == CHANNEL and isinstance(raw, Channel)) \
            or (kind in (ROLE, MENTIONABLE) and isinstance(raw, Role)):
        value = str(raw.id)
        for key, entries in resolve_entities(world, channel, [raw]).items():
            resolved.setdefault(key, {}).update(entries)
    else:
        raise ValueError(f"option {name!r} of type {kind} cannot take {raw!r}")
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}, not {value!r}")
    return {"name": name, "type": kind, "value": value}


def resolve_entities(world: World, channel: Channel, values: list[Any]) -> dict[str, dict[str, Any]]:
    """The `resolved` block for users, roles and channels picked in an entity select."""
    resolved: dict[str, dict[str, Any]] = {}
    for value in values:
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if channel.guild_id is not None:
                member = world.member_payload(world.guilds[channel.guild_id], value, with_permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
        elif isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif isinstance(value, Channel):
            info = world.channel_payload(value)
            info["permissions"] = str(world.bot_permissions(value))
            resolved.setdefault("channels", {})[str(value.id)] = info
    return resolved


def _bounds(name: str, value: float, low: float | None, high: float | None, what: str) -> None:
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"option {name!r} {what} {value} outside [{low}, {high}]")


def component_data(message: Message, user: User, custom_id: str, values: list[str] | None) -> dict[str, Any]:
    """The `data` of a type 3 interaction, refusing what a real client could not click."""
    if not message.is_visible_to(user):
        raise ValueError(f"{user.name} cannot see message {message.id}")
    comp = message.component(custom_id)
    if comp is None:
        ids = [c.get("custom_id") for c in message.walk_components() if c.get("custom_id")]
        raise LookupError(f"message {message.id} has no component {custom_id!r} (has {ids})")
    if comp.get("disabled"):
        raise ValueError(f"component {custom_id!r} is disabled")
    kind = comp["type"]
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if "id" in comp:
        data["id"] = comp["id"]
    if values is None:
        if kind != 2:
            raise ValueError(f"component {custom_id!r} is a select; use select() with values")
        return data
    if kind not in SELECT_TYPES:
        raise ValueError(f"component {custom_id!r} is not a select menu")
    low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
    if not low <= len(values) <= high:
        raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
    if kind == 3:
        allowed = [o["value"] for o in comp.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise ValueError(f"select {custom_id!r} has no option(s) {bad}; options are {allowed}")
    data["values"] = list(values)
    return data


def modal_data(modal: dict[str, Any], values: Mapping[str, str]) -> dict[str, Any]:
    """The `data` of a type 5 submit: the modal's layout with each text input's value filled in."""
    missing = set(values)

    def fill(comp: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"type": comp["type"]}
        if "id" in comp:
            out["id"] = comp["id"]
        if comp["type"] == 4:
            custom_id = comp["custom_id"]
            missing.discard(custom_id)
            value = values.get(custom_id, comp.get("value") or "")
            if comp.get("required", True) and not value:
                raise ValueError(f"text input {custom_id!r} is required")
            out.update(custom_id=custom_id, value=value)
        if "components" in comp:
            out["components"] = [fill(c) for c in comp["components"]]
        if "component" in comp:
            out["component"] = fill(comp["component"])
        return out

    components = [fill(c) for c in modal.get("components", [])]
    if missing:
        raise LookupError(f"modal {modal.get('custom_id')!r} has no input(s) {sorted(missing)}")
    return {"custom_id": modal["custom_id"], "components": components}
