"""The engine and the AI stay pure: every module imports with Discord, the database and asyncio unavailable.

lint-imports (contracts in pyproject.toml) forbids these imports in the project's own code; this test
covers what a static check cannot see: what the third-party packages the engine and AI use (numpy,
numba) import in turn, and modules loaded by name at run time (AI levels). Each check runs in a fresh
interpreter, where a meta path finder refuses the forbidden packages, so a module imported earlier by
another test cannot hide a forbidden import.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("discord", "aiosqlite", "asyncio", "sqlite3", "_sqlite3", "_asyncio")

BLOCKER = """
import importlib, json, pkgutil, sys

FORBIDDEN = {forbidden!r}

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in FORBIDDEN:
            raise ImportError(f"{{name}} may not be imported here")
        return None

for name in list(sys.modules):
    if name.split(".")[0] in FORBIDDEN:
        del sys.modules[name]
sys.meta_path.insert(0, Refuse())
{body}
"""

IMPORT_ALL = """
imported = []
for package_name in {packages!r}:
    try:
        package = importlib.import_module(package_name)
    except ModuleNotFoundError as error:
        if error.name == package_name:
            continue  # an optional package that does not exist yet
        raise
    imported.append(package_name)
    for info in pkgutil.walk_packages(package.__path__, package_name + "."):
        importlib.import_module(info.name)
        imported.append(info.name)
leaked = sorted(n for n in sys.modules if n.split(".")[0] in FORBIDDEN)
print(json.dumps({{"imported": imported, "leaked": leaked}}))
"""


def run_blocked(body: str) -> subprocess.CompletedProcess[str]:
    code = BLOCKER.format(forbidden=FORBIDDEN, body=body)
    return subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True, timeout=120,
                          check=False)


def test_every_engine_and_ai_module_imports_without_discord_database_or_asyncio() -> None:
    done = run_blocked(IMPORT_ALL.format(packages=["skatbot.engine", "skatbot.ai"]))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["leaked"] == []
    imported = set(report["imported"])
    for name in ("skatbot.engine", "skatbot.engine.cards", "skatbot.engine.deal", "skatbot.engine.scoring",
                 "skatbot.engine.views", "skatbot.engine.games", "skatbot.engine.actions", "skatbot.engine.rules"):
        assert name in imported
    for package in ("engine", "ai"):
        stems = {p.stem for p in (PROJECT / "skatbot" / package).glob("*.py") if p.stem != "__init__"}
        assert {f"skatbot.{package}.{stem}" for stem in stems} <= imported


@pytest.mark.parametrize("name", FORBIDDEN[:4])
def test_the_blocker_really_refuses(name: str) -> None:
    done = run_blocked(f"import {name}")
    assert done.returncode != 0
    assert f"{name} may not be imported here" in done.stderr
