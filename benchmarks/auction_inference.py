"""How much of the contract evaluator's world weight fits what the other seats said (skatbot/ai/inference.py).

The evaluator (skatbot/ai/contracts.py) draws its worlds uniformly and weights each by the likelihood of the
other seats' auction in it: a world where a seat's bids or passes do not fit the model's limit for its cards
keeps `inference.MISFIT` of its weight per action. When the actions are rare a priori (a bid of 30 or 40),
the many misfitting worlds can outweigh the few that fit. This replays auctions bid by `normal` and, at every
decision taken after another seat has said 20 or more, measures the share of the weight (over uniform worlds,
as the evaluator draws them) on worlds that fit every action.

    nice -n 15 .venv/bin/python -m benchmarks.auction_inference --deals 400 [--misfit 0.2]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence

from skatbot.ai import inference
from skatbot.ai.contracts import draw_world, world_weight
from skatbot.ai.inference import auction_facts
from skatbot.ai.normal import NormalPlayer
from skatbot.engine.cards import mask_of
from skatbot.engine.deal import Deal, Phase
from skatbot.engine.rules import RuleSet
from skatbot.engine.views import seat_view

RULES = RuleSet(seeger_fabian=True)


def fit_share(seed: int, seat: int, mine: int, facts: dict[int, tuple[int, int]],
              worlds: int) -> tuple[float, float]:
    """Over `worlds` uniform worlds: the share of the weight on worlds fitting every action, and the share of
    the worlds that fit."""
    rng = random.Random(f"{seed}|{seat}|{mine}")
    fit = total = 0.0
    count = 0
    for _ in range(worlds):
        hands, _ = draw_world(rng, seat, mine)
        weight = world_weight(facts, seat, hands)
        total += weight
        if weight == 1.0:
            fit += weight
            count += 1
    return fit / total, count / worlds


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=200, help="uniform worlds per decision")
    parser.add_argument("--misfit", type=float, default=inference.MISFIT, help="weight factor per misfitting action")
    options = parser.parse_args(argv)
    inference.MISFIT = options.misfit
    by_bid: dict[int, list[tuple[float, float]]] = {}
    for seed in range(options.seed, options.seed + options.deals):
        deal = Deal.new(seed, RULES)
        players = [NormalPlayer(seed * 3 + s) for s in range(3)]
        while deal.phase is Phase.AUCTION and not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            view = seat_view(deal, seat)
            facts = auction_facts(view.auction, RULES.bid_ladder)
            said = max((s for other, (s, _) in facts.items() if other != seat), default=0)
            if said >= 20:
                step = max(floor for floor in (20, 24, 30, 40) if said >= floor)
                by_bid.setdefault(step, []).append(fit_share(seed, seat, mask_of(view.hand), facts, options.worlds))
            deal.apply(players[seat].choose(view), seat)
    print(f"MISFIT {options.misfit}; deals from seed {options.seed}: {options.deals}; {options.worlds} worlds per decision")
    for step, found in sorted(by_bid.items()):
        shares = [share for share, _ in found]
        low, _, high = statistics.quantiles(shares, n=4)
        print(f"  another seat said {step}+: {len(shares)} decisions, weight share on fitting worlds: median "
              f"{statistics.median(shares):.2f} (quartiles {low:.2f}-{high:.2f}); worlds that fit: median "
              f"{statistics.median(rate for _, rate in found):.2f} of those drawn")


if __name__ == "__main__":
    main()
