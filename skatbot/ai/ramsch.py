"""Ramsch card play by search, for the strong level: take as few card points as possible.

Perfect-information Monte Carlo like the strong level's declared games: the unseen cards are dealt
consistently with the view (see `sampling`), and in each world every card this seat may play is
searched to the end of the deal with the solver's paranoid Ramsch mode (this seat minimises its own
card points, the other two maximise them: a safe assumption, as either may be the one who dumps points
on it). The card with the fewest points over the worlds is played. The effort is a node budget; when
it runs out before any world is solved (early in a deal), the normal level's heuristics decide.
"""

from __future__ import annotations

import random

from skatbot.engine.actions import PlayCard
from skatbot.engine.cards import CARDS, mask_of
from skatbot.engine.games import GameType
from skatbot.engine.views import SeatView

from .knowledge import read_view
from .sampling import Sampler
from .solver import Position, SearchAborted, Solver, layout

MAX_WORLDS = 24
"""Worlds per decision at most (late in a deal each costs almost nothing)."""
WORLD_CAP_FACTOR = 0.5
"""A single world may use this share of the budget; a harder one is dropped and another drawn."""


def ramsch_card(view: SeatView, rng: random.Random, node_budget: int) -> PlayCard | None:
    """The card with the fewest expected own points over sampled worlds; None when no world was solved."""
    legal = [a.card.index for a in view.legal_actions if isinstance(a, PlayCard)]
    if len(legal) == 1:
        return PlayCard(CARDS[legal[0]])
    candidates = _representatives(view, legal)
    if len(candidates) == 1:
        return PlayCard(CARDS[candidates[0]])
    sampler = Sampler(view, read_view(view))
    solver = Solver(GameType.RAMSCH, view.seat)
    trick = tuple(card.index for _, card in view.current_trick)
    leader = view.current_trick[0][0] if view.current_trick else view.tricks[-1].winner if view.tricks else 0
    totals = dict.fromkeys(candidates, 0)
    worlds = 0
    hard_cap = 2 * node_budget
    world_cap = max(1, int(node_budget * WORLD_CAP_FACTOR))
    while worlds < MAX_WORLDS and solver.nodes < node_budget:
        world = sampler.draw(rng)
        position = Position(world.hands, leader, trick)
        solver.node_limit = min(hard_cap, solver.nodes + world_cap)
        try:
            points = [_own_points(solver, position, card) for card in candidates]
        except SearchAborted:
            if solver.nodes >= hard_cap:
                break
            continue
        for card, taken in zip(candidates, points, strict=True):
            totals[card] += taken
        worlds += 1
    if not worlds:
        return None
    return PlayCard(CARDS[min(candidates, key=lambda card: (totals[card], card))])


def _own_points(solver: Solver, position: Position, card: int) -> int:
    after, gain = solver.play(position, card)
    if not (after.hands[0] | after.hands[1] | after.hands[2]) and not after.trick:
        return gain
    return gain + solver.value(after)


def _representatives(view: SeatView, legal: list[int]) -> list[int]:
    """One card per class of cards next to each other among the cards still in play (grand's order: the
    jacks are the only trumps) and worth the same points: they take the same points in every world."""
    lay = layout(GameType.GRAND)
    finished = 0
    for trick in view.tricks:
        finished |= mask_of(trick.cards)
    alive = lay.internal_mask(((1 << 32) - 1) & ~finished)
    legal_internal = lay.internal_mask(mask_of(CARDS[c] for c in legal))
    keep = []
    for card in sorted(lay.to_internal[c] for c in legal):
        higher = alive & lay.above[card]
        if higher:
            next_up = (higher & -higher).bit_length() - 1
            if legal_internal >> next_up & 1 and lay.points[card] == lay.points[next_up]:
                continue  # the next live card up is also ours and worth the same: keep that one
        keep.append(lay.to_engine[card])
    return keep
