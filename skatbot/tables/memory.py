"""A recording presenter: the table's presenter port for tests and benchmarks (the in-memory store is the
tests' own, tests/tables/memory_store.py)."""

from __future__ import annotations

from .events import Event
from .view import Step


class RecordingPresenter:
    """Remembers every batch of events it was shown."""

    def __init__(self) -> None:
        self.batches: list[tuple[int, list[Event]]] = []
        self.lead_waits: list[bool] = []  # per batch: whether the leader was shown waiting for the Kontra window
        self.steps: list[Step] = []

    async def show(self, step: Step) -> None:
        self.batches.append((step.view.id, list(step.events)))
        self.lead_waits.append(step.view.lead_waits)
        self.steps.append(step)

    async def idle(self, table_id: int) -> None:
        """Nothing waits: every batch is recorded as it is shown."""

    @property
    def events(self) -> list[Event]:
        return [event for _, batch in self.batches for event in batch]
