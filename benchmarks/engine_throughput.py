"""Engine throughput: complete random deals per second through the public state machine.

    .venv/bin/python -m benchmarks.engine_throughput                  # 5 s on every core
    .venv/bin/python -m benchmarks.engine_throughput --seconds 10 --processes 1
    .venv/bin/python -m benchmarks.engine_throughput --profile        # cProfile of one process

Each deal is shuffled and dealt (`Deal.new`), then every move is chosen uniformly at random from
`legal_actions()` and played with `apply()` — auction, skat, declaration, the tricks — and the
`result` is computed. This is the real engine, as the tables and the AI use it; nothing is copied.
Prints one line per process, the total, and last `deals_per_second: N`. Target: at least 5,000 on a
2-core machine (a peer C++ engine driven from Python, OpenSpiel's simplified Skat, does about 15,900).
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import os
import pstats
import random
import time

from skatbot.engine import Action, Deal, Declare, Phase


def _unannounced(action: Action) -> bool:
    return not (isinstance(action, Declare) and (action.contract.schneider or action.contract.schwarz))


def play_random_deal(seed: int, rng: random.Random) -> tuple[int, int]:
    """Play one deal to its end with random legal moves; returns (moves, tricks).

    Moves are uniform over `legal_actions()`, except that the random declarer announces no schneider
    or schwarz (an announced schwarz mostly ends at the defenders' first trick), so deals run their
    ten tricks unless a null is lost early or all pass.
    """
    deal = Deal.new(seed)
    moves = 0
    choice = rng.choice
    while not deal.is_over:
        actions = deal.legal_actions()
        if deal.phase is Phase.SKAT:
            actions = [a for a in actions if _unannounced(a)]
        deal.apply(choice(actions))
        moves += 1
    deal.result  # noqa: B018 - computing the result is part of a deal
    return moves, len(deal.tricks)


Report = tuple[int, int, int, int, float, float]
"""(worker, deals, moves, tricks, elapsed seconds, CPU seconds)"""


def run_for(seconds: float, worker: int) -> Report:
    """Play deals until `seconds` have passed."""
    rng = random.Random(worker * 7919 + 1)
    deals = moves = tricks = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(50):  # look at the clock every 50 deals
            deal_moves, deal_tricks = play_random_deal(rng.getrandbits(32), rng)
            moves += deal_moves
            tricks += deal_tricks
            deals += 1
        now = time.perf_counter()
        if now >= deadline:
            return worker, deals, moves, tricks, now - start, time.process_time() - cpu_start


def _run_star(args: tuple[float, int]) -> Report:
    return run_for(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each process plays (default 5)")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: every core)")
    parser.add_argument("--profile", action="store_true", help="profile one process and print the hot spots")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.processes < 1:
        parser.error("--seconds must be positive and --processes at least 1")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        _, deals, _, _, elapsed, _ = run_for(args.seconds, 0)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        print(f"profiled: {deals} deals in {elapsed:.2f} s (slowed by the profiler)")
        return 0
    if args.processes == 1:
        results = [run_for(args.seconds, 0)]
    else:
        with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
            results = pool.map(_run_star, [(args.seconds, w) for w in range(args.processes)])
    total_rate = 0.0
    total_deals = total_moves = total_tricks = 0
    for worker, deals, moves, tricks, elapsed, cpu in results:
        rate = deals / elapsed
        total_rate += rate
        total_deals += deals
        total_moves += moves
        total_tricks += tricks
        print(f"process {worker}: {deals} deals, {moves} moves in {elapsed:.2f} s: {rate:,.0f} deals/s "
              f"({deals / cpu:,.0f} per CPU second: the rate on an otherwise idle core)")
    print(f"total: {total_deals} deals on {len(results)} processes, {total_moves / total_deals:.1f} moves and "
          f"{total_tricks / total_deals:.1f} tricks a deal")
    print(f"deals_per_second: {total_rate:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
