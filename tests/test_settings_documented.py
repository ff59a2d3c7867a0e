"""The operator's documents name exactly the settings the code reads, with the code's defaults: the README's
settings table, .env.example, and every SKATBOT_* name in the README, compose.yaml and the Dockerfile. (The
names compose sets for the bots are checked against the settings by scripts/check_docker.py too.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skatbot import config
from skatbot.config import Settings

ROOT = Path(__file__).resolve().parent.parent

SETTINGS = {value for name, value in vars(config).items() if name.endswith("_VAR") and isinstance(value, str)}
"""Every environment variable the bot reads: skatbot/config.py's *_VAR names (the one place that reads them)."""

FIELDS = {
    "DISCORD_TOKEN": "discord_token",
    "SKATBOT_DATABASE": "database_path",
    "SKATBOT_DATA_DIR": None,  # no field: it places a relative database_path
    "SKATBOT_DATABASE_URL": "database_url",
    "SKATBOT_DEV_GUILD": "dev_guild_id",
    "SKATBOT_LOG_LEVEL": "log_level",
    "SKATBOT_AI_PAUSE": "ai_pause_seconds",
    "SKATBOT_KONTRA_WINDOW": "kontra_window_seconds",
    "SKATBOT_TOURNAMENT_CLOCK": "tournament_clock_seconds",
    "SKATBOT_SHARD_COUNT": "shard_count",
    "SKATBOT_SHARD_IDS": "shard_ids",
    "SKATBOT_METRICS_PORT": "metrics_port",
    "SKATBOT_METRICS_HOST": "metrics_host",
}
"""Each setting's field of Settings, whose default the documents must give (a new setting is added here too)."""

OTHER_NAMES = {"POSTGRES_PASSWORD"}
"""Named in .env.example but read by compose.yaml only, not by the bot (its comment says so)."""


def default_text(name: str) -> str | None:
    """The setting's default as the documents write it (None: unset, no default value)."""
    field = FIELDS.get(name)  # a setting missing there fails test_every_setting_is_known_here
    value = None if field is None else getattr(Settings(), field)
    if value is None:
        return None
    return f"{value:g}" if isinstance(value, float) else str(value)


def readme_table() -> dict[str, str]:
    """The README's settings table (section "The token and the settings"): variable -> its default cell."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### 2. The token and the settings", 1)[1].split("\n### ", 1)[0]
    return {name: default.strip() for name, default in
            re.findall(r"^\| `([A-Z_]+)` \| .* \| ([^|]+) \|$", section, re.MULTILINE)}


def env_example_blocks() -> list[tuple[str, list[str]]]:
    """.env.example's paragraphs: each one's text and the variables it sets or shows commented out."""
    text = (ROOT / ".env.example").read_text()
    return [(block, re.findall(r"^#? ?([A-Z][A-Z0-9_]*)=", block, re.MULTILINE)) for block in text.split("\n\n")]


def test_every_setting_is_known_here() -> None:
    assert set(FIELDS) == SETTINGS, "a setting was added to or removed from skatbot/config.py: update FIELDS"


def test_the_readme_table_lists_every_setting_with_its_default() -> None:
    table = readme_table()
    assert set(table) == SETTINGS
    for name, cell in table.items():
        default = default_text(name)
        if default is None:
            assert cell.startswith(("unset", "none")), (name, cell)
        else:
            assert re.match(r"`([^`]*)`", cell) and cell.split("`")[1] == default, (name, cell, default)


def test_env_example_names_every_setting_and_copied_gives_the_defaults() -> None:
    named = [name for _, names in env_example_blocks() for name in names]
    assert sorted(set(named)) == sorted(SETTINGS | OTHER_NAMES) and len(named) == len(set(named)), named
    text = (ROOT / ".env.example").read_text()
    for name, value in re.findall(r"^([A-Z][A-Z0-9_]*)=(.*)$", text, re.MULTILINE):  # set, not commented out
        assert value.strip() in ("", default_text(name)), f"{name}={value}: a copied .env.example must mean the default"


@pytest.mark.parametrize("name", sorted(name for name in SETTINGS if default_text(name) is not None))
def test_env_example_states_the_codes_default(name: str) -> None:
    """The paragraph about a setting with a default says it ("Default: 8.", "Empty: skatbot.sqlite3."), as the code has it."""
    stated = [value for block, names in env_example_blocks() if name in names
              for value in re.findall(r"(?:Default|Empty): ([\w.]+?)\.?(?:\s|$)", block)]
    assert stated == [default_text(name)], (name, stated)


def test_every_skatbot_name_in_the_code_and_the_documents_is_a_setting() -> None:
    """No module reads a variable of its own, and no document names one the bot does not read (the test runner's
    SKATBOT_TEST_WORKERS excepted, which ./run-tests reads)."""
    sources = [*ROOT.joinpath("skatbot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py"), ROOT / "bot.py"]
    documents = [ROOT / name for name in ("README.md", ".env.example", "compose.yaml", "Dockerfile")]
    for path in sources + documents:
        names = set(re.findall(r"\bSKATBOT_[A-Z_]*[A-Z]\b", path.read_text()))
        unknown = names - SETTINGS - {"SKATBOT_TEST_WORKERS"}
        assert not unknown, f"{path.relative_to(ROOT)} names {sorted(unknown)}, which skatbot/config.py does not read"
    assert "SKATBOT_TEST_WORKERS" in (ROOT / "run-tests").read_text()
