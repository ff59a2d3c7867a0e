"""Publishing the slash commands once: only when the command set changed since the last publication.

Discord rate-limits command publication, and several bot processes (one per group of shards) start
together; so only the process that runs shard 0 publishes, and only when the hash of the payload it would
send differs from the one stored after the last successful publication.
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands

from skatbot.storage.interfaces import MetaRepository

log = logging.getLogger(__name__)


def runs_shard_zero(shard_ids: tuple[int, ...] | None) -> bool:
    """Shard 0's process publishes (every process runs shard 0 when the shards are left to Discord)."""
    return shard_ids is None or 0 in shard_ids


def meta_key(application_id: int | None, guild_id: int | None) -> str:
    """Per application (another token on the same database is another set of commands) and scope."""
    scope = "global" if guild_id is None else f"guild {guild_id}"
    return f"published_commands:{application_id or 0}:{scope}"


async def command_payload(tree: app_commands.CommandTree[Any], guild_id: int | None) -> list[dict[str, Any]]:
    """What `tree.sync` sends for this scope, translations included (a changed text republishes too)."""
    guild = None if guild_id is None else discord.Object(id=guild_id)
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """Stable across processes and starts: keys sorted, commands in name order."""
    ordered = sorted(payload, key=lambda command: (str(command.get("type")), str(command.get("name"))))
    return hashlib.sha256(json.dumps(ordered, sort_keys=True, default=str).encode()).hexdigest()


async def publish_if_changed(tree: app_commands.CommandTree[Any], meta: MetaRepository,
                             guild_id: int | None = None) -> int | None:
    """Sync the tree (globally, or to `guild_id`) when its payload changed; the number of commands
    published, or None when Discord already has this set. The hash is stored only after Discord took it."""
    digest = payload_hash(await command_payload(tree, guild_id))
    key = meta_key(tree.client.application_id, guild_id)
    if await meta.get(key=key) == digest:
        return None
    synced = await tree.sync(guild=None if guild_id is None else discord.Object(id=guild_id))
    await meta.put(key=key, value=digest, now=datetime.now(UTC))
    return len(synced)
