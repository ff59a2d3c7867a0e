"""The log and the tools' English output say a count with its noun in the right number ("in 1 server", "caught up
1 entry", "checked 1 deal in 1 table"), not "1 servers": an operator reads these at every start."""

from __future__ import annotations

import re
from pathlib import Path

from skatbot.models import counted

ROOT = Path(__file__).resolve().parent.parent


def test_a_count_says_its_noun_in_the_right_number() -> None:
    assert [counted(n, "server") for n in (0, 1, 2)] == ["0 servers", "1 server", "2 servers"]
    assert [counted(n, "entry", "entries") for n in (1, 3)] == ["1 entry", "3 entries"]


PLURAL_AFTER_A_COUNT = re.compile(r"%d ([a-z]+s)\b(?!=)")  # not key=value fields
"""A %-format's number followed by a plural noun: wrong when the number is 1."""
NOT_NOUNS = {"is", "was", "has", "does", "ms"}


def test_no_log_format_puts_a_plural_noun_after_a_count() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in [*ROOT.joinpath("skatbot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if set(PLURAL_AFTER_A_COUNT.findall(line)) - NOT_NOUNS]
    assert not found, "say the count with counted(n, noun):\n" + "\n".join(found)
