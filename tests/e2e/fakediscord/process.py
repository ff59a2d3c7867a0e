"""The bot under test as its own OS process, started through launch_bot against a FakeDiscord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

from .fake import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[3]


class BotProcess:
    """Start, stop and restart `python -m tests.e2e.fakediscord.launch_bot SCRIPT`; keeps its output."""

    def __init__(self, fake: FakeDiscord, script: str, *, args: Optional[List[str]] = None,
                 env: Optional[Dict[str, str]] = None, cwd: Optional[Path] = None) -> None:
        self.fake = fake
        self.script = script
        self.args = args or []
        self.env = env or {}
        self.cwd = cwd or REPO_ROOT
        self.proc: Optional[asyncio.subprocess.Process] = None
        self._log = tempfile.NamedTemporaryFile(prefix="fakediscord-bot-", suffix=".log", delete=False)
        self.starts = 0

    async def start(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            raise RuntimeError("bot process already running")
        env = {**os.environ, **self.fake.bot_env(), "PYTHONUNBUFFERED": "1", **self.env}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
        self._log.write(f"--- start #{self.starts + 1}\n".encode())
        self._log.flush()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.fakediscord.launch_bot", self.script, *self.args,
            cwd=str(self.cwd), env=env, stdout=self._log, stderr=asyncio.subprocess.STDOUT,
        )
        self.starts += 1

    async def stop(self, timeout: float = 5.0) -> Optional[int]:
        """Ctrl-C (the bot closes cleanly), then kill if it lingers; returns the exit code."""
        proc = self.proc
        if proc is None:
            return None
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except asyncio.TimeoutError:
                proc.kill()
                await proc.wait()
        return proc.returncode

    async def kill(self) -> None:
        """A crash: no clean shutdown, the websocket just drops."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def output(self) -> str:
        """Everything the bot printed (all starts), for assertions and failure messages."""
        self._log.flush()
        return Path(self._log.name).read_text(errors="replace")

    def close(self) -> None:
        self._log.close()
        Path(self._log.name).unlink(missing_ok=True)
