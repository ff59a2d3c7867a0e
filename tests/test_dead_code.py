"""scripts/dead_code.py: the project has no function without a caller; one added is caught, while a test's
call, a Discord callback and a slash command count as callers."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("dead_code", ROOT / "scripts" / "dead_code.py")
assert _spec is not None and _spec.loader is not None
dead_code = importlib.util.module_from_spec(_spec)
sys.modules["dead_code"] = dead_code
_spec.loader.exec_module(dead_code)


def test_the_project_has_no_function_without_a_caller() -> None:
    assert dead_code.dead() == []


def test_a_function_nothing_calls_is_found_and_one_a_test_or_discord_calls_is_not(tmp_path: Path) -> None:
    for path in dead_code.PATHS:
        (tmp_path / path).mkdir(parents=True) if "." not in path else (tmp_path / path).write_text("")
    (tmp_path / "skatbot" / "tools.py").write_text(
        "import discord\nfrom discord import app_commands\n\n\n"
        "def forgotten() -> int:\n    return 1\n\n\n"
        "def tested() -> int:\n    return 2\n\n\n"
        "class Button(discord.ui.DynamicItem):\n"
        "    @classmethod\n    async def from_custom_id(cls, interaction, item, match):\n        return cls()\n\n"
        "    async def callback(self, interaction):\n        pass\n\n\n"
        "class Cog:\n    @app_commands.command(name='ping')\n    async def ping(self, interaction):\n        pass\n\n\n"
        "async def setup(bot):\n    bot.add_dynamic_items(Button)\n    await bot.add_cog(Cog())\n")
    (tmp_path / "tests" / "test_tools.py").write_text(
        "from skatbot.tools import tested\n\n\ndef test_it() -> None:\n    assert tested() == 2\n")
    found = dead_code.dead(tmp_path)
    assert len(found) == 1 and "unused function 'forgotten'" in found[0], found
