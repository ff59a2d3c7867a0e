"""Policy-based inference: how likely each other seat's public actions were, given the cards a world
gives it (Rebstock et al. 2019 weight worlds this way, where uniform sampling ignores what was said).

The model of play is our own `normal` level's bidding, softened: a seat whose bids, holds and passes
fit the limit `normal` would have for its cards in a world keeps that world at full weight, each action
that does not fit multiplies it by `MISFIT` (people and other levels do not bid like `normal`, so no world
is ruled out). A world is then kept with its likelihood as probability (rejection sampling, bounded by
the caller's tries), which is exactly sampling in proportion to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from skatbot.engine.actions import Action, Bid, Hold, Pass

from .knowledge import cards
from .normal import bid_limit

MISFIT = 0.2
"""Weight factor for each auction action that the model would not have made with the world's cards."""


def auction_facts(auction: Sequence[tuple[int, Action]], ladder: Sequence[int]) -> dict[int, tuple[int, int]]:
    """Per seat that acted: (the highest value it said or held, 0 if none; the lowest value it refused,
    0 if it never passed). A pass after another seat's bid refuses to hold that bid; any other pass refuses
    to bid the next value on the ladder."""
    facts: dict[int, tuple[int, int]] = {}
    current = 0
    previous: tuple[int, Action] | None = None
    for seat, action in auction:
        said, refused = facts.get(seat, (0, 0))
        if isinstance(action, Bid):
            current = action.value
            said = max(said, current)
        elif isinstance(action, Hold):
            said = max(said, current)
        elif isinstance(action, Pass):
            if previous is not None and previous[0] != seat and isinstance(previous[1], Bid):
                refused = current
            else:
                refused = next((v for v in ladder if v > current), current + 1)
        facts[seat] = (said, refused)
        previous = (seat, action)
    return facts


@lru_cache(maxsize=8192)
def model_limit(hand: int, seat: int) -> int:
    """The bid limit the model (`normal`) has for ten cards (a mask) in `seat`."""
    return bid_limit(cards(hand), seat)


SHARP_MISFIT = 0.02
"""`MISFIT` for the contract evaluator's sharp worlds (`contracts.solve` with facts): after a bid of 30 only
about 11% of uniform worlds fit the bidder's cards, so at 0.2 the misfitting ones kept 59% of the weight
(benchmarks/auction_inference.py); at 0.02, 13%."""


def seat_likelihood(facts: tuple[int, int], hand: int, seat: int, misfit: float = MISFIT) -> float:
    """How well `seat`'s auction (its `auction_facts`) fits the model with `hand` (its ten dealt cards)."""
    said, refused = facts
    if not said and not refused:
        return 1.0
    limit = model_limit(hand, seat)
    weight = 1.0
    if said and limit < said:
        weight *= misfit
    if refused and limit >= refused:
        weight *= misfit
    return weight
