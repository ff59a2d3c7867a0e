"""What one table hands its presenter in one process: its events in order, one step at a time.

A step is stored before it is shown: the table queues a committed step's events here (`publish`), and one
task hands them to the presenter (`Presenter.show`) with the table's view as stored then. Whatever queued
up while the presenter showed the last step goes out as one step.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from skatbot.models import counted

from . import events as ev
from .ports import Presenter
from .view import Step, TableView

log = logging.getLogger(__name__)


class Showable(Protocol):
    """What the queue reads of its table (`Table`); its `presenter` as it is now."""

    id: int
    presenter: Presenter

    def current(self) -> TableView: ...


class Showing:
    """One table's events not yet handed to its presenter, and the task that hands them out."""

    def __init__(self, table: Showable, since: int) -> None:
        self.table = table
        self.queued: list[ev.Event] = []  # events not yet handed to the presenter (one step when it takes them)
        self.since = since  # where this process's own entries not yet handed out begin
        self.task: asyncio.Task[None] | None = None

    def publish(self, shown: list[ev.Event]) -> None:
        """Queue events for the presenter (shown in order, one step at a time, after what is queued)."""
        if not shown:
            return
        self.queued.extend(shown)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        """Hand the presenter one step at a time: whatever queued up while it showed the last goes out as one,
        with the table's view as stored now (never a step half applied)."""
        table = self.table
        while self.queued:
            events, self.queued = self.queued, []
            step = Step(self.since, events, table.current())
            self.since = step.seq
            try:
                await table.presenter.show(step)
            except Exception:
                log.exception("table %s: presenting %s failed", table.id, counted(len(events), "event"))


__all__ = ["Showing", "Showable"]
