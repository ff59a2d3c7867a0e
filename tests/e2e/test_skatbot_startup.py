"""A token Discord rejects (the fake answers 401 as Discord does): exit code 2 and two lines naming
DISCORD_TOKEN and the fix, no traceback; with SKATBOT_LOG_LEVEL=DEBUG the traceback too."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import BotProcess
from tests.e2e.skat_helpers import BOT, start_skatbot


async def exit_of(proc: BotProcess, timeout: float) -> tuple[int, str]:
    """Start the bot and wait until it exits by itself: its exit code and its output."""
    await proc.start()
    try:
        assert proc.proc is not None
        code = await asyncio.wait_for(proc.proc.wait(), timeout)
        return code, proc.output()
    finally:
        await proc.stop()
        proc.close()


def said(output: str) -> list[str]:
    """What the bot printed besides its log lines and the harness's start markers."""
    return [line for line in output.splitlines() if line.strip() and not line.startswith(("---", "20"))]


@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
async def test_a_rejected_token_is_two_lines_and_exit_2(club: Club, tmp_path: Path, level: str) -> None:
    proc = BotProcess(club.fake, BOT, env={"DISCORD_TOKEN": "not-the-token", "SKATBOT_LOG_LEVEL": level,
                                           "SKATBOT_DATABASE": str(tmp_path / "skat.sqlite3")})
    code, output = await exit_of(proc, 30)
    assert code == 2, output
    lines = said(output)
    if level == "DEBUG":
        assert "Traceback (most recent call last)" in output and "LoginFailure" in output
        return
    assert "Traceback" not in output, output
    assert len(lines) == 2 and "DISCORD_TOKEN" in lines[0] and "developers/applications" in lines[1], output


async def test_a_metrics_port_in_use_is_two_lines_and_exit_2(club: Club, tmp_path: Path) -> None:
    """Another program (or a second bot) holds SKATBOT_METRICS_PORT: the bot says so and stops, as the README
    promises, instead of running without its /healthz (Docker would call it unhealthy with no reason given).
    It binds the port before it logs in: a failed start has published no commands nor uploaded card emojis
    (it did both, then stopped)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = BotProcess(club.fake, BOT, env={"SKATBOT_METRICS_PORT": str(port), "SKATBOT_LOG_LEVEL": "INFO",
                                               "SKATBOT_DATABASE": str(tmp_path / "skat.sqlite3")})
        code, output = await exit_of(proc, 60)
    assert code == 2, output
    lines = said(output)
    assert "Traceback" not in output, output
    assert len(lines) == 2 and "SKATBOT_METRICS_PORT" in lines[0] and str(port) in lines[0], output
    assert club.fake.commands() == {}, "the commands were published"
    assert [(call.method, call.route) for call in club.fake.rest_log if call.method != "GET"] == []


async def test_a_second_bot_on_one_sqlite_file_is_refused(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    """`./run` twice, or two containers on one volume: a SQLite file serves one process (its table locks are in
    that process), so the second bot says so and exits 2, touching nothing; the first plays on, and once it has
    stopped the file is free again."""
    database = str(tmp_path / "skat.sqlite3")
    first = await start_skatbot(club.fake, start_bot, database)
    second = BotProcess(club.fake, BOT, env={"SKATBOT_DATABASE": database, "SKATBOT_LOG_LEVEL": "INFO"})
    code, output = await exit_of(second, 60)
    assert code == 2, output
    lines = said(output)
    assert "Traceback" not in output, output
    assert first.proc is not None
    assert len(lines) == 2 and f"pid {first.proc.pid}" in lines[0] and "SKATBOT_DATABASE" in lines[0], output
    assert "PostgreSQL" in lines[1], output
    opened = await (await club.fake.slash(club.alice, club.channel, "skat", subcommand="new")).wait_message()
    assert "is open" in opened.content  # the first bot is not disturbed

    assert await first.stop() == 0
    await first.start()  # its own restart: the lock went with the process
    await first.wait_connected(commands=("skat",))
