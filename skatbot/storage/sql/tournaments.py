"""Tournaments and their append-only log (`skatbot.tournaments` reads the entries; storage never does).

The log is written under its own sequence numbers: two processes appending the same number is a
`LogConflict` for the second, which reads the log again, as a table's writers do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from skatbot.models import check_id, from_seconds, to_seconds

from ..errors import LogConflict, NotFound
from .connection import INTEGRITY_ERRORS, SqlDatabase, Statement

STATES = ("signup", "playing", "finished", "stopped")
RUNNING = ("signup", "playing")
_COLUMNS = ("tournament_id, server_id, channel_id, organiser_id, name, settings_json, state, start_at, "
            "created_at, updated_at")


@dataclass(frozen=True, slots=True)
class StoredTournament:
    tournament_id: int
    server_id: int
    channel_id: int
    organiser_id: int
    name: str
    settings_json: str
    state: str
    start_at: datetime | None
    created_at: datetime
    log: tuple[str, ...] = ()


def _tournament(row: Any, log: Sequence[Any] = ()) -> StoredTournament:
    return StoredTournament(
        int(row["tournament_id"]), int(row["server_id"]), int(row["channel_id"]), int(row["organiser_id"]),
        str(row["name"]), str(row["settings_json"]), str(row["state"]),
        None if row["start_at"] is None else from_seconds(int(row["start_at"])), from_seconds(int(row["created_at"])),
        tuple(str(r["entry"]) for r in log))


class SqlTournaments:
    def __init__(self, database: SqlDatabase) -> None:
        self._db = database

    async def create(self, *, server_id: int, channel_id: int, organiser_id: int, name: str, settings_json: str,
                     now: datetime, start_at: datetime | None = None, entries: Sequence[str] = ()) -> int:
        """A tournament in sign-up, with its first log `entries`, in one transaction."""
        check_id("server_id", server_id)
        check_id("channel_id", channel_id)
        check_id("organiser_id", organiser_id)
        stamp = to_seconds(now)
        created: list[int] = []

        def returned(rows: list[Any], _: int) -> None:
            created.append(int(rows[0][0]))

        await self._db.write([
            Statement("INSERT INTO tournaments (server_id, channel_id, organiser_id, name, settings_json, state, "
                      "start_at, created_at, updated_at) VALUES (:server, :channel, :organiser, :name, :settings, "
                      "'signup', :start, :now, :now) RETURNING tournament_id",
                      {"server": server_id, "channel": channel_id, "organiser": organiser_id, "name": name[:100],
                       "settings": settings_json, "start": None if start_at is None else to_seconds(start_at),
                       "now": stamp}, check=returned),
            Statement("INSERT INTO tournament_log (tournament_id, seq, entry, at) VALUES (?, ?, ?, ?)",
                      many=lambda: [(created[0], seq, entry, stamp) for seq, entry in enumerate(entries)])])
        return created[0]

    async def get(self, *, tournament_id: int) -> StoredTournament:
        """The tournament with its whole log (one snapshot)."""
        rows, log = await self._db.read([
            Statement(f"SELECT {_COLUMNS} FROM tournaments WHERE tournament_id = :t", {"t": tournament_id}),
            Statement("SELECT entry FROM tournament_log WHERE tournament_id = :t ORDER BY seq", {"t": tournament_id})])
        if not rows:
            raise NotFound(f"tournament {tournament_id} does not exist")
        return _tournament(rows[0], log)

    async def append(self, *, tournament_id: int, seq: int, entries: Sequence[str], now: datetime,
                     state: str | None = None) -> None:
        """Append `entries` from `seq` on (and set the state, if given) in one transaction; LogConflict when
        another writer stored one of those numbers first, or `seq` is past the log's end (a writer whose view
        of the log is wrong: a gap would let two steps that exclude each other, a draw and a late sign-up, both
        be stored); nothing is written then."""
        if state is not None and state not in STATES:
            raise ValueError(f"a tournament's state is one of {STATES}")
        stamp = to_seconds(now)

        def follows_on(rows: list[Any], _: int) -> None:  # checked inside the write: nothing stored on a gap
            expected = 0 if rows[0][0] is None else int(rows[0][0]) + 1
            if seq > expected:
                raise LogConflict(f"tournament {tournament_id}: the next log entry is {expected}, not {seq}")

        statements = [Statement("SELECT MAX(seq) FROM tournament_log WHERE tournament_id = :t", {"t": tournament_id},
                                check=follows_on),
                      Statement("INSERT INTO tournament_log (tournament_id, seq, entry, at) VALUES (?, ?, ?, ?)",
                                many=[(tournament_id, seq + i, entry, stamp) for i, entry in enumerate(entries)])]
        if state is not None:
            statements.append(Statement(
                "UPDATE tournaments SET state = :state, updated_at = :now WHERE tournament_id = :t",
                {"state": state, "now": stamp, "t": tournament_id}))
        try:
            await self._db.write(statements)
        except INTEGRITY_ERRORS as error:
            raise LogConflict(f"tournament {tournament_id}: log entry {seq} is stored already ({error})") from None

    async def running(self) -> list[int]:
        """Tournaments in sign-up or under way (a restart takes them up)."""
        rows = await self._db.fetch_all(
            "SELECT tournament_id FROM tournaments WHERE state IN ('signup', 'playing') ORDER BY tournament_id")
        return [int(r["tournament_id"]) for r in rows]

    async def under_way(self) -> list[int]:
        """Tournaments whose tables play (drawn, not ended; one whose final list is still owed too): where a
        player may be seated at a tournament table, so not at another (`Organiser.may_sit`)."""
        rows = await self._db.fetch_all(
            "SELECT tournament_id FROM tournaments WHERE state = 'playing' ORDER BY tournament_id")
        return [int(r["tournament_id"]) for r in rows]

    async def in_channel(self, *, channel_id: int) -> list[int]:
        """The channel's tournaments, newest first."""
        rows = await self._db.fetch_all(
            "SELECT tournament_id FROM tournaments WHERE channel_id = :c ORDER BY tournament_id DESC", {"c": channel_id})
        return [int(r["tournament_id"]) for r in rows]

    async def in_server(self, *, server_id: int, limit: int = 50) -> list[StoredTournament]:
        """The server's tournaments with their logs, newest first (the server's history, a player's stats)."""
        rows = await self._db.fetch_all(
            f"SELECT {_COLUMNS} FROM tournaments WHERE server_id = :s ORDER BY tournament_id DESC LIMIT :n",
            {"s": server_id, "n": limit})
        return [await self.get(tournament_id=int(r["tournament_id"])) for r in rows]
