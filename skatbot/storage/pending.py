"""Moves a player was shown as pending, kept until they hear how it ended, across a crash too.

When a move cannot be stored at once, the player sees Discord's "thinking…" while the bot waits for the
database. If the bot dies then, the move is either in the table's log or lost; after the restart the
player must hear which. A marker per pending move says who asked what, at which table, and how to reach
them (the interaction's token while it lives, 15 minutes; their DMs after).

The markers are small files in a folder beside the database file, not rows in it: a move is pending
exactly when the database is slow or locked (SQLite has one writer, and a second connection would wait
behind the same lock), so the marker must not wait for the database. A file is written in a thread, off
the event loop, only for moves that turned slow, and removed once the player was answered: the
interaction token it holds is a secret and is kept no longer than that (the folder and files are private
to the bot's user).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from skatbot.models import Lang

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PendingMove:
    """One move, lobby click or new table shown as pending. `entry` is the table log entry that means it was recorded
    ("" when it could not be told), looked for from log position `since` on; with `prefix`, any entry that
    begins with its words counts (a start's first dealer and a joiner's name are settled as it is stored)."""

    interaction_id: int
    application_id: int
    token: str
    token_expires: float  # Unix time after which the token no longer answers
    user_id: int
    table_id: int
    since: int
    entry: str
    lang: Lang
    prefix: bool = False  # markers written before lobby clicks had them lack it: exact entries
    opens_in: int = 0
    """A /skat new: the channel it was used in (`table_id` is 0 and `since` the Unix second it began, by the
    store's clock); recorded when a table this user opened from there since then is stored."""

    def means(self, line: str) -> bool:
        """Whether this stored log entry is the click's."""
        if not self.entry:
            return False
        return line == self.entry or self.prefix and line.startswith(self.entry + " ")


class PendingMoves:
    """The markers of moves shown as pending: one JSON file per interaction in `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @classmethod
    def beside(cls, database: Path, shard_ids: Sequence[int] | None = None) -> PendingMoves:
        """The folder next to the database file (`skatbot.sqlite3` -> `skatbot.sqlite3.pending`). Processes
        that share a database (PostgreSQL) and a folder each run their own shards: a process settles only
        the markers of its shards (`...pending-0-1`), never those of another process still storing them."""
        suffix = "" if shard_ids is None else "-" + "-".join(str(shard) for shard in sorted(shard_ids))
        return cls(database.with_name(f"{database.name}.pending{suffix}"))

    def _path(self, interaction_id: int) -> Path:
        return self.folder / f"{int(interaction_id)}.json"

    async def put(self, move: PendingMove) -> None:
        """Keep the marker (written whole: a crash while writing leaves no half marker)."""
        await asyncio.to_thread(self._write, move)

    def _write(self, move: PendingMove) -> None:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        final = self._path(move.interaction_id)
        partial = final.with_suffix(".part")
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(asdict(move), file)
        os.replace(partial, final)

    async def drop(self, interaction_id: int) -> None:
        """The player heard how the move ended: forget it (and its token)."""
        await asyncio.to_thread(self._path(interaction_id).unlink, missing_ok=True)

    async def all(self) -> list[PendingMove]:
        """Every marker left, oldest interaction first; unreadable ones are removed."""
        return await asyncio.to_thread(self._read_all)

    def _read_all(self) -> list[PendingMove]:
        if not self.folder.is_dir():
            return []
        found: list[PendingMove] = []
        for path in sorted(self.folder.iterdir()):
            if path.suffix == ".part":
                path.unlink(missing_ok=True)
                continue
            if path.suffix != ".json":
                continue
            try:
                found.append(PendingMove(**json.loads(path.read_text(encoding="utf-8"))))
            except (OSError, ValueError, TypeError) as error:
                log.warning("pending move marker %s is unreadable (%s); removed", path.name, error)
                path.unlink(missing_ok=True)
        return sorted(found, key=lambda move: move.interaction_id)
