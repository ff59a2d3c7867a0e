"""bot.py as benchmarks/bot_load runs it: the same program, with the store's timings logged.

    python -m tests.e2e.fakediscord.launch_bot benchmarks/load_bot.py

Sets the logger `skatbot.timing` to DEBUG (the rest logs at SKATBOT_LOG_LEVEL), so every append and
catch-up read says how long the store took, and samples the event loop's lag (`loop_lag ms=X`). With BOT_LOAD_PROFILE=FILE the bot runs under cProfile, timed
by the CPU time of its main thread (the event loop's: waits and other threads do not count), and writes its
statistics to FILE when it stops (read them with `python -m pstats FILE`).
"""

from __future__ import annotations

import asyncio
import cProfile
import logging
import os
import runpy
import time
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot.py"


LAG_EVERY = 0.05
"""Seconds between the event loop's lag samples."""


async def sample_lag() -> None:
    """How late the event loop wakes a sleeper (`loop_lag ms=X`, every LAG_EVERY seconds): the wait every
    callback has when the loop is busy, the acknowledgements' included."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(LAG_EVERY)
        timing.debug("loop_lag ms=%.3f", (loop.time() - asked - LAG_EVERY) * 1000)


def with_lag_samples() -> None:
    """Start `sample_lag` with the bot (after its setup_hook)."""
    from skatbot.app import SkatBot

    setup = SkatBot.setup_hook

    async def setup_hook(self: SkatBot) -> None:
        await setup(self)
        LAG_TASKS.add(asyncio.get_running_loop().create_task(sample_lag()))

    SkatBot.setup_hook = setup_hook  # type: ignore[method-assign]


LAG_TASKS: set[asyncio.Task[None]] = set()
timing = logging.getLogger("skatbot.timing")


def main() -> None:
    timing.setLevel(logging.DEBUG)
    with_lag_samples()
    target = os.environ.get("BOT_LOAD_PROFILE")
    if not target:
        runpy.run_path(str(BOT), run_name="__main__")
        return
    profile = cProfile.Profile(time.thread_time)
    profile.enable()
    try:
        runpy.run_path(str(BOT), run_name="__main__")
    finally:
        profile.disable()
        profile.dump_stats(target)


if __name__ == "__main__":
    main()
