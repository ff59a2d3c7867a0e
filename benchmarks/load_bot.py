"""bot.py as benchmarks/bot_load runs it: the same program, with the store's timings logged.

    python -m tests.e2e.fakediscord.launch_bot benchmarks/load_bot.py

Sets the logger `skatbot.timing` to DEBUG (the rest logs at SKATBOT_LOG_LEVEL), so every append and
catch-up read says how long the store took, and samples the event loop's lag (`loop_lag ms=X`). With BOT_LOAD_PROFILE=FILE the bot runs under cProfile, timed
by the CPU time of its main thread (the event loop's: waits and other threads do not count), and writes its
statistics to FILE when it stops (read them with `python -m pstats FILE`). With BOT_LOAD_TRACE=FILE the modules each
table control's click runs through are written to FILE (benchmarks/click_path.py).
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
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


def time_collections() -> None:
    """Log each collection of the cyclic garbage collector that took 5 ms or more of the event loop's thread's CPU
    time (`gc_pause gen=G ms=X`; CPU time, so that a machine busy with other work does not inflate it): the
    event loop stands still meanwhile."""
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.thread_time()]
        elif started:
            ms = (time.thread_time() - started[0]) * 1000
            if ms >= 5:
                timing.debug("gc_pause gen=%d ms=%.3f", info["generation"], ms)

    gc.callbacks.append(callback)


def with_lag_samples() -> None:
    """Start `sample_lag` and `time_collections` with the bot (after its setup_hook)."""
    from skatbot.app import SkatBot

    setup = SkatBot.setup_hook

    async def setup_hook(self: SkatBot) -> None:
        await setup(self)
        time_collections()  # from here: start-up's own collection is not the tables'
        if os.environ.get("BOT_LOAD_TRACE"):
            from benchmarks.click_path import trace_clicks

            trace_clicks(os.environ["BOT_LOAD_TRACE"])
        LAG_TASKS.add(asyncio.get_running_loop().create_task(sample_lag()))

    SkatBot.setup_hook = setup_hook  # type: ignore[method-assign]


LAG_TASKS: set[asyncio.Task[None]] = set()
timing = logging.getLogger("skatbot.timing")


def without_freeze() -> None:
    """BOT_LOAD_NO_FREEZE=1: leave start-up's objects in the collector's sight (to compare)."""
    from skatbot import app

    app.settle_garbage_collector = gc.collect  # type: ignore[assignment]  # the comparison's only change


def main() -> None:
    if os.environ.get("BOT_LOAD_NO_FREEZE"):
        without_freeze()
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
