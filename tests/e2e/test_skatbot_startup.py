"""A token Discord rejects (the fake answers 401 as Discord does): exit code 2 and two lines naming
DISCORD_TOKEN and the fix, no traceback; with SKATBOT_LOG_LEVEL=DEBUG the traceback too."""

from __future__ import annotations

import asyncio
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
