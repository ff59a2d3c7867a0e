"""How long the deal analysis takes: whole deals bid and played by the normal level, then analysed.

Prints the analysis time per deal (median, p95, max; wall and CPU) on one core and how many deals had a card that
turned the outcome. Target: p95 <= 3 s per deal.

    .venv/bin/python -m benchmarks.ai_analysis [--deals 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from skatbot.ai import make_player
from skatbot.ai.analysis import analyse
from skatbot.ai.runner import ask_side_actions
from skatbot.ai.solver import warm_up
from skatbot.engine.deal import Deal
from skatbot.engine.views import seat_view

from .ai_speed import ms, quantile


def played_deal(seed: int) -> Deal:
    """A whole deal with three normal-level players."""
    deal = Deal.new(seed)
    players = [make_player("normal", seed * 3 + seat) for seat in range(3)]
    asked: set[tuple[int, str]] = set()
    while not deal.is_over:
        ask_side_actions(deal, players, asked)
        seat = deal.current_seat
        assert seat is not None
        deal.apply(players[seat].choose(seat_view(deal, seat)), seat)
    return deal


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40, help="declared deals to analyse (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    options = parser.parse_args(argv)
    warm_up()
    times: list[float] = []
    cpu: list[float] = []
    turned = 0
    seed = options.seed
    while len(times) < options.deals:
        deal = played_deal(seed)
        seed += 1
        if deal.declarer is None:
            continue
        started, started_cpu = time.perf_counter(), time.process_time()
        analysis = analyse(deal)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        turned += bool(analysis.turnings)
    print(f"deal analysis ({len(times)} declared deals by the normal level, one core): median "
          f"{ms(statistics.median(times))}  p95 {ms(quantile(times, 0.95))}  max {ms(max(times))} (CPU median "
          f"{ms(statistics.median(cpu))}  p95 {ms(quantile(cpu, 0.95))});"
          f" {turned} deals with a card that turned the outcome")


if __name__ == "__main__":
    main()
