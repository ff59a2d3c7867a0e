"""The two ports of a table: where its log is stored and how it is shown.

Storage implements `TableStore`; the Discord layer implements `Presenter`. Tests use the in-memory
and recording versions in `skatbot.tables.memory`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from .events import Event
from .game import FinishedDeal, TableState

if TYPE_CHECKING:
    from .table import Table


class TableStore(Protocol):
    async def append_log(self, *, table_id: int, seq: int, entry: str) -> None:
        """Store one accepted entry; it must be durable when this returns."""

    async def record_deal(self, *, table_id: int, row: FinishedDeal, table: Table) -> None:
        """Store a finished deal and its score rows once: a second call for the same deal is a no-op."""

    async def set_table_state(self, *, table_id: int, state: TableState) -> None:
        """Keep the table's state (open, playing, finished, abandoned) for queries and restore."""


class Presenter(Protocol):
    async def show(self, table: Table, events: Sequence[Event]) -> None:
        """Render what happened. Called in order, outside the table lock."""
