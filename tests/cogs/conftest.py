"""A bot with its cogs over a temporary database, for the cog unit tests (see helpers.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.cogs.helpers import CogBot, cog_bot


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[CogBot]:
    built = await cog_bot(tmp_path)
    try:
        yield built
    finally:
        await built.close()
