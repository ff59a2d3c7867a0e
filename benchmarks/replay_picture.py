"""How long a replay's trick picture takes to draw: every hand open, the trick beside them (issue 24: <= 20 ms).

    .venv/bin/python -m benchmarks.replay_picture            # 200 drawings of trick pictures from 20 AI deals
    .venv/bin/python -m benchmarks.replay_picture --runs 500

The figure is the median CPU time of one fresh drawing (the picture's content cache cleared before each, as
benchmarks/pictures.py measures the hand and the trick sheet; the card faces stay cached, as in the running
bot after its first picture), with the 90th percentile beside it; then the same with the card faces drawn
anew each time too (a cold process), for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import time

from skatbot.ai import make_player, play_deal
from skatbot.ai.base import Level
from skatbot.engine import Deal
from skatbot.engine.games import sort_key
from skatbot.models import Deck
from skatbot.pictures import faces
from skatbot.pictures.replay import _replay_png, replay_picture
from skatbot.ui.replay import Replay, read_replay

TARGET_MS = 20.0


def deals(count: int) -> list[Replay]:
    """Finished deals of the normal AI with at least one trick, read for their replays."""
    out: list[Replay] = []
    seed = 0
    while len(out) < count:
        seed += 1
        deal = Deal.new(seed)
        play_deal(deal, [make_player(Level.NORMAL, seed * 3 + seat) for seat in range(3)])
        if deal.tricks:
            out.append(read_replay(deal, ("Anna", "Bert", "Carla"), seed))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.replay_picture", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args()
    replays = deals(args.deals)
    steps = [(replay, moment) for replay in replays for moment in replay.moments]
    def measure(cold: bool) -> list[float]:
        times = []
        for run in range(args.runs):
            replay, moment = steps[run % len(steps)]
            game = replay.deal.game
            hands = [sorted(hand, key=lambda card: sort_key(game, card)) for hand in moment.hands]
            _replay_png.cache_clear()
            if cold:
                faces._face.cache_clear()
            started = time.thread_time()
            replay_picture(replay.names, hands, moment.trick, title="Trick 1", points="14 : 25",
                           declarer=replay.deal.declarer, deck=Deck.FRENCH if run % 2 else Deck.GERMAN)
            times.append((time.thread_time() - started) * 1000)
        return times

    times = measure(cold=False)
    median, p90 = statistics.median(times), statistics.quantiles(times, n=10)[-1]
    print(f"replay trick picture: median {median:.1f} ms, p90 {p90:.1f} ms over {args.runs} fresh drawings "
          f"(target <= {TARGET_MS:.0f} ms): {'ok' if median <= TARGET_MS else 'TOO SLOW'}")
    cold = measure(cold=True)
    print(f"  with every card face drawn anew too (a cold process): median {statistics.median(cold):.1f} ms, "
          f"p90 {statistics.quantiles(cold, n=10)[-1]:.1f} ms")


if __name__ == "__main__":
    main()
