"""Pictures: how long drawing takes, and what they cost the bot under load.

    .venv/bin/python -m benchmarks.pictures                 # render times, then bot_load with 10 tables
    .venv/bin/python -m benchmarks.pictures --tables 20 --no-load

Render times are medians of the CPU time of fresh drawings (the content caches cleared before each):
hand_ms (a 10-card hand, fanned), trick_sheet_ms (a finished deal's ten tricks), chart_ms (a series'
running totals with matplotlib). Targets: < 20, < 50, < 150 ms. Then the bot_load figures of one run with
pictures on (the default) and one with pictures off (`/skat settings pictures: off`), side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import statistics
import time
from collections.abc import Callable

from skatbot.ai import make_player, play_deal
from skatbot.ai.base import Level
from skatbot.engine import Deal
from skatbot.engine.games import sort_key
from skatbot.models import Deck
from skatbot.pictures import faces
from skatbot.pictures.charts import totals_chart
from skatbot.pictures.hand import _hand_png, hand_picture
from skatbot.pictures.tricks import _sheet_png, trick_sheet


def median_ms(draw: Callable[[int], object], clear: Callable[[], None], runs: int) -> float:
    """The median CPU time of one drawing, in ms (CPU time of this thread: the work on one core, not how
    long a busy machine made it wait)."""
    times = []
    for run in range(runs):
        clear()
        started = time.thread_time()
        draw(run)
        times.append((time.thread_time() - started) * 1000)
    return round(statistics.median(times), 1)


def render_times(runs: int) -> dict[str, float]:
    deals = []
    for seed in range(runs):
        deal = Deal.new(seed)
        play_deal(deal, [make_player(Level.NORMAL, seed * 3 + seat) for seat in range(3)])
        deals.append(deal)
    hands = [sorted(Deal.new(seed).hand(0), key=lambda c: sort_key(None, c)) for seed in range(runs)]
    for hand in hands:  # the card faces themselves are drawn once per process: warm them
        hand_picture(hand, Deck.FRENCH)
    totals_chart(["a", "b", "c"], [[1, 0, 0]])  # matplotlib's import and font cache, once per process
    scores = [[list(d.result.seat_scores) for d in deals[:k + 6]] for k in range(runs)]
    return {
        "hand_ms": median_ms(lambda k: hand_picture(hands[k], Deck.FRENCH), _hand_png.cache_clear, runs),
        "trick_sheet_ms": median_ms(lambda k: trick_sheet(["alice", "bob", "carol"], deals[k].tricks, deals[k].skat,
                                                          Deck.FRENCH), _sheet_png.cache_clear, runs),
        "chart_ms": median_ms(lambda k: totals_chart(["alice", "bob", "carol"], scores[k % len(scores)]),
                              lambda: None, runs),
        "card_face_cold_ms": median_ms(lambda k: faces.card_face(hands[k][0], Deck.GERMAN, 84),
                                       faces._face.cache_clear, runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--no-load", action="store_true", help="only the render times")
    args = parser.parse_args()
    for name, value in render_times(args.runs).items():
        print(f"{name}: {value}")
    if args.no_load:
        return
    # by name: mypy checks benchmarks/ as loose scripts, where bot_load is a module of its own
    run = importlib.import_module("benchmarks.bot_load").run

    on = asyncio.run(run(args.tables, 1, 1, pictures=True))
    off = asyncio.run(run(args.tables, 1, 1, pictures=False))
    print(f"{'bot_load':<26} {'pictures on':>12} {'pictures off':>12}")
    for name in on:
        print(f"{name:<26} {on[name]!s:>12} {off[name]!s:>12}")


if __name__ == "__main__":
    main()
