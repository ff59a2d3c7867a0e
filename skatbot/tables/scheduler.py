"""Each process's scheduler: it claims the due steps (AI turns, turn timers, the next deal, the end of a Kontra
window) whose holder's lease ran out, because the process that wrote them died or fell behind, and fires them
on the table, rebuilt from its log when this process did not hold it. The process that writes a step fires it itself at
once; this loop is what makes a step happen when that process is gone."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from skatbot.models import DueStep, StoreBusy

from .errors import TableError
from .ports import DueClaims
from .table import SETTLE_SECONDS, Table
from .timers import Sleep

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
"""How often a process looks for due steps nobody fired: with the lease, what a takeover may take."""


class DueScheduler:
    def __init__(self, *, claims: DueClaims, load: Callable[[int], Awaitable[Table]], drop: Callable[[DueStep],
                 Awaitable[object]], sleep: Sleep = asyncio.sleep, poll: float = POLL_SECONDS,
                 limit: int = 100) -> None:
        self.claims = claims
        self.load = load
        self.drop = drop
        self.sleep = sleep
        self.poll = poll
        self.limit = limit
        self._firing: dict[int, asyncio.Task[None]] = {}  # table id -> the step being fired there
        self._loop: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._loop is None or self._loop.done():
            self._loop = asyncio.create_task(self._run(), name="due-scheduler")

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except StoreBusy:  # another writer held the database: nothing was claimed; the next poll asks again
                log.warning("the database was busy; claiming due steps again in %.1f s", self.poll)
            except Exception:  # the database may be away for a moment: try again at the next poll
                log.exception("claiming due steps failed")
            await self.sleep(self.poll)

    async def run_once(self) -> list[DueStep]:
        """Claim what is due and start firing it (one step per table at a time); returns what was claimed."""
        for table_id in [table_id for table_id, task in self._firing.items() if task.done()]:
            del self._firing[table_id]
        busy = list(self._firing)
        steps = await self.claims.claim_due(limit=self.limit)
        for step in steps:
            if step.table_id in busy:
                continue  # a step of this table is being fired: its lease brings this one back later
            busy.append(step.table_id)
            self._firing[step.table_id] = asyncio.create_task(self._fire(step), name=f"due-{step.table_id}")
        return steps

    async def _fire(self, step: DueStep) -> None:
        try:
            table = await self.load(step.table_id)
        except TableError:  # gone, or its log does not replay (logged by the manager): nothing to do there
            await self.drop(step)
            return
        except Exception:
            log.exception("table %s: loading it to fire %s failed", step.table_id, step.kind.value)
            return
        try:
            await table.fire(step)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: firing %s failed", step.table_id, step.kind.value)

    async def settle(self, timeout: float = SETTLE_SECONDS) -> bool:
        """Wait, at most `timeout` seconds, until every step being fired is done (tests). False (logged, with
        the tables still firing) when the bound passed first; their tasks run on."""
        try:
            await asyncio.wait_for(self._settled(), timeout)
        except TimeoutError:
            log.warning("due steps still firing after %.1f s at table %s", timeout,
                        ", table ".join(str(table_id) for table_id, task in self._firing.items() if not task.done()))
            return False
        return True

    async def _settled(self) -> None:
        while running := [task for task in self._firing.values() if not task.done()]:
            await asyncio.wait(running)  # (firing one may have started firing another)

    async def stop(self) -> None:
        tasks = [task for task in (self._loop, *self._firing.values()) if task is not None and not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._loop = None
        self._firing.clear()
