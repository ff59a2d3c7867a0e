"""Storage tests run against real SQLite files in a temporary folder (no mocks)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from skatbot.storage import SqliteStorage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    opened = await SqliteStorage.open(tmp_path / "skatbot.sqlite3")
    try:
        yield opened
    finally:
        await opened.close()

