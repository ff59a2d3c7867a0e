"""bot.py: without a token or with a bad setting it explains what to do and exits 2; with a token it runs
SkatBot with the settings from .env (read from the working folder) and the environment (which wins)."""

from __future__ import annotations

import logging
import re
import socket
import sqlite3
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


def test_the_no_token_help_names_the_file_it_read(tmp_path: Path) -> None:
    """./run reads the project folder's .env, bot.py the working folder's: the help says which file."""
    result = run_bot_py(tmp_path, env={})
    assert result.returncode == 2
    assert str(tmp_path.resolve() / ".env") in result.stderr


def closed_port() -> int:
    """A local TCP port nothing listens on (connections to it are refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def message_lines(stderr: str) -> list[str]:
    """What the bot printed for the operator, without the log lines (which start with the date)."""
    return [line for line in stderr.splitlines() if line.strip() and not re.match(r"\d{4}-\d\d-\d\d ", line)]


def run_against_discord_at(cwd: Path, rest_url: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """bot.py through the e2e launcher, its Discord pointed at `rest_url`."""
    return subprocess.run(
        [sys.executable, "-m", "tests.e2e.fakediscord.launch_bot", str(BOT_PY)], cwd=cwd, timeout=60,
        env={"PYTHONPATH": str(BOT_PY.parent), "FAKE_DISCORD_REST": rest_url,
             "FAKE_DISCORD_GATEWAY": rest_url.replace("http", "ws"), **env},
        capture_output=True, text=True)


def newer_schema_database(path: Path) -> Path:
    import asyncio

    from skatbot.storage import SqliteStorage

    async def make() -> None:
        storage = await SqliteStorage.open(path)
        await storage.close()

    asyncio.run(make())
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 999")
    return path


@pytest.mark.parametrize(("case", "setting", "fix"), [
    ("discord unreachable", "Discord", "network"),
    ("postgres refused", "SKATBOT_DATABASE_URL", "PostgreSQL"),
    ("postgres url unreadable", "SKATBOT_DATABASE_URL", "postgresql://USER:PASSWORD@HOST:5432/DATABASE"),
    ("schema newer", "SKATBOT_DATABASE", "newer skatbot"),
    ("missing folder", "SKATBOT_DATABASE", "mkdir"),
])
@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
def test_startup_failures_are_short_messages_and_exit_2(tmp_path: Path, case: str, setting: str, fix: str,
                                                        level: str) -> None:
    env = {"DISCORD_TOKEN": "abc", "SKATBOT_LOG_LEVEL": level, "SKATBOT_DATABASE": str(tmp_path / "skat.sqlite3")}
    unreachable = f"http://127.0.0.1:{closed_port()}/api/v10"
    if case == "postgres refused":
        env["SKATBOT_DATABASE_URL"] = f"postgresql://skatbot:secret@127.0.0.1:{closed_port()}/skatbot"
    elif case == "postgres url unreadable":
        env["SKATBOT_DATABASE_URL"] = "postgresql://skatbot:secret@127.0.0.1:notaport/skatbot"
    elif case == "schema newer":
        newer_schema_database(tmp_path / "skat.sqlite3")
    elif case == "missing folder":
        env["SKATBOT_DATABASE"] = str(tmp_path / "no-such-folder" / "skat.sqlite3")
    result = run_against_discord_at(tmp_path, unreachable, env)
    assert result.returncode == 2, result.stderr
    lines = message_lines(result.stderr)
    if level == "DEBUG" and case != "missing folder":  # a settings check has no traceback to show
        assert "Traceback (most recent call last)" in result.stderr
        return
    assert "Traceback" not in result.stderr, result.stderr
    assert "closing cleanly" not in result.stderr, "nothing had started: the log says no close of tables before the message"
    assert 2 <= len(lines) <= 3, result.stderr
    assert setting in lines[0] and fix in result.stderr, result.stderr
    assert "secret" not in result.stderr


def test_a_missing_postgres_role_is_a_message(tmp_path: Path, postgres_url: str) -> None:
    wrong_user = re.sub(r"://[^@/]*@?", "://no_such_role_here@", postgres_url, count=1)
    result = run_bot_py(tmp_path, env={"DISCORD_TOKEN": "abc", "SKATBOT_DATABASE_URL": wrong_user})
    assert result.returncode == 2, result.stderr
    lines = message_lines(result.stderr)
    assert 2 <= len(lines) <= 3 and "SKATBOT_DATABASE_URL" in lines[0] and "no_such_role_here" in result.stderr, \
        result.stderr


def test_a_rejected_token_is_a_short_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str], quiet_logging: list[int]) -> None:
    monkeypatch.setattr(bot, "SkatBot", recording_bot_class(discord.LoginFailure("Improper token")))
    assert bot.main(env_file=tmp_path / "missing.env", environ={"DISCORD_TOKEN": "stale"}) == 2
    lines = message_lines(capsys.readouterr().err)
    assert 2 <= len(lines) <= 3 and "DISCORD_TOKEN" in lines[0]


def test_the_log_has_no_voice_warnings(caplog: pytest.LogCaptureFixture) -> None:
    """The bot uses no voice: discord.py's PyNaCl and davey warnings are noise at every start."""
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True  # as in a fresh process
    with caplog.at_level(logging.WARNING):
        SkatBot(Settings())
    assert not [r for r in caplog.records if "voice" in r.getMessage()]
