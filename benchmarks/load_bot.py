"""bot.py as benchmarks/bot_load runs it: the same program, with the store's timings logged.

    python -m tests.e2e.fakediscord.launch_bot benchmarks/load_bot.py

Sets the logger `skatbot.timing` to DEBUG (the rest logs at SKATBOT_LOG_LEVEL), so every append and
catch-up read says how long the store took. With BOT_LOAD_PROFILE=FILE the bot runs under cProfile, timed
by the CPU time of its main thread (the event loop's: waits and other threads do not count), and writes its
statistics to FILE when it stops (read them with `python -m pstats FILE`).
"""

from __future__ import annotations

import cProfile
import logging
import os
import runpy
import time
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot.py"


def main() -> None:
    logging.getLogger("skatbot.timing").setLevel(logging.DEBUG)
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
