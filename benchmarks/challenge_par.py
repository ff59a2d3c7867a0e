"""How long the par of a challenge day takes: the strong AI plays each of the day's deals in the player's seat
against the day's two strong opponents (skatbot.challenge.par_line), one deal after another in one process, on
one core, as the bot's AI worker does. CPU time per deal and per day (other processes on the machine do not
count), and wall time. Target: a day's six deals within a minute.

The first strong decision loads the search compiled by numba; it is made before the clock starts (`warm_up`).

    nice -n 15 .venv/bin/python -m benchmarks.challenge_par [--days 3] [--deals 6] [--secret TEXT]
"""

from __future__ import annotations

import argparse
import time
from datetime import date, timedelta

from skatbot.ai.solver import warm_up
from skatbot.challenge import DEFAULT_DEALS, ChallengeDay, par_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=3, help="days measured, from 2026-12-01 on")
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="deals per day")
    parser.add_argument("--secret", default="benchmark secret", help="the bot-wide secret the days come from")
    args = parser.parse_args()
    warm_up()
    days = []
    for offset in range(args.days):
        day = ChallengeDay.of(args.secret, date(2026, 12, 1) + timedelta(days=offset))
        cpu0, wall0 = time.process_time(), time.perf_counter()
        cells = []
        for number in range(args.deals):
            start = time.process_time()
            line = par_line(day, number)
            cells.append(f"{number + 1}: par {line.score:+d}, {len(line.moves)} moves, "
                         f"{time.process_time() - start:.1f} s")
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        days.append(cpu)
        print(f"{day.day}: {args.deals} deals, CPU {cpu:.1f} s (wall {wall:.1f} s)  [{'; '.join(cells)}]", flush=True)
    print(f"par of a day's {args.deals} deals: CPU max {max(days):.1f} s, mean {sum(days) / len(days):.1f} s "
          f"over {len(days)} days (target: within 60 s)")


if __name__ == "__main__":
    main()
