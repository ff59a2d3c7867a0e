"""How fast the AI decides: the exact solver by tricks left, and each level's decision time.

Solver: deals bid and declared by the normal level, played by it down to 10, 8 and 6 tricks left, then
solved exactly (card points for suit and grand, win or lose for null), each by a new solver; CPU time
(other processes on the machine do not count), with the nodes searched, and with 10 tricks left also by
game type. Levels: every decision (bids, skat, declaration, cards) of whole deals with all three seats at
that level, timed one at a time on one core, and apart the bidding, skat/declaration and (with
`--kontra`) Kontra/Re decisions (CPU). Targets: solver with 10 tricks left median <= 100 ms and
p95 <= 500 ms, with 6 median < 10 ms; strong p95 < 1.0 s and max < 2 s, its card play p95 <= 0.5 s, its bidding and declaration p95 <= 1 s; normal < 50 ms.

    .venv/bin/python -m benchmarks.ai_speed [--solver-deals 200] [--level-deals 12] [--levels ...] [--plain]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from typing import NamedTuple

from benchmarks import ai_variants
from skatbot.ai import Level, levels, make_player
from skatbot.ai.base import ComputerPlayer
from skatbot.ai.runner import ask_side_actions
from skatbot.ai.solver import Solver, position_from_deal, warm_up
from skatbot.ai.strong import StrongPlayer
from skatbot.engine.actions import Action
from skatbot.engine.deal import Deal, Phase
from skatbot.engine.games import GameType
from skatbot.engine.rules import RuleSet
from skatbot.engine.views import SeatView, seat_view


def declared_deal(seed: int, tricks_left: int) -> Deal | None:
    """A deal the normal level bid, declared and played until `tricks_left` tricks remain."""
    deal = Deal.new(seed)
    players = [make_player(Level.NORMAL, seed * 3 + seat) for seat in range(3)]
    while not deal.is_over and (deal.phase is not Phase.PLAY or len(deal.tricks) < 10 - tricks_left
                                or deal.current_trick):
        seat = deal.current_seat
        assert seat is not None
        deal.apply(players[seat].choose(seat_view(deal, seat)), seat)
    if deal.is_over or deal.declarer is None:
        return None
    return deal


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class SolverRun(NamedTuple):
    game: GameType
    wall: float
    cpu: float
    nodes: int


def bench_solver(tricks_left: int, deals: int, first_seed: int, canonical: bool = True) -> list[SolverRun]:
    """The exact value of `deals` positions with `tricks_left` tricks to play, each by a new solver
    (`canonical` False: without canonical trick starts, to compare)."""
    runs: list[SolverRun] = []
    seed = first_seed
    while len(runs) < deals:
        seed += 1
        deal = declared_deal(seed, tricks_left)
        if deal is None:
            continue
        assert deal.contract is not None and deal.declarer is not None
        solver = Solver(deal.contract.game, deal.declarer, canonical=canonical)
        started, started_cpu = time.perf_counter(), time.process_time()
        solver.value(position_from_deal(deal))
        runs.append(SolverRun(deal.contract.game, time.perf_counter() - started,
                              time.process_time() - started_cpu, solver.nodes))
    return runs


def solver_line(label: str, runs: list[SolverRun]) -> str:
    cpu = [run.cpu for run in runs]
    wall = [run.wall for run in runs]
    nodes = [run.nodes for run in runs]
    return (f"  {label}: CPU median {ms(statistics.median(cpu))}  p95 {ms(quantile(cpu, 0.95))}  max "
            f"{ms(max(cpu))}  (wall median {ms(statistics.median(wall))}, p95 {ms(quantile(wall, 0.95))}; nodes "
            f"median {int(statistics.median(nodes))}, p95 {int(quantile([float(n) for n in nodes], 0.95))};"
            f" {len(runs)} deals)")


Timings = tuple[list[float], list[float], list[float], list[int], dict[str, list[float]], list[float]]

CONTRACT_PHASES = {Phase.AUCTION: "bidding", Phase.SKAT: "skat/declaration", Phase.DISCARD: "skat/declaration",
                   Phase.DECLARE: "skat/declaration"}
"""The decisions reported apart from card play (their target: p95 <= 1 s on one core)."""


def bench_level(level: str, deals: int, first_seed: int, kontra: bool = False) -> Timings:
    """Seconds per decision (wall and CPU), card play only (wall), worlds per strong card decision, CPU
    seconds per bidding, skat/declaration and Kontra/Re decision, and card play only (CPU: on a loaded
    machine the wall time says more about the load than about the search)."""
    by_kind: dict[str, list[float]] = {"bidding": [], "skat/declaration": [], "kontra/re": []}
    every: list[float] = []
    cpu: list[float] = []
    cards: list[float] = []
    cards_cpu: list[float] = []
    worlds: list[int] = []
    for number in range(deals):
        seed = first_seed + number
        deal = Deal.new(seed, RuleSet(kontra=True) if kontra else RuleSet())
        players = [ai_variants.make(level, seed * 3 + seat) for seat in range(3)]
        asked: set[tuple[int, str]] = set()
        timed = [TimedSide(player, by_kind["kontra/re"]) for player in players]
        while not deal.is_over:
            ask_side_actions(deal, timed, asked)
            seat = deal.current_seat
            assert seat is not None
            view = seat_view(deal, seat)
            started, started_cpu = time.perf_counter(), time.process_time()
            action = players[seat].choose(view)
            spent = time.perf_counter() - started
            every.append(spent)
            cpu.append(time.process_time() - started_cpu)
            if view.phase in CONTRACT_PHASES:
                by_kind[CONTRACT_PHASES[view.phase]].append(cpu[-1])
            if view.phase is Phase.PLAY:
                cards.append(spent)
                cards_cpu.append(cpu[-1])
                player = players[seat]
                if isinstance(player, StrongPlayer) and len(view.legal_actions) > 1:
                    worlds.append(player.last_worlds)
            deal.apply(action, seat)
    return every, cpu, cards, worlds, by_kind, cards_cpu


class TimedSide:
    """A player whose Kontra/Re answers are timed (CPU) into `times`."""

    def __init__(self, player: ComputerPlayer, times: list[float]) -> None:
        self.player, self.times = player, times

    def choose(self, view: SeatView) -> Action:
        return self.player.choose(view)

    def side_action(self, view: SeatView) -> Action | None:
        started = time.process_time()
        action = self.player.side_action(view)
        self.times.append(time.process_time() - started)
        return action


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--solver-deals", type=int, default=200, help="positions per trick count (default 200)")
    parser.add_argument("--level-deals", type=int, default=12, help="whole deals per level (default 12)")
    parser.add_argument("--levels", nargs="*", default=None,
                        help=f"levels to time (default: {' '.join(levels())}; switches as in ai_variants: strong+contracts)")
    parser.add_argument("--seed", type=int, default=1000, help="first deal seed")
    parser.add_argument("--plain", action="store_true",
                        help="the solver without canonical trick starts (as before they came), to compare")
    parser.add_argument("--kontra", action="store_true", help="level deals with Kontra and Re allowed")
    options = parser.parse_args(argv)
    chosen = options.levels if options.levels is not None else list(levels())
    for level in chosen:
        problem = ai_variants.check(level)
        if problem:
            parser.error(problem)
    started = time.perf_counter()
    warm_up()  # numba compiles the search once per machine (then loads it from its cache)
    print(f"solver compiled or loaded from numba's cache in {time.perf_counter() - started:.2f} s (not counted below)")
    print("exact double-dummy solve (value of the rest for the declarer), one core, CPU time")
    for tricks_left in (10, 8, 6):
        runs = bench_solver(tricks_left, options.solver_deals, options.seed, not options.plain)
        print(solver_line(f"{tricks_left:2d} tricks left", runs))
        if tricks_left == 10:
            for game in GameType:
                of_game = [run for run in runs if run.game is game]
                if of_game:
                    print("  " + solver_line(f"{game.name.lower():8s}", of_game))
    if options.level_deals < 1:
        return  # the solver alone
    print("decision time per level (every decision of whole deals, all seats at that level)")
    for level in chosen:
        every, cpu, cards, worlds, by_kind, cards_cpu = bench_level(level, options.level_deals, options.seed,
                                                         options.kontra)
        line = (f"  {level:7s} {len(every):4d} decisions: median {ms(statistics.median(every))}  p95 "
                f"{ms(quantile(every, 0.95))}  max {ms(max(every))}  (CPU p95 {ms(quantile(cpu, 0.95))}"
                f" max {ms(max(cpu))})")
        if cards:
            line += f" | card play p95 {ms(quantile(cards, 0.95))} (CPU p95 {ms(quantile(cards_cpu, 0.95))})"
        if worlds:
            line += f", worlds per searched card: median {statistics.median(worlds):.0f}"
            line += f", none solved {100 * sum(w == 0 for w in worlds) / len(worlds):.0f}%"
        print(line)
        for kind, times in by_kind.items():
            if times:
                print(f"          {kind:17s} {len(times):4d} decisions: CPU median {ms(statistics.median(times))}"
                      f"  p95 {ms(quantile(times, 0.95))}  max {ms(max(times))}")


if __name__ == "__main__":
    main()
