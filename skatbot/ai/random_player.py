"""A random legal player: the floor every other level must beat by a wide margin.

Uniform over the legal actions, except in the auction, where it says the next number or holds with
probability one half and passes otherwise (uniform over all 60 bid values would mostly measure how
badly a bid of 264 loses, not anything about play).
"""

from __future__ import annotations

import random

from skatbot.engine.actions import PASS, Action, Bid, Hold
from skatbot.engine.deal import Phase
from skatbot.engine.views import SeatView

from .base import BasePlayer, Level


class RandomPlayer(BasePlayer):
    level = Level.RANDOM

    def decide(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if view.phase is Phase.AUCTION:
            raise_or_hold = [a for a in legal if isinstance(a, Hold)] or sorted(
                (a for a in legal if isinstance(a, Bid)), key=lambda a: a.value)[:1]
            if raise_or_hold and rng.random() < 0.5:
                return raise_or_hold[0]
            return PASS
        return rng.choice(legal)
