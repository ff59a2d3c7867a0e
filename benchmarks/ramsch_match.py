"""Duplicate Ramsch match between two AI levels: who takes fewer points when everyone has passed.

Every deal is a Ramsch (all three pass) played six times: A in one seat against two B's and two A's
against one B, each in three rotations, so the cards' luck cancels. The figure is the mean Ramsch score
of an A seat minus that of a B seat per deal (the loser is written minus their card points), with a
95% confidence interval over deals, and A's time per card decision (median, p95, max; each worker
compiles the searches before its first deal, so that is not counted). The workers run niced. A long
match is opt-in: it is not part of the test suite.

    .venv/bin/python -m benchmarks.ramsch_match --deals 200 --a strong --b normal [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Sequence
from multiprocessing import Pool

from skatbot.ai import Level, levels, make_player, ramsch_search, solver
from skatbot.engine.actions import Pass
from skatbot.engine.deal import Deal, Phase
from skatbot.engine.rules import AllPass, RuleSet
from skatbot.engine.views import seat_view

SEATINGS: tuple[tuple[str, str, str], ...] = (
    ("A", "B", "B"), ("B", "A", "B"), ("B", "B", "A"),
    ("B", "A", "A"), ("A", "B", "A"), ("A", "A", "B"),
)
"""A in one seat against two B's, and two A's against one B, each in three rotations."""

RULES = RuleSet(all_pass=AllPass.RAMSCH)


def ramsch_deal(seed: int, rules: RuleSet = RULES) -> Deal:
    """The deal of `seed` with everyone passing: a Ramsch ready for its first card."""
    deal = Deal.new(seed, rules)
    while deal.phase is not Phase.PLAY:
        deal.apply(Pass())
    return deal


def summarize(differences: Sequence[float]) -> tuple[float, float, float]:
    """Mean difference and the 95% confidence interval (normal approximation over deals)."""
    n = len(differences)
    mean = sum(differences) / n
    variance = sum((v - mean) ** 2 for v in differences) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def play_ramsch(args: tuple[int, Level, Level, RuleSet]) -> tuple[float, list[float]]:
    """The mean score of an A seat minus that of a B seat over the deal's six seatings, and the seconds
    each of A's card decisions took."""
    seed, level_a, level_b, rules = args
    totals = {"A": 0, "B": 0}
    seats = {"A": 0, "B": 0}
    times: list[float] = []
    for number, seating in enumerate(SEATINGS):
        players = [make_player(level_a if who == "A" else level_b, seed * 31 + number * 3 + seat)
                   for seat, who in enumerate(seating)]
        deal = ramsch_deal(seed, rules)
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            view = seat_view(deal, seat)
            started = time.perf_counter()
            action = players[seat].choose(view)
            if seating[seat] == "A":
                times.append(time.perf_counter() - started)
            deal.apply(action, seat)
        result = deal.result
        for seat, who in enumerate(seating):
            totals[who] += result.seat_scores[seat]
            seats[who] += 1
    return totals["A"] / seats["A"] - totals["B"] / seats["B"], times


def prepare_worker(niceness: int) -> None:
    """Lower the worker's priority (CPU is shared) and compile the searches before the first deal."""
    os.nice(niceness)
    solver.warm_up()
    ramsch_search.warm_up()


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200, help="Ramsch deals (each played 6 times)")
    parser.add_argument("--a", default="strong", help=f"level A ({', '.join(levels())})")
    parser.add_argument("--b", default="normal", help="level B")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--nice", type=int, default=10, help="niceness added to the workers (default 10)")
    parser.add_argument("--jungfrau", action="store_true", help="play with Jungfrau (a trickless player doubles)")
    parser.add_argument("--no-durchmarsch", action="store_true", help="a player taking every trick loses 120")
    parser.add_argument("--progress", type=int, default=0, help="print the running figure every N deals")
    options = parser.parse_args(argv)
    for level in (options.a, options.b):
        if level not in levels():
            parser.error(f"unknown level {level!r}: choose one of {', '.join(levels())}")
    if options.deals < 2:
        parser.error("play at least 2 deals for a confidence interval")
    rules = RuleSet(all_pass=AllPass.RAMSCH, ramsch_jungfrau=options.jungfrau,
                    ramsch_durchmarsch=not options.no_durchmarsch)
    jobs = [(options.seed + i, Level(options.a), Level(options.b), rules) for i in range(options.deals)]
    started = time.perf_counter()
    outcomes: list[float] = []
    times: list[float] = []
    with Pool(options.workers, initializer=prepare_worker, initargs=(options.nice,)) as pool:
        for outcome, deal_times in pool.imap(play_ramsch, jobs):
            outcomes.append(outcome)
            times.extend(deal_times)
            if options.progress and len(outcomes) % options.progress == 0 and len(outcomes) > 1:
                mean, low, high = summarize(outcomes)
                print(f"  after {len(outcomes)} deals: {mean:+.2f} [{low:+.2f}, {high:+.2f}]", flush=True)
    mean, low, high = summarize(outcomes)
    print(f"Ramsch duplicate match, {options.a} (A) vs {options.b} (B): {options.deals} deals x 6 seatings, "
          f"Durchmarsch {'off' if options.no_durchmarsch else 'on'}, Jungfrau {'on' if options.jungfrau else 'off'}")
    print(f"A - B per deal (mean seat score): {mean:+.2f}  95% CI [{low:+.2f}, {high:+.2f}]")
    print(f"A's card decisions: {len(times)}, median {percentile(times, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(times, 0.95) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")
    print(f"  {time.perf_counter() - started:.1f} s on {options.workers} processes")


if __name__ == "__main__":
    main()
