"""A bot started as a script's background job (`./run &`, the README's two-process recipe) starts with SIGINT
ignored, as bash sets it for `&` jobs: SIGTERM (kill, docker stop, systemd) and SIGINT both still stop it
cleanly, at once, with exit code 0."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import Club
from tests.e2e.fakediscord.process import REPO_ROOT


def ignored_signals(status: str) -> int:
    """The mask of ignored signals (bit n-1 for signal n) in a copy of /proc/PID/status."""
    for line in status.splitlines():
        if line.startswith("SigIgn:"):
            return int(line.split()[1], 16)
    raise LookupError("no SigIgn in /proc")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
async def test_a_background_job_stops_cleanly_on_a_signal(club: Club, tmp_path: Path, signum: signal.Signals) -> None:
    fake = club.fake
    log, pid_file, database = tmp_path / "bot.log", tmp_path / "bot.pid", tmp_path / "skat.sqlite3"
    env = {**os.environ, **fake.bot_env(), "PYTHONPATH": str(REPO_ROOT), "SKATBOT_DATABASE": str(database),
           "SKATBOT_AI_PAUSE": "0", "SKATBOT_LOG_LEVEL": "INFO", "PYTHONUNBUFFERED": "1"}
    # as a script runs `./run &`: bash without job control starts the job with SIGINT and SIGQUIT ignored. The
    # job notes what it starts with, then becomes the bot (the bot soon takes SIGINT back: read later, the
    # bot's own /proc would race with it)
    started_with = tmp_path / "status"
    script = (f'sh -c \'cat /proc/$$/status >"$0"; exec "$@"\' "{started_with}" "{sys.executable}" '
              f'-m tests.e2e.fakediscord.launch_bot bot.py >"{log}" 2>&1 & echo $! >"{pid_file}"; wait $!')
    shell = await asyncio.create_subprocess_exec("bash", "-c", script, cwd=str(REPO_ROOT), env=env)
    try:
        await fake.wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != "", 30, "the job's pid")
        pid = int(pid_file.read_text())
        await fake.wait_for(lambda: "SigIgn:" in (started_with.read_text() if started_with.exists() else ""), 30,
                            "the job's signal dispositions")
        assert ignored_signals(started_with.read_text()) & (1 << (signal.SIGINT - 1)), "the job starts with SIGINT ignored"
        await fake.wait_for(lambda: any(s.guilds_sent and not s.closed for s in fake.gateway.sessions), 30,
                            "the bot to connect")
        opened = await (await fake.slash(club.alice, club.channel, "skat", subcommand="new")).wait_message()
        assert "is open" in opened.content

        os.kill(pid, signum)
        code = await asyncio.wait_for(shell.wait(), 30)  # the job's exit code is the shell's (`wait $!`)
    finally:
        if shell.returncode is None:
            shell.kill()
            if pid_file.exists() and pid_file.read_text().strip():
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            await shell.wait()
    output = log.read_text()
    assert code == 0, output
    assert "Traceback (most recent call last)" not in output, output
    with sqlite3.connect(database) as db:  # closed cleanly: the table is there, the log checkpointed
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (1,)
    assert not Path(f"{database}-wal").exists() or Path(f"{database}-wal").stat().st_size == 0, output
