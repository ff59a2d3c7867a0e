"""Duplicate tournament between two AI configurations, scored in Seeger-Fabian points.

Every deal is played six times: A in one seat against two B's (three rotations) and two A's against
one B (three rotations). Each seat is then held three times by A and three times by B in the same
company, so the luck of the cards cancels and what is left is skill. The figure is the mean Seeger-
Fabian score of an A seat minus that of a B seat, per deal, with a 95% confidence interval over deals.

    .venv/bin/python -m benchmarks.ai_tournament --deals 300 --a normal --b easy
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from skatbot.ai import Level, levels, make_player, play_deal
from skatbot.engine.deal import Deal
from skatbot.engine.rules import AllPass, RuleSet

SEATINGS: tuple[tuple[str, str, str], ...] = (
    ("A", "B", "B"), ("B", "A", "B"), ("B", "B", "A"),
    ("B", "A", "A"), ("A", "B", "A"), ("A", "A", "B"),
)


@dataclass(frozen=True)
class DealOutcome:
    """One deal played in all six seatings."""

    difference: float  # mean score of an A seat minus mean score of a B seat
    games: dict[str, list[int]]  # per configuration: [games declared, games won]


def play_duplicate(args: tuple[int, Level, Level, RuleSet]) -> DealOutcome:
    seed, level_a, level_b, rules = args
    totals = {"A": 0, "B": 0}
    seats = {"A": 0, "B": 0}
    games = {"A": [0, 0], "B": [0, 0]}
    for number, seating in enumerate(SEATINGS):
        players = [make_player(level_a if who == "A" else level_b, seed * 31 + number * 3 + seat)
                   for seat, who in enumerate(seating)]
        result = play_deal(Deal.new(seed, rules), players)
        for seat, who in enumerate(seating):
            totals[who] += result.seat_scores[seat]
            seats[who] += 1
        if result.declarer is not None:
            who = seating[result.declarer]
            games[who][0] += 1
            games[who][1] += int(result.won)
    return DealOutcome(totals["A"] / seats["A"] - totals["B"] / seats["B"], games)


def summarize(outcomes: Sequence[DealOutcome]) -> tuple[float, float, float]:
    """Mean difference and the 95% confidence interval (normal approximation over deals)."""
    values = [o.difference for o in outcomes]
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=300, help="number of deals (each played 6 times)")
    parser.add_argument("--a", default="normal", help=f"level A ({', '.join(levels())})")
    parser.add_argument("--b", default="easy", help="level B")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--ramsch", action="store_true", help="play Ramsch when all pass")
    parser.add_argument("--kontra", action="store_true", help="allow Kontra and Re")
    options = parser.parse_args(argv)
    for level in (options.a, options.b):
        if level not in levels():
            parser.error(f"unknown level {level!r}: choose one of {', '.join(levels())}")
    if options.deals < 2:
        parser.error("play at least 2 deals for a confidence interval")
    rules = RuleSet(all_pass=AllPass.RAMSCH if options.ramsch else AllPass.THROW_IN, kontra=options.kontra,
                    seeger_fabian=True)
    jobs = [(options.seed + i, Level(options.a), Level(options.b), rules) for i in range(options.deals)]
    started = time.perf_counter()
    with Pool(options.workers) as pool:
        outcomes = pool.map(play_duplicate, jobs, chunksize=4)
    elapsed = time.perf_counter() - started
    mean, low, high = summarize(outcomes)
    print(f"{options.a} (A) vs {options.b} (B): {options.deals} deals x 6 seatings, "
          f"rules: seeger-fabian{', ramsch' if options.ramsch else ''}{', kontra' if options.kontra else ''}")
    print(f"A - B per deal (mean seat score): {mean:+.2f}  95% CI [{low:+.2f}, {high:+.2f}]")
    for who, level in (("A", options.a), ("B", options.b)):
        played = sum(o.games[who][0] for o in outcomes)
        won = sum(o.games[who][1] for o in outcomes)
        rate = f"{100 * won / played:.0f}%" if played else "-"
        print(f"  {who} {level}: declared {played} games, won {won} ({rate})")
    print(f"  {elapsed:.1f} s on {options.workers} processes")


if __name__ == "__main__":
    main()
