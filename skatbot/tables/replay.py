"""The one replayer of a table log: its stored text entries, applied in order through `TableGame`.

Restore after a restart, another process picking up a table, and the storage check all rebuild a table
here, so a stored log means exactly one thing wherever it is read (pure: no I/O, no clock).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from skatbot.engine import RuleSet
from skatbot.models import TableState

from .errors import TableError
from .events import DealFinished, SeriesFinished, TableClosed
from .game import TableGame
from .log import Close, Entry, parse_entry


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


OwedEvent = DealFinished | SeriesFinished | TableClosed
"""What a table's channel owes once, in the order of the log: a result card, the final ranking, the closing notice."""


@dataclass(frozen=True, slots=True)
class Owed:
    """One thing the log says must be shown once: `event`, made by the entry at sequence number `seq`."""

    seq: int
    event: OwedEvent


def owed_after(*, size: int, deals: int, rules: RuleSet, creator_id: int, entries: Sequence[str], shown_up_to: int,
               until: int | None = None) -> list[Owed]:
    """What the entries from sequence number `shown_up_to` on (to `until`, excluded; None: all) owe the table's
    channel, in the order of the log: each deal they finish, then the series' end or the table's closing.
    The log is replayed from 0 (a deal's result needs the whole table), only the part after N is read for
    what it owes; the presenter stores N once what the entries before it owed is shown."""
    end = len(entries) if until is None else min(until, len(entries))
    game = TableGame(size=size, deals=deals, rules=rules, creator_id=creator_id)
    owed: list[Owed] = []
    for seq, text in enumerate(entries[:end]):
        try:
            entry = parse_entry(text)
            finished = game.apply(entry)
        except (TableError, ValueError) as error:
            raise ReplayError(seq, text, str(error)) from None
        if seq < shown_up_to:
            continue
        if finished is not None:
            owed.append(Owed(seq, DealFinished(finished)))
        if isinstance(entry, Close):
            owed.append(Owed(seq, TableClosed(entry.reason)))
        elif game.state is TableState.FINISHED and finished is not None:
            owed.append(Owed(seq, SeriesFinished()))
    return owed
