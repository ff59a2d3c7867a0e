"""A computer defender's answer to its human partner's concession: agree only when it sees no chance.

"No chance" is judged from what this seat knows: the unseen cards are dealt consistently with its view
(see `sampling`), and in every sampled world the declarer, with best play on both sides, still makes
the game (61, or 90 / every trick when announced; in null: avoids every trick). One world where the
defenders can still win is enough to play on. A search that runs out of its node budget counts as a
chance too: the AI never gives a game away on a guess.
"""

from __future__ import annotations

import random

from skatbot.engine.cards import points_of
from skatbot.engine.deal import Phase
from skatbot.engine.games import GameType
from skatbot.engine.views import SeatView

from .knowledge import read_view
from .sampling import Sampler
from .solver import Mode, Position, SearchAborted, Solver
from .strong import _leader, goal_of

WORLDS = 24
"""Sampled worlds the declarer must win in every one of (enough to find a chance where one is common)."""
NODE_BUDGET = 1_500_000
"""Solver nodes for the whole answer; spent, the answer is "play on"."""


def sees_no_chance(view: SeatView, seed: int, worlds: int = WORLDS) -> bool:
    """Whether this defender agrees to concede: the declarer wins in every sampled world."""
    contract, declarer = view.contract, view.declarer
    if view.phase is not Phase.PLAY or contract is None or declarer is None or declarer == view.seat \
            or contract.game is GameType.RAMSCH:
        return False
    know = read_view(view)
    goal = goal_of(view)
    solver = Solver(contract.game, declarer, goal.mode, node_limit=NODE_BUDGET)
    sampler = Sampler(view, know)
    rng = random.Random(seed)
    trick = tuple(card.index for _, card in view.current_trick)
    declarer_tricks = sum(t.winner == declarer for t in view.tricks)
    try:
        for _ in range(worlds):
            world = sampler.draw_plausible(rng)
            position = Position(world.hands, _leader(view), trick)
            if goal.mode is Mode.NULL:
                if declarer_tricks or solver.reaches(position, 1):
                    return False  # the declarer has taken a trick, or one can still be forced on them
                continue
            if goal.mode is Mode.TRICKS:
                rest = sum(h.bit_count() for h in position.hands) + len(trick)
                if len(view.tricks) != declarer_tricks or not solver.reaches(position, rest):
                    return False
                continue
            have = know.points[declarer] + points_of(world.skat)
            if goal.target - have > 0 and not solver.reaches(position, goal.target - have):
                return False
    except SearchAborted:
        return False
    return True
