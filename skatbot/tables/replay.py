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
from .view import TableView


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


Position = tuple[int, int]
"""Where a table's channel stands in what its log owes: (seq, part). The entry at sequence number `seq` owes its
result card first (part 0), then the final ranking or the closing notice (part 1), then (an ended table's last
entry) the table's end, its messages closed (part 2). Positions are ordered as tuples; "shown up to" a position
means everything before it is shown, and once an ended table's end is shown it is (len(log), 0)."""


@dataclass(frozen=True, slots=True)
class Owed:
    """One thing the log says must be shown once: `event`, made by the entry at sequence number `seq`."""

    seq: int
    event: OwedEvent

    @property
    def at(self) -> Position:
        """Its position: shown exactly once, when the table's "shown up to" passes it."""
        return self.seq, 0 if isinstance(self.event, DealFinished) else 1


def owed_by_view(view: TableView) -> list[Owed]:
    """What a table's view owes its channel over its whole log, in the order of the log: each finished deal's
    result card (at the entry that finished it), then the ranking or the closing notice once it ended (at its
    last entry: the one that finished the series, or the `Close`)."""
    owed = [Owed(row.seq, DealFinished(row)) for row in view.finished]
    if view.state is TableState.FINISHED:
        owed.append(Owed(view.seq - 1, SeriesFinished(view.seq - 1)))
    elif view.state is TableState.ABANDONED:
        owed.append(Owed(view.seq - 1, TableClosed(view.close_reason or "", view.seq - 1)))
    return owed


def end_of(view: TableView) -> Position | None:
    """The position of an ended table's end (its messages closed, after its ranking or closing notice: part 2 of
    its last entry), None while it plays. Once the end is shown the position is past the log: (len(log), 0)."""
    return (view.seq - 1, 2) if view.state in (TableState.FINISHED, TableState.ABANDONED) else None


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
            owed.append(Owed(seq, TableClosed(entry.reason, seq)))
        elif game.state is TableState.FINISHED and finished is not None:
            owed.append(Owed(seq, SeriesFinished(seq)))
    return owed
