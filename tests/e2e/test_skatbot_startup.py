"""A token Discord rejects (the fake answers 401 as Discord does): exit code 2 and two lines naming
DISCORD_TOKEN and the fix, no traceback; with SKATBOT_LOG_LEVEL=DEBUG the traceback too."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from tests.e2e.conftest import Club
from tests.e2e.fakediscord import BotProcess
from tests.e2e.skat_helpers import BOT


@pytest.mark.parametrize("level", ["INFO", "DEBUG"])
async def test_a_rejected_token_is_two_lines_and_exit_2(club: Club, tmp_path: Path, level: str) -> None:
    proc = BotProcess(club.fake, BOT, env={"DISCORD_TOKEN": "not-the-token", "SKATBOT_LOG_LEVEL": level,
                                           "SKATBOT_DATABASE": str(tmp_path / "skat.sqlite3")})
    await proc.start()
    try:
        assert proc.proc is not None
        code = await asyncio.wait_for(proc.proc.wait(), 30)
        output = proc.output()
    finally:
        await proc.stop()
        proc.close()
    assert code == 2, output
    said = [line for line in output.splitlines() if line.strip() and not line.startswith(("---", "20"))]
    if level == "DEBUG":
        assert "Traceback (most recent call last)" in output and "LoginFailure" in output
        return
    assert "Traceback" not in output, output
    assert len(said) == 2 and "DISCORD_TOKEN" in said[0] and "developers/applications" in said[1], output


async def test_a_metrics_port_in_use_is_two_lines_and_exit_2(club: Club, tmp_path: Path) -> None:
    """Another program (or a second bot) holds SKATBOT_METRICS_PORT: the bot says so and stops, as the README
    promises, instead of running without its /healthz (Docker would call it unhealthy with no reason given)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = BotProcess(club.fake, BOT, env={"SKATBOT_METRICS_PORT": str(port), "SKATBOT_LOG_LEVEL": "INFO",
                                               "SKATBOT_DATABASE": str(tmp_path / "skat.sqlite3")})
        await proc.start()
        try:
            assert proc.proc is not None
            code = await asyncio.wait_for(proc.proc.wait(), 60)
            output = proc.output()
        finally:
            await proc.stop()
            proc.close()
    assert code == 2, output
    said = [line for line in output.splitlines() if line.strip() and not line.startswith(("---", "20"))]
    assert "Traceback" not in output, output
    assert len(said) == 2 and "SKATBOT_METRICS_PORT" in said[0] and str(port) in said[0], output
