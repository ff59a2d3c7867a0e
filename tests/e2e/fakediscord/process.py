"""The bot under test as its own OS process, started through launch_bot against a FakeDiscord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import tempfile
from pathlib import Path

from .fake import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[3]


class BotProcess:
    """Start, stop and restart `python -m tests.e2e.fakediscord.launch_bot SCRIPT`; keeps its output."""

    def __init__(self, fake: FakeDiscord, script: str, *, args: list[str] | None = None,
                 env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
        self.fake = fake
        self.script = script
        self.args = args or []
        self.env = env or {}
        self.cwd = cwd or REPO_ROOT
        self.proc: asyncio.subprocess.Process | None = None
        self._log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (open for the process's life)
            prefix="fakediscord-bot-", suffix=".log", delete=False)
        self.starts = 0
        self._sessions_before = 0

    async def start(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            raise RuntimeError("bot process already running")
        env = {**os.environ, **self.fake.bot_env(), "PYTHONUNBUFFERED": "1", **self.env}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
        self._sessions_before = len(self.fake.gateway.sessions)
        self._log.write(f"--- start #{self.starts + 1}\n".encode())
        self._log.flush()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.fakediscord.launch_bot", self.script, *self.args,
            cwd=str(self.cwd), env=env, stdout=self._log, stderr=asyncio.subprocess.STDOUT,
        )
        self.starts += 1

    async def wait_connected(self, timeout: float = 20.0, commands: tuple[str, ...] = ()) -> None:
        """Until this start of the process has identified, got its guilds and synced `commands`.

        Fails at once, with the bot's output, if the process dies first.
        """
        gateway, world = self.fake.gateway, self.fake.world

        def ready() -> bool:
            if self.proc is not None and self.proc.returncode is not None:
                raise RuntimeError(f"bot exited with {self.proc.returncode}:\n{self.output()}")
            fresh = gateway.sessions[self._sessions_before:]
            synced = all(any(name in table for table in world.commands.values()) for name in commands)
            return any(s.guilds_sent and not s.closed for s in fresh) and synced

        try:
            await self.fake.wait_for(ready, timeout, "the bot process to connect")
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}; bot output:\n{self.output()}") from None

    async def wait_for_output(self, text: str, timeout: float = 10.0) -> None:
        """Until the bot has printed `text` since its latest start (e.g. a line its on_ready logs)."""
        marker = f"--- start #{self.starts}\n"

        def printed() -> bool:
            if self.proc is not None and self.proc.returncode is not None:
                raise RuntimeError(f"bot exited with {self.proc.returncode}:\n{self.output()}")
            return text in self.output().rsplit(marker, 1)[-1]

        await self.fake.wait_for(printed, timeout, f"the bot to print {text!r}")

    CLOSING = "closing cleanly"
    """What skatbot logs (at INFO) when its clean close begins (skatbot.app.CLOSING; this harness serves any bot
    script, so it does not import the bot)."""

    async def stop(self, timeout: float = 5.0, closing: float = 30.0) -> int | None:
        """Ctrl-C (the bot closes cleanly), then kill if it lingers; returns the exit code.

        A second Ctrl-C follows after a second: on Python 3.11 a cancellation can be swallowed by
        asyncio.wait_for racing a finished inner future, leaving the bot running after the first. Not to a bot
        that said it is closing (`CLOSING`): it is given `closing` seconds to finish, as a second Ctrl-C would cut
        its close short (the messages it still shows, e.g. behind a rate limit; its database left open, whose
        threads then keep the process from exiting).
        """
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return None if proc is None else proc.returncode
        proc.send_signal(signal.SIGINT)
        if not await self._exits(proc, 1.0) and self.CLOSING in self._latest_output():
            await self._exits(proc, closing)
        for signum, wait in ((signal.SIGINT, timeout), (signal.SIGUSR1, 0.2)):
            if proc.returncode is not None:
                break
            proc.send_signal(signum)  # SIGUSR1: launch_bot dumps its stacks into the output
            await self._exits(proc, wait)
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        return proc.returncode

    @staticmethod
    async def _exits(proc: asyncio.subprocess.Process, within: float) -> bool:
        try:
            await asyncio.wait_for(proc.wait(), within)
        except TimeoutError:
            return False
        return True

    def _latest_output(self) -> str:
        return self.output().rsplit(f"--- start #{self.starts}\n", 1)[-1]

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
