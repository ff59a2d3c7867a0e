"""Waiting for a table to settle is bounded: a Discord that never answers does not hold up a shutdown."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

import pytest

from skatbot.models import DueKind, DueStep
from skatbot.tables import Table
from skatbot.tables.memory import RecordingPresenter
from skatbot.tables.scheduler import DueScheduler
from skatbot.tables.view import Step
from tests.tables.kit import TableKit
from tests.tables.test_table import ALICE, seat_three


class HungPresenter(RecordingPresenter):
    """Discord accepted the connection and never answers: every step it is shown hangs."""

    async def show(self, step: Step) -> None:
        await super().show(step)
        await asyncio.Event().wait()


async def test_a_close_held_up_by_a_hung_presenter_ends_within_its_bound(caplog: pytest.LogCaptureFixture) -> None:
    """The bot closes while Discord does not answer a table's message: the close waits its bound, logs what
    it left (shown after the restart: it is stored), and returns; the AI and presenting tasks are stopped."""
    kit = TableKit()
    hung = HungPresenter()
    kit.table.presenter = hung
    await seat_three(kit)
    await kit.table.start(ALICE)
    await asyncio.sleep(0)
    assert hung.batches, "the table handed the presenter its start"
    with caplog.at_level(logging.WARNING, logger="skatbot.tables.table"):
        await asyncio.wait_for(kit.table.close(release=True, timeout=0.2), 5)
    assert any("not settled" in record.getMessage() and "table 1" in record.getMessage()
               for record in caplog.records), caplog.text
    assert kit.table.settled_now(), "nothing of the table runs on after its close"


async def test_settle_says_whether_the_table_settled_in_time() -> None:
    kit = TableKit()
    await seat_three(kit)
    assert await kit.table.settle(timeout=30) is True  # a bound for a loaded machine: it settles at once
    kit.table.presenter = HungPresenter()
    await kit.table.start(ALICE)
    assert await kit.table.settle(timeout=0.1) is False


async def test_the_schedulers_settle_is_bounded(caplog: pytest.LogCaptureFixture) -> None:
    """A due step whose firing hangs: the scheduler's settle gives up after its bound and says which table."""
    hang = asyncio.Event()

    class Claims:
        async def claim_due(self, *, limit: int) -> list[DueStep]:
            return [DueStep(7, 3, DueKind.AI, datetime.now(UTC))]

    async def load(table_id: int) -> Table:
        await hang.wait()
        raise AssertionError("never loaded")

    async def drop(step: DueStep) -> None:
        return None

    scheduler = DueScheduler(claims=Claims(), load=load, drop=drop)
    await scheduler.run_once()
    with caplog.at_level(logging.WARNING, logger="skatbot.tables.scheduler"):
        assert await asyncio.wait_for(scheduler.settle(timeout=0.1), 5) is False
    assert "table 7" in caplog.text
    await scheduler.stop()
