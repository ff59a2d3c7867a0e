#!/usr/bin/env python3
"""CI check that no function, method, class or property is left without a caller (vulture), the tests counted
as callers: code only a test calls is tested code, code nothing calls is dead.

Unused variables and attributes are not checked (a fixture asked for its side effect, a library's attribute set
by name). What Discord, pytest or babel call by name or through a decorator is not dead: CALLED_BY_DECORATOR and
CALLED_BY_NAME; add to them only what is called so.

    python scripts/dead_code.py      exit 0 when nothing is found, 1 with what was found listed
    python scripts/dead_code.py --only-tests-call
                                     what only the tests call (a report, not a CI check): issue 22 moved such code
                                     into the tests or removed it, unless a player or operator uses it
"""

from __future__ import annotations

import sys
from pathlib import Path

import vulture

ROOT = Path(__file__).resolve().parents[1]
PATHS = ["bot.py", "skatbot", "cogs", "scripts", "benchmarks", "tests"]
KINDS = {"function", "method", "class", "property"}
CALLED_BY_DECORATOR = [
    "@app_commands.*", "@*.autocomplete", "@*.command", "@*.error", "@commands.Cog.listener", "@tasks.loop",
    "@discord.ui.button", "@discord.ui.select", "@pytest.fixture",
]
CALLED_BY_NAME = [
    "from_custom_id", "callback", "interaction_check", "on_*", "setup", "setup_hook", "cog_load", "cog_unload",
    "test_*", "pytest_*",
    "extract_keys",  # babel's extraction method, named in skatbot/ui/catalogs.py and babel.cfg
]


def dead(root: Path = ROOT, paths: list[str] = PATHS) -> list[str]:
    """Every function, method, class and property nothing in `paths` calls, as vulture reports it."""
    found = vulture.Vulture(ignore_names=CALLED_BY_NAME, ignore_decorators=CALLED_BY_DECORATOR)
    found.scavenge([str(root / path) for path in paths])
    return [item.get_report() for item in found.get_unused_code() if item.typ in KINDS]


def main() -> int:
    only_tests = "--only-tests-call" in sys.argv[1:]
    reports = dead(paths=[path for path in PATHS if path != "tests"]) if only_tests else dead()
    if only_tests:  # what the tests define is theirs
        reports = [report for report in reports if not report.startswith(("tests/", str(ROOT / "tests")))]
    for report in reports:
        print(report)
    print(f"{len(reports)} functions, methods, classes or properties "
          f"{'only the tests call' if only_tests else 'without a caller'}.")
    return 1 if reports and not only_tests else 0


if __name__ == "__main__":
    sys.exit(main())
