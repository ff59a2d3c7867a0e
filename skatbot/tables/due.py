"""A table's due steps as this process holds them: which moment it holds, and the leases it keeps.

Each stored entry carries the steps it makes due (timers, AI turns, the next deal), held by the process that
wrote it until a lease past their time runs out; then another process may claim and fire them. `DueSteps`
is one table's side of that in one process: whether it holds the table's current moment (it wrote it, or
claimed it), and the lease kept alive while an AI decides longer than a lease.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from typing import TypeVar

from skatbot.models import Due, DueKind

from .ports import TableStore

log = logging.getLogger(__name__)

T = TypeVar("T")


class DueSteps:
    """One table's due steps in this process."""

    def __init__(self, store: TableStore, table_id: int) -> None:
        self.store = store
        self.table_id = table_id
        self.held = -1  # the seq whose due steps this process holds: it wrote that entry, or claimed them
        self._holding: set[asyncio.Task[None]] = set()  # leases kept while an AI decides

    def hold(self, seq: int) -> None:
        """This process wrote the entry that ends at `seq`, or claimed its steps: they are its to fire."""
        self.held = seq

    def holds(self, seq: int) -> bool:
        """Whether this process holds the steps of the table's moment `seq`."""
        return self.held == seq

    async def take_over(self, seq: int, due: Sequence[Due]) -> bool:
        """A table resumed: its steps become `due` from now, held here, unless another process holds them."""
        if await self.store.take_over(table_id=self.table_id, seq=seq, due=due):
            self.hold(seq)
            return True
        return False

    async def release(self, seq: int) -> None:
        """A clean shutdown: the steps held at `seq` may be claimed by another process as soon as they are due."""
        if not self.holds(seq):
            return
        try:
            await self.store.release_due(table_id=self.table_id, seq=seq)
        except Exception as error:  # the lease runs out by itself: another process takes over a bit later
            log.warning("table %s: releasing its due steps failed: %r", self.table_id, error)

    async def drop(self, seq: int, kind: DueKind) -> bool:
        """Forget one step (fired, or stale); True if it was still there (so only one process acts on it)."""
        return await self.store.drop_due(table_id=self.table_id, seq=seq, kind=kind)

    async def keeping(self, seq: int, kind: DueKind, work: Awaitable[T]) -> T:
        """Await `work` (an AI deciding for the moment `seq`) while this process keeps its `kind` step there
        held: a strong AI may take longer than the lease, and another process would then claim the step and
        play it too."""
        done = asyncio.Event()
        holding = asyncio.create_task(self._keep(seq, kind, done), name=f"hold-{self.table_id}")
        self._holding.add(holding)
        holding.add_done_callback(self._holding.discard)
        try:
            return await work
        finally:
            done.set()  # the hold ends by itself (not cancelled in the middle of a write)

    async def _keep(self, seq: int, kind: DueKind, done: asyncio.Event) -> None:
        """Extend the step's lease every third of it until the work is done."""
        every = max(self.store.lease / 3, 0.05)
        while True:
            try:
                await asyncio.wait_for(done.wait(), every)
                return
            except TimeoutError:
                pass
            try:
                await self.store.extend_due(table_id=self.table_id, seq=seq, kind=kind)
            except Exception as error:  # the database away for a moment: the next beat tries again
                log.warning("table %s: extending the %s step's lease failed: %r", self.table_id, kind.value, error)


__all__ = ["DueSteps"]
