"""Per-server settings and players."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from skatbot.models import Lang, Player, ServerSettings, check_id, to_seconds

from ..errors import NotFound
from .connection import SqlDatabase, Statement, in_list


class SqlSettings:
    """Server settings. A server nobody configured has the default settings (that is not 'not found')."""

    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def get(self, *, server_id: int) -> ServerSettings:
        rows = await self._db.fetch_all(
            "SELECT server_id, rule_preset, rules_json, turn_seconds, warning_seconds, deck_style, language, "
            "channel_policy, allowed_channels, pictures, organiser_role FROM servers WHERE server_id = :server_id",
            {"server_id": check_id("server_id", server_id)})
        if not rows:
            return ServerSettings(server_id)
        row = rows[0]
        return ServerSettings(
            server_id=row["server_id"], rule_preset=row["rule_preset"], rules=json.loads(row["rules_json"]),
            turn_seconds=row["turn_seconds"], warning_seconds=row["warning_seconds"],
            deck_style=row["deck_style"], language=row["language"], channel_policy=row["channel_policy"],
            allowed_channels=tuple(json.loads(row["allowed_channels"])), pictures=bool(row["pictures"]),
            organiser_role=None if row["organiser_role"] is None else int(row["organiser_role"]))

    async def save(self, *, settings: ServerSettings, now: datetime) -> None:
        params = {
            "server_id": settings.server_id, "rule_preset": settings.rule_preset,
            "rules_json": json.dumps(settings.rules, sort_keys=True), "turn_seconds": settings.turn_seconds,
            "warning_seconds": settings.warning_seconds, "deck_style": settings.deck_style,
            "language": settings.language, "channel_policy": settings.channel_policy,
            "allowed_channels": json.dumps(list(settings.allowed_channels)), "pictures": int(settings.pictures),
            "organiser_role": settings.organiser_role, "now": to_seconds(now)}
        async with self._db.transaction() as connection:
            await connection.execute(
                "INSERT INTO servers (server_id, rule_preset, rules_json, turn_seconds, warning_seconds, "
                "deck_style, language, channel_policy, allowed_channels, pictures, organiser_role, updated_at) VALUES "
                "(:server_id, :rule_preset, :rules_json, :turn_seconds, :warning_seconds, :deck_style, :language, "
                ":channel_policy, :allowed_channels, :pictures, :organiser_role, :now) ON CONFLICT (server_id) DO UPDATE SET "
                "rule_preset = excluded.rule_preset, rules_json = excluded.rules_json, "
                "turn_seconds = excluded.turn_seconds, warning_seconds = excluded.warning_seconds, "
                "deck_style = excluded.deck_style, language = excluded.language, "
                "channel_policy = excluded.channel_policy, allowed_channels = excluded.allowed_channels, "
                "pictures = excluded.pictures, organiser_role = excluded.organiser_role, "
                "updated_at = excluded.updated_at", params)


class SqlPlayers:
    """Players as last seen: the display name follows the latest sighting."""

    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def save(self, *, player: Player, now: datetime) -> None:
        await self._db.write([player_statement(player, now)])

    async def get(self, *, player_id: int) -> Player:
        rows = await self._db.fetch_all(
            "SELECT player_id, display_name, is_ai FROM players WHERE player_id = :player_id",
            {"player_id": check_id("player_id", player_id)})
        if not rows:
            raise NotFound(f"no player {player_id}")
        return Player(rows[0]["player_id"], rows[0]["display_name"], bool(rows[0]["is_ai"]))

    async def set_language(self, *, player: Player, language: Lang, now: datetime) -> None:
        """The language the player's Discord client speaks (their direct messages are in it), with the player
        as last seen."""
        if not language or len(language) > 16:
            raise ValueError("a language is a short code such as 'en' or 'de'")
        statement = player_statement(player, now)
        await self._db.write([statement, Statement(
            "UPDATE players SET dm_language = :language WHERE player_id = :player_id",
            {"language": language, "player_id": player.player_id})])

    async def languages(self, *, player_ids: Sequence[int]) -> dict[int, Lang]:
        """The known languages of these players (those never seen with one are left out)."""
        wanted = sorted({check_id("player_id", player_id) for player_id in player_ids})
        if not wanted:
            return {}
        marks, params = in_list("p", wanted)
        rows = await self._db.fetch_all(
            f"SELECT player_id, dm_language FROM players WHERE dm_language IS NOT NULL AND player_id IN ({marks})",
            params)
        return {row["player_id"]: row["dm_language"] for row in rows}


def player_statement(player: Player, now: datetime) -> Statement:
    """Save a player as last seen (the display name follows the latest sighting), as a write's statement;
    ValueError for an id or name that cannot be stored."""
    check_id("player_id", player.player_id)
    if not player.display_name.strip():
        raise ValueError("a player needs a display name")
    return Statement(
        "INSERT INTO players (player_id, display_name, is_ai, updated_at) VALUES (:player_id, :name, "
        ":is_ai, :now) ON CONFLICT (player_id) DO UPDATE SET display_name = excluded.display_name, "
        "is_ai = excluded.is_ai, updated_at = excluded.updated_at",
        {"player_id": player.player_id, "name": player.display_name, "is_ai": int(player.is_ai),
         "now": to_seconds(now)})
