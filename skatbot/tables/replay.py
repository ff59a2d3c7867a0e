"""The one replayer of a table log: its stored text entries, applied in order through `TableGame`.

Restore after a restart, another process picking up a table, and the storage check all rebuild a table
here, so a stored log means exactly one thing wherever it is read (pure: no I/O, no clock).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skatbot.engine import RuleSet

from .errors import TableError
from .game import TableGame
from .log import Entry, parse_entry


class ReplayError(ValueError):
    """A stored entry does not parse or the table refuses it; `seq` is its sequence number in the log."""

    def __init__(self, seq: int, text: str, reason: str) -> None:
        super().__init__(f"log entry {seq} ({text!r}): {reason}")
        self.seq = seq


@dataclass(frozen=True, slots=True)
class Replayed:
    game: TableGame
    entries: tuple[Entry, ...]


def replay_log(*, size: int, deals: int, rules: RuleSet, creator_id: int, entries: Iterable[str]) -> Replayed:
    """The table as its log leaves it: every entry parsed and applied, in order from sequence number 0."""
    game = TableGame(size=size, deals=deals, rules=rules, creator_id=creator_id)
    applied: list[Entry] = []
    for seq, text in enumerate(entries):
        try:
            entry = parse_entry(text)
            game.apply(entry)
        except (TableError, ValueError) as error:  # malformed text, or a step the table or engine refuses
            raise ReplayError(seq, text, str(error)) from None
        applied.append(entry)
    return Replayed(game, tuple(applied))
