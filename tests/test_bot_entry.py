"""bot.py: without a token or with a bad setting it explains what to do and exits 2; with a token it runs
SkatBot with the settings from .env (read from the working folder) and the environment (which wins)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest

import bot
from skatbot.app import SkatBot
from skatbot.config import Settings

BOT_PY = Path(bot.__file__).resolve()


def run_bot_py(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run `python bot.py` as a user would, in `cwd` (where .env is looked for)."""
    return subprocess.run(
        [sys.executable, str(BOT_PY)], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def test_without_token_explains_and_exits_2(tmp_path: Path) -> None:
    result = run_bot_py(tmp_path, env={})
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "discord.com/developers/applications" in result.stderr
    assert ".env.example" in result.stderr
    assert result.stdout == ""


def test_env_file_in_working_folder_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nSKATBOT_DEV_GUILD=not-a-number\n")
    result = run_bot_py(tmp_path, env={})
    assert result.returncode == 2
    assert "configuration error" in result.stderr
    assert "SKATBOT_DEV_GUILD='not-a-number'" in result.stderr


def test_environment_wins_over_env_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SKATBOT_DEV_GUILD=not-a-number\n")
    result = run_bot_py(tmp_path, env={"SKATBOT_DEV_GUILD": "42"})
    assert result.returncode == 2
    assert "configuration error" not in result.stderr
    assert "DISCORD_TOKEN" in result.stderr


class RecordingSkatBot(SkatBot):
    """A SkatBot whose run records its arguments instead of connecting to Discord (and may fail)."""

    runs: list[tuple[RecordingSkatBot, str, dict[str, Any]]]
    error: Exception | None

    def run(self, token: str, **kwargs: Any) -> None:
        self.runs.append((self, token, kwargs))
        if self.error is not None:
            raise self.error


def recording_bot_class(error: Exception | None = None) -> type[RecordingSkatBot]:
    """A RecordingSkatBot class of its own (its own list of runs), failing with `error` if given."""

    class Recording(RecordingSkatBot):
        runs: list[tuple[RecordingSkatBot, str, dict[str, Any]]] = []

    Recording.error = error
    return Recording


@pytest.fixture
def quiet_logging(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the level bot.main asks for instead of configuring the test process's root logger."""
    levels: list[int] = []
    monkeypatch.setattr(bot, "configure_logging", levels.append)
    return levels


def test_with_token_runs_the_bot_with_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quiet_logging: list[int]
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nSKATBOT_DEV_GUILD=7\nSKATBOT_LOG_LEVEL=warning\n")
    recording = recording_bot_class()
    monkeypatch.setattr(bot, "SkatBot", recording)

    code = bot.main(env_file=env_file, environ={"DISCORD_TOKEN": "from-environment"})

    assert code == 0
    [(client, token, kwargs)] = recording.runs
    assert token == "from-environment"
    assert kwargs == {"log_handler": None}
    assert client.settings == Settings(discord_token="from-environment", dev_guild_id=7, log_level="WARNING")
    assert quiet_logging == [30]


def test_rejected_token_explains_and_exits_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    quiet_logging: list[int],
) -> None:
    rejected = discord.LoginFailure("Improper token has been passed.")
    monkeypatch.setattr(bot, "SkatBot", recording_bot_class(rejected))

    code = bot.main(env_file=tmp_path / "missing.env", environ={"DISCORD_TOKEN": "stale"})

    assert code == 2
    assert "rejected the token" in capsys.readouterr().err


def test_a_shard_beyond_the_count_exits_2_with_the_reason(tmp_path: Path) -> None:
    result = run_bot_py(tmp_path, env={"DISCORD_TOKEN": "abc", "SKATBOT_SHARD_COUNT": "2", "SKATBOT_SHARD_IDS": "1-2"})
    assert result.returncode == 2
    assert "configuration error" in result.stderr and "SKATBOT_SHARD_COUNT=2 has shards 0 to 1 only" in result.stderr
