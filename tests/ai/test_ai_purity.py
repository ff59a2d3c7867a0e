"""The AI is pure like the engine: it imports and plays with Discord, asyncio and databases unavailable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
BLOCKED = {"discord", "asyncio", "aiosqlite", "sqlite3", "socket", "time"}
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"the AI must not import {name}")
        return None
sys.meta_path.insert(0, Block())
for name in list(sys.modules):
    if name.split(".")[0] in BLOCKED:
        del sys.modules[name]
from skatbot.ai import make_player, play_deal
from skatbot.ai import auction, cardplay, easy, evaluation, knowledge, normal, random_player, runner
from skatbot.engine import Deal
for level in ("random", "easy", "normal"):
    play_deal(Deal.new(3), [make_player(level, seat) for seat in range(3)])
print("pure")
"""


def test_ai_imports_and_plays_without_io_modules() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"


SEARCHING = PROGRAM.replace(', "socket", "time"}', '}').replace(
    "from skatbot.ai import make_player, play_deal",
    "from skatbot.ai import analysis, make_player, play_deal, solver, strong").replace(
    'for level in ("random", "easy", "normal"):',
    'played = Deal.new(4)\nplay_deal(played, [make_player("normal", seat) for seat in range(3)])\n'
    'analysis.analyse(played)\nfor level in ():')


def test_searching_ai_modules_are_pure_too() -> None:
    """The solver, the strong level and the deal analysis (numpy and numba need the clock and socket modules)."""
    done = subprocess.run([sys.executable, "-c", SEARCHING], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"
