"""Every catalog key the server features name in their code exists (a typo would show English or fail)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skatbot.ui.catalogs import entries, read_catalog
from skatbot.ui.languages import SOURCE

EN = entries(read_catalog(SOURCE))

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["cogs/scores.py", "cogs/guide.py", "cogs/settings.py", "cogs/_common.py",
           "skatbot/ui/calculator.py", "skatbot/ui/leaderboard.py", "skatbot/ui/rules_text.py",
           "skatbot/ui/server_settings.py", "skatbot/ui/server_text.py"]
KEY = re.compile(r"""["']((?:lb|stats|history|record|rules|value|settings|help|server|choice|cmd)\.[\w.\-]+)["']""")


@pytest.mark.parametrize("source", SOURCES)
def test_named_keys_exist(source: str) -> None:
    keys = {key for key in KEY.findall((ROOT / source).read_text()) if not key.endswith(".")}
    assert keys, f"{source} names no keys: the pattern is wrong"
    assert sorted(key for key in keys if key not in EN) == []
