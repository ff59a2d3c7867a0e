"""How long the solver's services for players take: deal analysis, hints and claim checks.

Whole deals bid and played by the normal level. Prints, on one core (wall and CPU):
- the analysis time per deal (median, p95, max) and how many deals had a card that turned the outcome
  (target: p95 <= 3 s per deal);
- the hint time per decision (every decision of the first --hint-deals deals, as a learner would ask);
- the claim check time (the declarer's claim judged at each of their card-play turns).

    .venv/bin/python -m benchmarks.ai_analysis [--deals 40] [--hint-deals 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from skatbot.ai import Level, make_player
from skatbot.ai.analysis import analyse
from skatbot.ai.hints import hint
from skatbot.ai.runner import ask_side_actions
from skatbot.ai.solver import warm_up
from skatbot.engine.deal import Deal, Phase
from skatbot.engine.views import seat_view
from skatbot.tables.ai_bridge import judge_claim


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def played_deal(seed: int) -> Deal:
    """A whole deal with three normal-level players."""
    deal = Deal.new(seed)
    players = [make_player(Level.NORMAL, seed * 3 + seat) for seat in range(3)]
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
    parser.add_argument("--hint-deals", type=int, default=6, help="deals whose every decision gets a hint")
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
    hints, claims = hints_and_claims(options.seed, options.hint_deals)
    print(f"hint per decision, CPU ({len(hints)} decisions): median {ms(statistics.median(hints))}  p95 "
          f"{ms(quantile(hints, 0.95))}  max {ms(max(hints))}")
    print(f"claim check, CPU ({len(claims)} declarer turns): median {ms(statistics.median(claims))}  p95 "
          f"{ms(quantile(claims, 0.95))}  max {ms(max(claims))}")


def hints_and_claims(first_seed: int, deals: int) -> tuple[list[float], list[float]]:
    """CPU seconds per hint (every decision of whole deals) and per claim check (each declarer card turn):
    CPU time, as these run in the AI workers, where other tables' work only queues them."""
    hints: list[float] = []
    claims: list[float] = []
    for seed in range(first_seed, first_seed + deals):
        deal = Deal.new(seed)
        players = [make_player(Level.NORMAL, seed * 3 + seat) for seat in range(3)]
        asked: set[tuple[int, str]] = set()
        while not deal.is_over:
            ask_side_actions(deal, players, asked)
            seat = deal.current_seat
            assert seat is not None
            view = seat_view(deal, seat)
            started = time.process_time()
            hint(view, seed)
            hints.append(time.process_time() - started)
            if deal.phase is Phase.PLAY and seat == deal.declarer and deal.contract is not None:
                started = time.process_time()
                judge_claim(deal.contract.game, seat, (deal.hand_mask(0), deal.hand_mask(1), deal.hand_mask(2)),
                            deal.trick_leader, tuple(card.index for _, card in deal.current_trick))
                claims.append(time.process_time() - started)
            deal.apply(players[seat].choose(view), seat)
    return hints, claims


if __name__ == "__main__":
    main()
