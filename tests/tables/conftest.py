"""Fixtures for table tests."""

from __future__ import annotations

import pytest

from tests.tables.kit import TableKit


@pytest.fixture
def kit() -> TableKit:
    return TableKit()


@pytest.fixture
def ai_first_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Table mechanics tests use a trivial AI: the first legal action (the AI is tested on its own)."""
    from skatbot.tables import driver as driver_module

    monkeypatch.setattr(driver_module, "decide", lambda level, seed, view: view.legal_actions[0])
    monkeypatch.setattr(driver_module, "decide_side", lambda level, seed, view: None)
